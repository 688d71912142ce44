"""Chat: a line to the room the speaker is in (his table, or the lobby), and private messages.

Every line passes the speaker's gate first (a muted name is refused) and reaches no one who
ignores him. At a started table a spectator's line is kibitz: the spectators hear it, the
players never do (as on BrettspielWelt; docs/moderation.md).
"""

from __future__ import annotations

from collections.abc import Callable

from bswtichu.server import messages
from bswtichu.server.directory import NameIndex
from bswtichu.server.messages import Refusal
from bswtichu.server.session import Session


class Chat:
    """Room chat and private messages, each at most ``max_length`` characters.

    ``may_speak(session)`` refuses a speaker who may not (a mute); ``ignores(listener,
    speaker)`` says whether ``listener`` ignores ``speaker`` (names).
    """

    def __init__(self, names: NameIndex, max_length: int,
                 may_speak: Callable[[Session], None] = lambda session: None,
                 ignores: Callable[[str, str], bool] = lambda listener, speaker: False) -> None:
        self._names = names
        self._max_length = max_length
        self._may_speak = may_speak
        self._ignores = ignores

    def _check(self, session: Session, text: str) -> None:
        if session.nick is None:
            raise Refusal("nick_required", "choose a name with /nick NAME before you chat")
        self._may_speak(session)
        self.check_length(text)

    def say(self, session: Session, text: str, action: bool = False) -> None:
        """Chat (or, ``action``, a /me) goes to the room the speaker is in: his table, or the lobby."""
        self._check(session, text)
        speaker = session.nick
        table = session.table

        def spared(listener: str) -> bool:
            return self._ignores(listener, speaker)

        if table is not None:
            if table.started and table.seat_of(speaker) is None:
                table.tell_all_but(messages.kibitz(table.number, speaker, text, action), spared,
                                   spectators_only=True)
                return
            table.tell_all_but(messages.chat(table.number, speaker, text, action), spared)
            return
        message = messages.chat(None, speaker, text, action)
        for listener in self._names.online():
            if listener.table is None and not spared(listener.nick):
                listener.send(message, droppable=True)

    def kibitz(self, session: Session, text: str) -> None:
        """Spectators' chat: to the table's spectators only."""
        self._check(session, text)
        table = session.table
        if table is None:
            raise Refusal("not_at_table", "you watch no table; /watch TABLE first")
        if table.seat_of(session.nick) is not None:
            raise Refusal("not_spectator", f"you play at table {table.number}; kibitz is the spectators'"
                                           " chat (plain lines reach your table)")
        speaker = session.nick
        table.tell_all_but(messages.kibitz(table.number, speaker, text), lambda listener: self._ignores(
            listener, speaker), spectators_only=True)

    def private(self, session: Session, name: str, text: str) -> None:
        """``text`` to ``name`` only, wherever he is, and an echo to the sender.

        One who ignores the sender does not get it; the sender is not told (his echo comes as
        ever). One who is away has the sender told so.
        """
        self._check(session, text)
        recipient = self._names.find(name)
        if recipient is None:
            raise Refusal("no_such_user", f"nobody called {name} is online; /who lists who is")
        if not self._ignores(recipient.nick, session.nick):
            recipient.send(messages.private(session.nick, recipient.nick, text, echo=False))
        if recipient is not session:
            session.send(messages.private(session.nick, recipient.nick, text, echo=True))
            if recipient.away is not None:
                session.send(messages.away_notice(recipient.nick, recipient.away))

    def check_length(self, text: str) -> None:
        limit = self._max_length
        if len(text) > limit:
            raise Refusal("chat_too_long", f"chat lines may be at most {limit} characters,"
                                           f" this one has {len(text)}; say it in parts")
