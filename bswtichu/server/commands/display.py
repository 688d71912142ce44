"""/width and /color: how human text looks on one's own connection.

Both change only the session's rendering choices (``Session.width``,
``Session.colour``); the net layer wraps and colours (render.py). Without them
the connection's defaults hold: the width the client reported (NAWS) and colour
if the client says it shows it (TTYPE/MTTS).
"""

from __future__ import annotations

from bswtichu.server.text import messages
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.text.render import MAX_WIDTH, MIN_WIDTH
from bswtichu.server.session import Session

WIDTH_USAGE = "/width [N|off|auto]"
COLOR_USAGE = "/color [on|off|auto]"
#: what /color takes, to the choice it sets (None: the client's default)
COLOUR_CHOICES = {"on": True, "off": False, "auto": None}


class DisplayCommands(CommandGroup):
    """Commands that work on the asking session alone: no other part of the domain."""

    @command("width", group="display", german="breite", usage=WIDTH_USAGE,
             summary="wrap text to N columns",
             help=f"Wraps sentences to N columns ({MIN_WIDTH}-{MAX_WIDTH}) for clients that do not"
             " report their width; off: no wrapping; auto: the width your client reports (NAWS),"
             " else 80 for MUD clients, else none. Without an argument, shows the setting."
             " Only human mode is wrapped.",
             needs_nick=False)
    def width(self, session: Session, args: str) -> None:
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
        session.send(display(session))

    @command("color", group="display", german="farbe", aliases=("colour",), usage=COLOR_USAGE,
             summary="coloured cards on or off",
             help="on: cards in ANSI colours (Jade green, Sword grey, Pagoda blue, Star red,"
             " Mah Jong yellow, Dog cyan, Phoenix magenta, Dragon bold red); off: plain;"
             " auto: on if your client says it shows colour (TTYPE/MTTS)."
             " Without an argument, shows the setting. Never in machine or relay mode.",
             needs_nick=False)
    def color(self, session: Session, args: str) -> None:
        if args and args.lower() not in COLOUR_CHOICES:
            raise wrong_use(f"no choice {args!r}")
        if args:
            session.colour = COLOUR_CHOICES[args.lower()]
        session.send(display(session))


def display(session: Session) -> messages.Message:
    """The session's display settings as /width and /color report them."""
    colour = session.default_colour if session.colour is None else session.colour
    return messages.display(session.wrap_width(), session.width is None, colour, session.colour is None)
