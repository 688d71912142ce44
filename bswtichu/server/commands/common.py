"""What the table and game commands share: the table a person is at, his seat there, and the
words for on and off that switches take."""

from __future__ import annotations

from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import wrong_use
from bswtichu.server.session import Session
from bswtichu.server.tables.table import Table
from bswtichu.server.text.messages import Refusal

ON_WORDS = {"on": True, "an": True, "1": True, "yes": True, "ja": True}
OFF_WORDS = {"off": False, "aus": False, "0": False, "no": False, "nein": False}
#: every word a switch takes (German an/aus too), to what it sets
SWITCH_WORDS = {**ON_WORDS, **OFF_WORDS}


def current_table(session: Session) -> Table:
    """The table the session sits at or watches, or a refusal saying how to get one."""
    if session.table is None:
        raise Refusal("not_at_table", _('you are not at a table; /tables lists them, /join sits you down'))
    return session.table


def seated_at(session: Session) -> tuple[Table, int]:
    """The table and seat (1-N) of a seated player, or a refusal for anyone else."""
    table = current_table(session)
    seat = table.seat_of(session.nick)  # type: ignore[arg-type]  # at a table: named (every action reads it)
    if seat is None:
        raise Refusal("not_seated", _('you watch table %(table)s; only its players can do that', table=table.number))
    return table, seat


def switch(word: str) -> bool | None:
    """"on"/"off" (German an/aus too) to a bool; nothing means toggle (None)."""
    if not word:
        return None
    value = SWITCH_WORDS.get(word.lower())
    if value is None:
        raise wrong_use(_('say on or off, not %(word)r', word=word))
    return value
