"""Events across tables: one row per event, its whole record as JSON.

An event changes a few times a round (an entry, a round seated, a table's result), so it
is written whole each time. A write joins the journal steps' open batch if there is one
(committed with them, before anyone is told), else it is committed at once.
"""

from __future__ import annotations

import json

from .database import Connection


class EventStore:
    """The events table."""

    def __init__(self, connection: Connection):
        self.db = connection

    def save(self, number: int, data: dict, finished: bool) -> None:
        """Write event ``number`` as it is now."""
        self.db.execute("INSERT INTO events (number, data, finished) VALUES (?, ?, ?)"
                        " ON CONFLICT (number) DO UPDATE SET data = excluded.data, finished = excluded.finished",
                        (number, json.dumps(data, separators=(",", ":")), int(finished)))

    def all(self) -> list[tuple[int, dict]]:
        """Every stored event, by number."""
        return [(number, json.loads(data))
                for number, data in self.db.execute("SELECT number, data FROM events ORDER BY number")]
