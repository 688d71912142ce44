// The page's one connection: the WebSocket at /ws on the page's own host, subprotocol
// gmcp.mudstandards.org. The server's text (UTF-8 with ANSI colour) comes in BINARY frames,
// GMCP in TEXT frames ("Tichu.Hand {json}"); every command goes back as one BINARY frame.

export const SUBPROTOCOL = "gmcp.mudstandards.org";

/** Where the socket is: ws: beside an http: page, wss: beside an https: one. */
export function socketUrl(place = window.location) {
  const scheme = place.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${place.host}/ws`;
}

export class Link {
  /** ``handlers``: text(string), gmcp(name, data), state("open"|"closed", detail). */
  constructor(handlers) {
    this.handlers = handlers;
    this.socket = null;
    this.decoder = new TextDecoder("utf-8");
    this.encoder = new TextEncoder();
  }

  open() {
    const socket = new WebSocket(socketUrl(), [SUBPROTOCOL]);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket.protocol !== SUBPROTOCOL) {
        this.handlers.state("closed", `the server did not agree to ${SUBPROTOCOL}`);
        socket.close();
        return;
      }
      this.handlers.state("open", "");
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket === socket) {
        this.socket = null;
        this.decoder = new TextDecoder("utf-8");
        this.handlers.state("closed", event.reason || "");
      }
    });
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  receive(data) {
    if (typeof data === "string") {
      const space = data.indexOf(" ");
      const name = space < 0 ? data : data.slice(0, space);
      let fields = {};
      if (space >= 0) {
        try {
          fields = JSON.parse(data.slice(space + 1));
        } catch (error) {
          return; // a package that is not JSON carries nothing the page can use
        }
      }
      this.handlers.gmcp(name, fields);
    } else {
      this.handlers.text(this.decoder.decode(new Uint8Array(data), { stream: true }));
    }
  }

  /** One command line (or chat line), as one BINARY frame. False when not connected. */
  send(line) {
    if (!this.isOpen) return false;
    this.socket.send(this.encoder.encode(`${line}\n`));
    return true;
  }
}
