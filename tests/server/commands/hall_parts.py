"""The few domain parts one command group needs, without the lobby: people on recording
connections, found by name as the tables find their readers, and what each was told."""

from __future__ import annotations

import json

import pytest

from bswtichu.server.commands.registry import CommandGroup
from bswtichu.server.session import Session
from bswtichu.server.text.messages import Refusal
from bswtichu.server.text.render import MACHINE

from lobby_clients import RecordingConnection


class People(dict):
    """Sessions by name, in machine mode; ``people.get`` is the tables' ``reader``."""

    def __init__(self) -> None:
        super().__init__()
        self.connections: dict[Session, RecordingConnection] = {}

    def add(self, nick: str) -> Session:
        connection = RecordingConnection()
        session = Session(connection)
        session.nick, session.mode = nick, MACHINE
        self[nick] = session
        self.connections[session] = connection
        return session

    def told(self, session: Session) -> list[tuple[str, dict]]:
        """What ``session`` was told since last asked, as (keyword, fields)."""
        connection = self.connections[session]
        lines, connection.lines = connection.lines, []
        return [(keyword, json.loads(fields)) for keyword, _, fields in (line.partition(" ") for line in lines)]


def run(group: CommandGroup, session: Session, line: str) -> None:
    """``line`` ("/join 1") as the registry runs it: the group's command of that name, its usage
    added to a wrong use (`Command.run`)."""
    name, _, args = line[1:].partition(" ")
    chosen = next(c for c in group.commands() if name in c.names)
    chosen.run(session, args.strip())


def refusal(group: CommandGroup, session: Session, line: str) -> Refusal:
    """The refusal ``line`` gets (it must get one)."""
    with pytest.raises(Refusal) as refused:
        run(group, session, line)
    return refused.value
