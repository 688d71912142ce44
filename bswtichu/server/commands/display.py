"""/width and /color: how human text looks on one's own connection.

Both change only the session's rendering choices (``Session.width``,
``Session.colour``); the net layer wraps and colours (render.py). Without them
the connection's defaults hold: the width the client reported (NAWS) and colour
if the client says it shows it (TTYPE/MTTS).
"""

from __future__ import annotations

from bswtichu.server.text import messages
from bswtichu.server.commands.registry import Command, is_number, wrong_use
from bswtichu.server.text.render import MAX_WIDTH, MIN_WIDTH
from bswtichu.server.session import Session

WIDTH_USAGE = "/width [N|off|auto]"
COLOR_USAGE = "/color [on|off|auto]"


def display_commands() -> list[Command]:
    return [
        Command(
            key="width", group="display",
            german="breite",
            usage=WIDTH_USAGE,
            summary="wrap text to N columns",
            help=f"Wraps sentences to N columns ({MIN_WIDTH}-{MAX_WIDTH}) for clients that do not"
            " report their width; off: no wrapping; auto: the width your client reports (NAWS),"
            " else 80 for MUD clients, else none. Without an argument, shows the setting."
            " Only human mode is wrapped.",
            handler=_width,
            needs_nick=False,
        ),
        Command(
            key="color", group="display",
            german="farbe",
            aliases=("colour",),
            usage=COLOR_USAGE,
            summary="coloured cards on or off",
            help="on: cards in ANSI colours (Jade green, Sword grey, Pagoda blue, Star red,"
            " Mah Jong yellow, Dog cyan, Phoenix magenta, Dragon bold red); off: plain;"
            " auto: on if your client says it shows colour (TTYPE/MTTS)."
            " Without an argument, shows the setting. Never in machine or relay mode.",
            handler=_color,
            needs_nick=False,
        ),
    ]


def _width(session: Session, args: str) -> None:
    word = args.lower()
    if word == "off":
        session.width = 0
    elif word == "auto":
        session.width = None
    elif is_number(args):
        width = int(args)
        if not MIN_WIDTH <= width <= MAX_WIDTH:
            raise wrong_use(f"N must be {MIN_WIDTH} to {MAX_WIDTH}, not {width}")
        session.width = width
    elif args:
        raise wrong_use(f"N must be a number, off or auto, not {args!r}")
    session.send(_display(session))


def _color(session: Session, args: str) -> None:
    choices = {"on": True, "off": False, "auto": None}
    if args and args.lower() not in choices:
        raise wrong_use(f"no choice {args!r}")
    if args:
        session.colour = choices[args.lower()]
    session.send(_display(session))


def _display(session: Session) -> messages.Message:
    colour = session.default_colour if session.colour is None else session.colour
    return messages.display(session.wrap_width(), session.width is None, colour, session.colour is None)
