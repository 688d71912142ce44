"""/width, /color and /lang: how human text looks on one's own connection, and its language.

Both change only the session's rendering choices (``Session.width``,
``Session.colour``); the net layer wraps and colours (render.py). Without them
the connection's defaults hold: the width the client reported (NAWS) and colour
if the client says it shows it (TTYPE/MTTS).
"""

from __future__ import annotations

from collections.abc import Callable

from bswtichu.server.text import i18n, messages
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.text.render import MAX_WIDTH, MIN_WIDTH
from bswtichu.server.session import Session

WIDTH_USAGE = "/width [N|off|auto]"
COLOR_USAGE = "/color [on|off|auto]"
LANG_USAGE = "/lang [" + "|".join(i18n.LANGUAGES) + "]"
#: what /color takes, to the choice it sets (None: the client's default)
COLOUR_CHOICES = {"on": True, "off": False, "auto": None}


class DisplayCommands(CommandGroup):
    """Commands that work on the asking session alone: no other part of the domain."""

    @command("width", group="display", german="breite", usage=WIDTH_USAGE,
             summary=_("wrap text to N columns"),
             help=_('Wraps sentences to N columns (%(min_width)s-%(max_width)s) for clients that do '
                     'not report their width; off: no wrapping; auto: the width your client reports '
                     '(NAWS), else 80 for MUD clients, else none. Without an argument, shows the '
                     'setting. Only human mode is wrapped.',
                    min_width=MIN_WIDTH, max_width=MAX_WIDTH),
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
                raise wrong_use(_('N must be %(min_width)s to %(max_width)s, not %(width)s', min_width=MIN_WIDTH, max_width=MAX_WIDTH, width=width))
            session.width = width
        elif args:
            raise wrong_use(_('N must be a number, off or auto, not %(args)r', args=args))
        session.send(display(session))

    @command("color", group="display", german="farbe", aliases=("colour",), usage=COLOR_USAGE,
             summary=_("coloured cards on or off"),
             help=_("on: cards in ANSI colours (Jade green, Sword grey, Pagoda blue, Star red,"
             " Mah Jong yellow, Dog cyan, Phoenix magenta, Dragon bold red); off: plain;"
             " auto: on if your client says it shows colour (TTYPE/MTTS)."
             " Without an argument, shows the setting. Never in machine or relay mode."),
             needs_nick=False)
    def color(self, session: Session, args: str) -> None:
        if args and args.lower() not in COLOUR_CHOICES:
            raise wrong_use(_('no choice %(args)r', args=args))
        if args:
            session.colour = COLOUR_CHOICES[args.lower()]
        session.send(display(session))


class LanguageCommand(CommandGroup):
    """/lang: the language one reads. A registered person's choice is kept with his account:
    ``keep(name, code)`` stores it, ``kept(name)`` reads it back when he takes his name
    (`arrived`); both None without storage."""

    def __init__(self, keep: Callable[[str, str], object] | None = None,
                 kept: Callable[[str], str | None] | None = None) -> None:
        self.keep = keep
        self.kept = kept

    def arrived(self, session: Session, previous: str | None) -> None:
        """A person took a name: a registered one's kept language is his from now on."""
        code = None if self.kept is None or session.nick is None else self.kept(session.nick)
        if code in i18n.LANGUAGES:
            session.language = None if code == i18n.SOURCE else i18n.language(code)
            session.language_chosen = True

    @command("lang", group="display", german="sprache", aliases=("langue", "idioma", "limba", "language"),
             usage=LANG_USAGE,
             summary=_("the language the server speaks to you in"),
             help=_("/lang CODE chooses the language of every sentence you read: en (English),"
                    " de (Deutsch), fr (Français), es (Español), ro (Română). A registered name"
                    " keeps it for next time. Without an argument, shows the language and the"
                    " choices. Commands, card names you type and machine mode stay the same in"
                    " every language."),
             needs_nick=False)
    def lang(self, session: Session, args: str) -> None:
        if args:
            code = i18n.from_hint(args)
            if code is None:
                raise wrong_use(_("no language %(code)r; the choices are %(choices)s",
                                  code=args, choices=", ".join(i18n.LANGUAGES)))
            session.language = None if code == i18n.SOURCE else i18n.language(code)
            session.language_chosen = True
            if self.keep is not None and session.nick is not None:
                self.keep(session.nick, code)  # a guest's name is not registered: nothing kept
        session.send(messages.language(session.language.code if session.language else i18n.SOURCE))


def display(session: Session) -> messages.Message:
    """The session's display settings as /width and /color report them."""
    colour = session.default_colour if session.colour is None else session.colour
    return messages.display(session.wrap_width(), session.width is None, colour, session.colour is None)
