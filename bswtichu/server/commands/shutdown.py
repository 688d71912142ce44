"""/shutdown: an admin stops the server after a countdown (the countdown is
`bswtichu.server.shutdown.Shutdown`'s)."""

from __future__ import annotations

from collections.abc import Callable

from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.people.moderation import ADMIN
from bswtichu.server.session import Session
from bswtichu.server.shutdown import Shutdown
from bswtichu.server.text.messages import Refusal

DEFAULT_MINUTES = 5
#: the longest countdown /shutdown takes, in minutes (a day)
MAX_MINUTES = 24 * 60


class ShutdownCommands(CommandGroup):
    """The command that stops the server: it works on the pending stop (``shutdown``) and asks
    ``role_of`` (`Moderation.role_of`) whether the one who gives it is an admin."""

    def __init__(self, shutdown: Shutdown, role_of: Callable[[str | None], str | None]) -> None:
        self.shutdown = shutdown
        self.role_of = role_of

    @command("shutdown", group="moderation", usage="/shutdown [MINUTES|cancel] [REASON]",
             summary=_("stop the server after a countdown (admins)"),
             help=_('Stops the server in MINUTES (default %(default_minutes)s; 0: now), saying REASON '
                     '(default: maintenance) to everyone at once and again as the time comes closer. '
                     'Until then no new game starts; games in play go on, are kept and come back after '
                     'the restart. /shutdown cancel calls it off. Admins only.',
                    default_minutes=DEFAULT_MINUTES))
    def shutdown_(self, session: Session, args: str) -> None:
        if self.role_of(session.name) != ADMIN:
            raise Refusal("not_admin", _('only an admin may /shutdown the server'))
        words = args.split(None, 1)
        if words and words[0].lower() == "cancel":
            self.shutdown.cancel(session.name)
            return
        minutes = DEFAULT_MINUTES
        if words and is_number(words[0]):
            minutes = int(words[0])
            words = words[1:]
            if minutes > MAX_MINUTES:
                raise wrong_use(_('at most %(max_minutes)s minutes', max_minutes=MAX_MINUTES))
        reason = words[0].strip() if words else "maintenance"
        self.shutdown.schedule(minutes * 60, reason, session.name)
