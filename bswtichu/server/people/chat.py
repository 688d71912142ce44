"""Chat: a line to the room the speaker is in (his table, or the lobby), and private messages.

Every line passes the speaker's gate first (a muted name is refused) and reaches no one who
ignores him. At a started table a spectator's line is kibitz: the spectators hear it, the
players never do (as on BrettspielWelt; docs/moderation.md). A person's ``/away`` text is his
words too: it passes the same gate when he sets it, and is read as plain "away" by those his
words do not reach (`Chat.away_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from bswtichu.server.text.i18n import _
from bswtichu.config import LiveConfig
from bswtichu.server.text import messages
from bswtichu.server.people.directory import NameIndex
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.names import key
from bswtichu.server.session import Session

#: what ``/away`` alone says, and what shows instead of a text that does not reach its reader
AWAY = "away"
#: the explicit directional formatting characters (embeddings, overrides, isolates and the
#: characters that end them): left in a person's text they would turn what follows it too (the
#: rest of a /who line, other people's names), so said text goes without them; the marks
#: (LRM, RLM, ALM), which cannot, stay for right-to-left writing
DIRECTION_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


class Chat:
    """Room chat and private messages, each at most ``max_chat_length`` characters.

    ``may_speak(session)`` refuses a speaker who may not (a mute); ``ignorers(speaker)`` are
    the name keys (`names.key`) of those who ignore him, asked once a line.
    """

    def __init__(self, names: NameIndex, config: LiveConfig,
                 may_speak: Callable[[Session], None] = lambda session: None,
                 ignorers: Callable[[str], Collection[str]] = lambda speaker: ()) -> None:
        self._names = names
        self._config = config
        self._may_speak = may_speak
        self._ignorers = ignorers

    def _spared(self, speaker: str) -> Callable[[str], bool]:
        """Whether a listener (a nick) is spared ``speaker``'s line: he ignores him."""
        ignorers = self._ignorers(speaker)
        if not ignorers:
            return _nobody
        return lambda listener: key(listener) in ignorers

    def check_voice(self, session: Session) -> str:
        """Refuse one without a name, or muted: nothing of his making reaches anyone (chat, an
        invitation). His name, if he may speak."""
        nick = session.nick
        if nick is None:
            raise Refusal("nick_required", _('choose a name with /nick NAME before you chat'))
        self._may_speak(session)
        return nick

    def said(self, session: Session, text: str) -> str:
        """``text`` as ``session`` may say it to others (chat, /me, /kibitz, /msg, his /away text):
        refused from one without a name or muted, or over ``max_chat_length`` characters; without
        direction controls (`DIRECTION_CONTROLS`)."""
        self.check_voice(session)
        return self._sayable(text)

    def _sayable(self, text: str) -> str:
        """``text`` as anyone may say it: refused over ``max_chat_length`` characters; without
        direction controls."""
        self.check_length(text)
        if text.isascii():  # the common line: nothing to take out
            return text
        cleaned = text.translate(DIRECTION_CONTROLS)
        if not cleaned.strip():
            raise Refusal("empty_text", _('nothing is left to say once the direction controls (U+202A-202E, U+2066-2069) are taken '
                                          'out'))
        return cleaned

    def reaches(self, speaker: Session, listener: str | None) -> bool:
        """Whether ``speaker``'s own words reach ``listener`` (a nick; None: a reader who ignores
        nobody): not while he is muted, nor to one who ignores him."""
        if speaker.nick is None:
            return False
        try:
            self._may_speak(speaker)
        except Refusal:
            return False
        return listener is None or not self._spared(speaker.nick)(listener)

    def away_of(self, person: Session, viewer: str | None) -> str | None:
        """``person``'s /away as ``viewer`` (a nick) reads it (/who, /friends, /table, AWAY_NOTICE):
        his text, or plain `AWAY` where his words do not reach the viewer; None while he is here."""
        if person.away is None:
            return None
        return person.away if self.reaches(person, viewer) else AWAY

    def tell(self, sender: Session, recipient: Session, message: Message) -> None:
        """``message``, of ``sender``'s making, to ``recipient`` alone (an invitation), unless the
        recipient ignores him (the sender is not told, as with /msg)."""
        if not self._spared(sender.nick)(recipient.nick):  # type: ignore[arg-type]  # both named (voice checked; found by name)
            recipient.send(message)

    def say(self, session: Session, text: str, action: bool = False) -> None:
        """Chat (or, ``action``, a /me) goes to the room the speaker is in: his table, or the lobby."""
        speaker = self.check_voice(session)
        text = self._sayable(text)
        table = session.table
        spared = self._spared(speaker)
        if table is not None:
            if table.started and table.seat_of(speaker) is None:
                table.tell_all_but(messages.kibitz(table.number, speaker, text, action), spared,
                                   spectators_only=True)
                return
            table.tell_all_but(messages.chat(table.number, speaker, text, action), spared)
            return
        message = messages.chat(None, speaker, text, action)
        for listener in self._names.online():
            if listener.table is None and not spared(listener.nick):  # type: ignore[arg-type]  # the online have names
                listener.send(message, droppable=True)

    def kibitz(self, session: Session, text: str) -> None:
        """Spectators' chat: to the table's spectators only."""
        speaker = self.check_voice(session)
        text = self._sayable(text)
        table = session.table
        if table is None:
            raise Refusal("not_at_table", _('you watch no table; /watch TABLE first'))
        if table.seat_of(speaker) is not None:
            raise Refusal("not_spectator", _("you play at table %(table)s; kibitz is the spectators' chat (plain lines reach your "
                                             'table)', table=table.number))
        table.tell_all_but(messages.kibitz(table.number, speaker, text), self._spared(speaker),
                           spectators_only=True)

    def private(self, session: Session, name: str, text: str) -> None:
        """``text`` to ``name`` only, wherever he is, and an echo to the sender.

        One who ignores the sender does not get it; the sender is not told (his echo comes as
        ever). One who is away has the sender told so (as the sender may read it: `away_of`).
        """
        speaker = self.check_voice(session)
        text = self._sayable(text)
        recipient = self._names.find(name)
        if recipient is None:
            raise Refusal("no_such_user", _('nobody called %(name)s is online; /who lists who is', name=name))
        listener: str = recipient.nick  # type: ignore[assignment]  # found by his name: he has one
        if not self._spared(speaker)(listener):
            recipient.send(messages.private(speaker, listener, text, echo=False))
        if recipient is not session:
            session.send(messages.private(speaker, listener, text, echo=True))
            away = self.away_of(recipient, speaker)
            if away is not None:
                session.send(messages.away_notice(listener, away))

    def check_length(self, text: str) -> None:
        limit = self._config.current.max_chat_length
        if len(text) > limit:
            raise Refusal("chat_too_long", _('chat lines may be at most %(limit)s characters, this one has %(count)s; say it in parts', limit=limit, count=len(text)))


def _nobody(listener: str) -> bool:
    """Nobody ignores the speaker: every listener hears him."""
    return False
