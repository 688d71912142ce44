// The server's text with ANSI colours (SGR, ESC[...m) as DOM nodes: coloured runs become
// spans with classes (no inline styles: the page's Content Security Policy forbids them);
// any other escape sequence is dropped.

const ESCAPE = /\x1b\[([0-9;]*)([A-Za-z])/g;
const COLOURS = new Set([30, 31, 32, 33, 34, 35, 36, 37, 90, 91, 92, 93, 94, 95, 96, 97]);

/** A fragment holding ``text``, its coloured runs as ``<span class="ansi-31 ansi-bold">``. */
export function ansiFragment(text) {
  const fragment = document.createDocumentFragment();
  let colour = null;
  let bold = false;
  let at = 0;
  const emit = (raw) => {
    const piece = raw.replace(/\x1b/g, "");
    if (!piece) return;
    if (colour === null && !bold) {
      fragment.append(piece);
      return;
    }
    const span = document.createElement("span");
    if (colour !== null) span.classList.add(`ansi-${colour}`);
    if (bold) span.classList.add("ansi-bold");
    span.textContent = piece;
    fragment.append(span);
  };
  for (const match of text.matchAll(ESCAPE)) {
    emit(text.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[2] !== "m") continue;
    const codes = match[1] === "" ? [0] : match[1].split(";").map(Number);
    for (const code of codes) {
      if (code === 0) {
        colour = null;
        bold = false;
      } else if (code === 1) bold = true;
      else if (code === 22) bold = false;
      else if (code === 39) colour = null;
      else if (COLOURS.has(code)) colour = code;
    }
  }
  emit(text.slice(at));
  return fragment;
}

/** The text without any escape sequence. */
export function stripAnsi(text) {
  return text.replace(ESCAPE, "").replace(/\x1b/g, "");
}
