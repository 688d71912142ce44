"""A `Table` alone, without the lobby: stand-ins for its readers and its game, for the unit
tests of the table's parts (presence, votes, the voted pause, quick fill)."""

from __future__ import annotations

from contextlib import nullcontext

from twisted.internet.task import Clock

from bswtichu.server.tables.table import Table, TableSettings
from bswtichu.server.text.messages import Message, hand_command_pattern

GRACE = 30.0
VOTE = 60.0
PAUSE_LIMIT = 300.0
ABANDON = 3600.0
BOT_GAME = 600.0


class Reader:
    """An online client as the table tells him things: keeps what he was told."""

    mode = "machine"
    legal_push = False
    away = None

    def __init__(self) -> None:
        self.told: list[Message] = []

    def send(self, message: Message) -> None:
        self.told.append(message)

    def send_all(self, messages: list[Message]) -> None:
        self.told.extend(messages)

    def keywords(self) -> list[str]:
        return [message.keyword for message in self.told]

    def fields(self, keyword: str) -> list[dict]:
        return [message.fields for message in self.told if message.keyword == keyword]


class Game:
    """A running game as the table drives it (`RunningGame`): keeps every call it got."""

    def __init__(self, partners: dict[str, list[str]] | None = None) -> None:
        self.calls: list[tuple] = []
        self._partners = partners or {}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: self.calls.append((name, *args))

    def replace(self, nick: str) -> str:
        self.calls.append(("replace", nick))
        return "substitute"

    def partners(self, nick: str) -> list[object]:
        return list(self._partners.get(nick, []))

    def called(self, name: str) -> list[tuple]:
        return [call[1:] for call in self.calls if call[0] == name]


class People:
    """Who is online: a `Reader` per name (the lobby's ``find``)."""

    def __init__(self) -> None:
        self.online: dict[str, Reader] = {}

    def arrive(self, *nicks: str) -> list[Reader]:
        for nick in nicks:
            self.online[nick] = Reader()
        return [self.online[nick] for nick in nicks]

    def leave(self, nick: str) -> None:
        del self.online[nick]

    def find(self, nick: str) -> Reader | None:
        return self.online.get(nick)


def lone_table(clock: Clock, people: People, game: Game | None = None) -> tuple[Table, list[Table]]:
    """Table 1 on ``clock`` for ``people``, building ``game`` at its start; the second value
    lists the table once it closed by itself."""
    closed: list[Table] = []
    settings = TableSettings(people.find, clock, GRACE, game_factory=None if game is None else (lambda table: game),
                             abandon_after=ABANDON, outbox=nullcontext(), clock_default=None, vote_timeout=VOTE,
                             pause_limit=PAUSE_LIMIT, bot_game_after=BOT_GAME,
                             away_of=lambda reader, viewer: reader.away, closing=lambda: None,
                             hand_commands=hand_command_pattern(()))
    return Table(1, settings, on_abandoned=closed.append), closed


def started_table(clock: Clock, people: People, game: Game, nicks=("Ann", "Bob", "Cy", "Dan")) -> Table:
    """Table 1 with ``nicks`` seated in order (1+3 and 2+4 partners), online and started."""
    table, _ = lone_table(clock, people, game)
    people.arrive(*nicks)
    for nick in nicks:
        table.sit(nick)
    table.start(nicks[0])
    for reader in people.online.values():
        reader.told.clear()
    return table
