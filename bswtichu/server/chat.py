"""Chat: a line to the room the speaker is in (his table, or the lobby), and private messages."""

from __future__ import annotations

from bswtichu.config import LiveConfig
from bswtichu.server import messages
from bswtichu.server.directory import NameIndex
from bswtichu.server.messages import Refusal
from bswtichu.server.session import Session


class Chat:
    """Room chat and private messages, each at most ``max_chat_length`` characters."""

    def __init__(self, names: NameIndex, config: LiveConfig) -> None:
        self._names = names
        self._config = config

    def say(self, session: Session, text: str) -> None:
        """Chat goes to the room the speaker is in: his table, or the lobby."""
        if session.nick is None:
            raise Refusal("nick_required", "choose a name with /nick NAME before you chat")
        self.check_length(text)
        table = session.table
        if table is not None:
            table.tell_all(messages.chat(table.number, session.nick, text))
            return
        message = messages.chat(None, session.nick, text)
        for listener in self._names.online():
            if listener.table is None:
                listener.send(message, droppable=True)

    def private(self, session: Session, name: str, text: str) -> None:
        """``text`` to ``name`` only, wherever he is, and an echo to the sender."""
        self.check_length(text)
        recipient = self._names.find(name)
        if recipient is None:
            raise Refusal("no_such_user", f"nobody called {name} is online; /who lists who is")
        recipient.send(messages.private(session.nick, recipient.nick, text, echo=False))
        if recipient is not session:
            session.send(messages.private(session.nick, recipient.nick, text, echo=True))

    def check_length(self, text: str) -> None:
        limit = self._config.current.max_chat_length
        if len(text) > limit:
            raise Refusal("chat_too_long", f"chat lines may be at most {limit} characters,"
                                           f" this one has {len(text)}; say it in parts")
