"""Clients for server tests: they talk to a lobby directly and read machine mode.

(A module of its own, not conftest.py: several test folders have a conftest, and
``from conftest import ...`` would find whichever was imported first.)
"""

from __future__ import annotations

import json

from bswtichu.server.lobby import Lobby


class RecordingConnection:
    """Stands in for the net layer: keeps every line a session was sent."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.closed = False

    def send_lines(self, lines: list[str], droppable: bool = False) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        self.closed = True


class Client:
    """A client talking to the lobby directly, in machine mode unless told otherwise."""

    def __init__(self, lobby: Lobby, nick: str | None = None, machine: bool = True) -> None:
        self.lobby = lobby
        self.connection = RecordingConnection()
        self.session = lobby.connect(self.connection)
        if machine:
            self.say("/mode machine")
        if nick:
            self.say(f"/nick {nick}")
        self.token = next((json.loads(line.partition(" ")[2])["token"] for line in self.connection.lines
                           if line.startswith("RESUME_TOKEN ")), None)
        self.clear()

    def say(self, line: str) -> None:
        self.lobby.receive(self.session, line)

    def clear(self) -> None:
        self.connection.lines.clear()

    def hang_up(self) -> None:
        self.lobby.disconnect(self.session)

    def received(self) -> list[tuple[str, dict]]:
        """(KEYWORD, fields) of every line since the last clear; all must be machine lines."""
        out = []
        for line in self.connection.lines:
            keyword, _, payload = line.partition(" ")
            out.append((keyword, json.loads(payload)))
        return out

    def keywords(self) -> list[str]:
        return [keyword for keyword, _ in self.received()]

    def only(self, keyword: str) -> dict:
        """The fields of the one message with ``keyword`` since the last clear."""
        found = [fields for k, fields in self.received() if k == keyword]
        assert len(found) == 1, f"expected one {keyword}, got {self.connection.lines}"
        return found[0]

    def error_code(self) -> str:
        """The code of the single message received, which must be an ERROR."""
        received = self.received()
        assert [k for k, _ in received] == ["ERROR"], self.connection.lines
        return received[0][1]["code"]
