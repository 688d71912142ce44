"""Games in the database: each unfinished game's journal, and every finished game's result.

A running game is a row in ``games`` (seed, options, players, bots, log number)
and its journal in ``game_journal``: one row per step, committed before the
server tells anyone of the step: each on its own, or (``batched``) the steps of
one reactor turn together, by `commit` before the turn's output is written.  A finished game keeps its
journal (so it can be replayed) and gains its players' places in
``game_players`` and its variant (``nanjing``, the 4-player game, for every game
stored before there were others); an abandoned one is marked so and is not restored.
A game played while its table was private is marked ``private``: who may read it is
`readable`'s rule.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from bswtichu.engine import (
    VARIANTS, Action, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange, GiveDragon, MakeWish, Pass, Play,
    parse_card,
)
from bswtichu.records import DEAL, HAND_OVER, JournalEntry, Seed
from .database import Connection, transaction
from .ratings import DEFAULT_VARIANT

RUNNING, OVER, ABANDONED = "running", "over", "abandoned"

_SIMPLE: dict[str, Callable[[int], Action]] = {"grand": CallGrand, "nogrand": DeclineGrand, "tichu": CallTichu, "pass": Pass}
_SIMPLE_NAMES = {cls: name for name, cls in _SIMPLE.items()}


def encode_action(action: Action) -> dict:
    """An action as JSON data: its type, its seat (0-based) and its cards or choice."""
    data: dict = {"seat": action.seat}
    if type(action) in _SIMPLE_NAMES:
        data["type"] = _SIMPLE_NAMES[type(action)]
    elif isinstance(action, Exchange):
        data.update(type="exchange", cards=[c.text for c in action.cards])
    elif isinstance(action, Play):
        data.update(type="play", cards=sorted(c.text for c in action.cards), phoenix_as=action.phoenix_as)
    elif isinstance(action, MakeWish):
        data.update(type="wish", rank=action.rank)
    elif isinstance(action, GiveDragon):
        data.update(type="give", to=action.to)
    elif isinstance(action, DogLead):
        data.update(type="dog", to=action.to)
    else:
        raise TypeError(f"not an action: {action!r}")
    return data


def decode_action(data: dict) -> Action:
    kind, seat = data["type"], data["seat"]
    if kind in _SIMPLE:
        return _SIMPLE[kind](seat)
    if kind == "exchange":
        return Exchange(seat, tuple(parse_card(c) for c in data["cards"]))
    if kind == "play":
        return Play(seat, [parse_card(c) for c in data["cards"]], data["phoenix_as"])
    if kind == "wish":
        return MakeWish(seat, data["rank"])
    if kind == "give":
        return GiveDragon(seat, data["to"])
    if kind == "dog":
        return DogLead(seat, data["to"])
    raise ValueError(f"unknown action type {kind!r}")


#: the stored text of each action without cards or choice (a pass, a Tichu call, ...), by
#: its type and seat: the commonest journal rows, encoded once
_SIMPLE_TEXTS = {(cls, seat): json.dumps({"seat": seat, "type": name})
                 for cls, name in _SIMPLE_NAMES.items()
                 for seat in range(max(variant.seats for variant in VARIANTS.values()))}


def _play_text(action: Play) -> str:
    """A play's stored text, written directly: the same text as ``json.dumps(encode_action(action))``
    (card texts are two letters or digits, nothing JSON escapes), which it falls back to for a
    seat or Phoenix reading that is not a plain int."""
    seat, phoenix_as = action.seat, action.phoenix_as
    if type(seat) is not int or (phoenix_as is not None and type(phoenix_as) is not int):
        return json.dumps(encode_action(action))
    cards = '", "'.join(sorted([c.text for c in action.cards]))
    return (f'{{"seat": {seat}, "type": "play", "cards": ["{cards}"], '
            f'"phoenix_as": {"null" if phoenix_as is None else phoenix_as}}}')


def encode_entry(entry: JournalEntry) -> str | None:
    action = entry.action
    if action is not None:
        kind = type(action)
        if kind is Play:  # the commonest row with cards
            return _play_text(action)  # type: ignore[arg-type]  # its type is Play
        text = _SIMPLE_TEXTS.get((kind, action.seat))
        return text if text is not None else json.dumps(encode_action(action))
    if entry.kind == DEAL:
        return json.dumps({"round": entry.round, "cards": [c.text for c in entry.deal]})  # type: ignore[union-attr]  # a deal entry has its deal
    if entry.kind == HAND_OVER:
        return json.dumps({"to": entry.to})
    return None


def decode_entry(kind: str, player: str | None, data: str | None) -> JournalEntry:
    if kind == DEAL:
        values = json.loads(data)  # type: ignore[arg-type]  # a deal row has its data
        return JournalEntry(kind, round=values["round"], deal=tuple(parse_card(c) for c in values["cards"]))
    if kind == HAND_OVER:
        return JournalEntry(kind, player=player, to=json.loads(data)["to"])  # type: ignore[arg-type]  # a hand-over row has its data
    action = decode_action(json.loads(data)) if data is not None else None
    return JournalEntry(kind, player=player, action=action)


@dataclass
class StoredGame:
    """A game as stored: enough to build its table and driver again, and its journal."""

    id: int
    log_number: int
    table_number: int
    seed: Seed
    table_options: dict
    players: tuple[str, ...]  # seat order at the start (table seats 1-4)
    bots: dict[int, tuple[str, str]]  # table seat -> (name, level)
    started: float
    entries: list[JournalEntry] = field(default_factory=list)
    problem: str | None = None  # why its journal cannot be read, if it cannot
    private: bool = False  # played while its table was private


@dataclass(frozen=True)
class GameResultRow:
    """One finished game as `/history` lists it."""

    log_number: int
    ended: float
    state: str
    players: tuple[tuple[str, int, int, bool], ...]  # (name, seat, points, won)
    options: dict
    variant: str = DEFAULT_VARIANT


class TableClaims:
    """The table numbers taken across every process on one PostgreSQL database: a hall opens a
    table at a number only once it claimed it (`claim`), and gives it back when the table goes.
    The owner clears them when it takes the database (`clear`): a dead process holds nothing."""

    def __init__(self, connection: Connection):
        self.db = connection

    def claim(self, number: int) -> bool:
        """Take ``number``; whether it was free."""
        return self.db.execute("INSERT INTO table_claims (number) VALUES (?) ON CONFLICT DO NOTHING RETURNING number",
                               (number,)).fetchone() is not None

    def release(self, number: int) -> None:
        self.db.execute("DELETE FROM table_claims WHERE number = ?", (number,))

    def clear(self) -> None:
        self.db.execute("DELETE FROM table_claims")


#: journal rows sent as one INSERT at most (PostgreSQL takes 65,535 parameters in a statement)
ROWS_PER_INSERT = 1000
_INSERT_ROWS = "INSERT INTO game_journal (game_id, seq, kind, player, data) VALUES "
_ROW = "(?, ?, ?, ?, ?)"


class GameStore:
    """The games table and the journals; every write is committed when the call returns."""

    def __init__(self, connection: Connection, now: Callable[[], float] = time.time, remote: bool = False):
        self.db = connection
        self.now = now
        self.writes = 0
        #: a database server (PostgreSQL), not a file: log numbers come from it (`next_log_number`,
        #: unique across processes), and a batch's steps wait here and go in one round trip
        #: (one multi-row INSERT, `_send_rows`) at `commit` instead of one round trip each
        self.draws_numbers = self.sends_batches = remote
        self._rows: list[tuple] = []  # (sends_batches) the batch's journal rows
        #: journal steps gather in one open transaction until `commit` (the server commits
        #: before it writes what a reactor turn caused); False: each step commits at once
        self.batched = False
        self._batch: set[int] = set()  # games with steps in the open transaction
        #: games that lost steps to a failed commit: their journals have a gap
        self.broken: set[int] = set()

    # -- numbers --------------------------------------------------------------

    def highest_log_number(self) -> int:
        return self.db.execute("SELECT coalesce(max(log_number), 0) FROM games").fetchone()[0]

    def next_log_number(self) -> int | None:
        """A new game's log number drawn from the database, unique across every process on it
        (PostgreSQL's ``log_numbers`` sequence); None on SQLite, whose one process counts them
        itself (`GameLogs.reserve`)."""
        if not self.draws_numbers:
            return None
        return self.db.execute("SELECT nextval('log_numbers')").fetchone()[0]

    # -- a running game -------------------------------------------------------

    def begin(self, log_number: int, table_number: int, seed: Seed, table_options: dict,
              players: Sequence[str], bots: dict[int, tuple[str, str]], private: bool = False) -> int:
        cursor = self.db.execute(
            "INSERT INTO games (log_number, table_number, seed, table_options, players, bots, state, started,"
            " private) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (log_number, table_number, json.dumps(seed), json.dumps(table_options), json.dumps(list(players)),
             json.dumps({str(seat): list(bot) for seat, bot in bots.items()}), RUNNING, self.now(), int(private)))
        self.writes += 1
        return cursor.fetchone()[0]

    def make_private(self, game_id: int) -> None:
        """Its table went private while it ran: the game stays private for good."""
        self.db.execute("UPDATE games SET private = 1 WHERE id = ?", (game_id,))

    def make_public(self, game_id: int) -> None:
        """A duplicate round's game, closed while other tables played its deals, is open now."""
        self.db.execute("UPDATE games SET private = 0 WHERE id = ?", (game_id,))
        self.writes += 1

    @property
    def pending(self) -> bool:
        """Whether journal steps wait for `commit`."""
        return bool(self._rows) or self.db.in_transaction

    def append(self, game_id: int, seq: int, entry: JournalEntry) -> None:
        """One journal step: committed at once (autocommit), or, ``batched``, by the next `commit`."""
        if game_id in self.broken:
            raise self.db.OperationalError(f"game {game_id} lost journal steps to a failed commit")
        if self.batched and self.sends_batches:
            self._rows.append((game_id, seq, entry.kind, entry.player, encode_entry(entry)))
            self._batch.add(game_id)
            self.writes += 1
            return
        if self.batched:
            if not self.db.in_transaction:  # a new batch (an earlier one may have been committed early)
                self.db.execute("BEGIN")
                self._batch = set()
            self._batch.add(game_id)
        self.db.execute("INSERT INTO game_journal (game_id, seq, kind, player, data) VALUES (?, ?, ?, ?, ?)",
                        (game_id, seq, entry.kind, entry.player, encode_entry(entry)))
        self.writes += 1

    def commit(self) -> None:
        """Commit the open batch of steps, if any.  If that fails, its games have a gap:
        they are marked broken (their next step fails, so `DurableGame` gives up on them)
        and abandoned if the file still takes it, and the error is raised."""
        if self._rows:
            self._send_rows()
        if not self.db.in_transaction:
            return
        games, self._batch = self._batch, set()
        try:
            self.db.execute("COMMIT")
        except self.db.Error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            self._lost(games)
            raise

    def _send_rows(self) -> None:
        """The batch's rows at once (`sends_batches`): one INSERT of them all, atomic on its own
        (autocommit), so one statement and one round trip; a huge batch in one transaction."""
        rows, self._rows = self._rows, []
        games, self._batch = self._batch, set()
        try:
            if len(rows) <= ROWS_PER_INSERT:
                self.db.execute(_INSERT_ROWS + ", ".join([_ROW] * len(rows)), [v for row in rows for v in row])
            else:
                with transaction(self.db) as db:
                    db.executemany(_INSERT_ROWS + _ROW, rows)
        except self.db.Error:
            self._lost(games)
            raise

    def _lost(self, games: set[int]) -> None:
        """``games`` lost steps to a failed commit: broken, and abandoned if the database takes it."""
        self.broken |= games
        for game_id in games:
            try:
                self.abandon(game_id)
            except self.db.Error:
                pass  # the game's DurableGame tries again, and logs it, at its next step

    def abandon(self, game_id: int) -> None:
        self.db.execute("UPDATE games SET state = ?, ended = ? WHERE id = ? AND state = ?",
                        (ABANDONED, self.now(), game_id, RUNNING))

    def finish(self, game_id: int, result: dict, players: Sequence[tuple[str, int, str | None, int, int, bool]],
               also: Callable[[Connection], object] = lambda db: None,
               variant: str = DEFAULT_VARIANT) -> None:
        """The game of ``variant`` is over: its result and each player's (name, seat, level, place,
        points, won); the people only, so a dummy has no row.

        ``also`` runs in the same transaction (the ratings' update; what it returns is dropped).
        The game's last steps are committed first.
        """
        if self._rows:
            self.commit()
        with transaction(self.db) as db:
            db.execute("UPDATE games SET state = ?, ended = ?, result = ?, variant = ? WHERE id = ?",
                       (OVER, self.now(), json.dumps(result), variant, game_id))
            db.executemany(
                "INSERT INTO game_players (game_id, name, name_key, seat, level, place, points, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, name, name.casefold(), seat, level, place, points, int(won))
                 for name, seat, level, place, points, won in players])
            also(db)

    # -- reading ----------------------------------------------------------------

    def running(self) -> list[StoredGame]:
        """Every unfinished game with its journal, oldest first."""
        games = []
        rows = self.db.execute(
            "SELECT id, log_number, table_number, seed, table_options, players, bots, started, private"
            " FROM games WHERE state = ? ORDER BY id", (RUNNING,)).fetchall()
        for id_, log_number, table_number, seed, options, players, bots, started, private in rows:
            game = StoredGame(id_, log_number, table_number, json.loads(seed), json.loads(options),
                              tuple(json.loads(players)),
                              {int(seat): tuple(bot) for seat, bot in json.loads(bots).items()}, started,
                              private=bool(private))
            try:
                game.entries = self.journal(id_)
            except (KeyError, TypeError, ValueError) as error:  # a damaged row: that game only
                game.problem = f"its journal cannot be read: {error!r}"
            games.append(game)
        return games

    def journal(self, game_id: int) -> list[JournalEntry]:
        rows = self.db.execute("SELECT kind, player, data FROM game_journal WHERE game_id = ? ORDER BY seq",
                               (game_id,))
        return [decode_entry(*row) for row in rows]

    def history(self, name: str | None, limit: int = 10, variant: str | None = None,
                reader: str | None = None) -> list[GameResultRow]:
        """The last finished games (of ``name``, of ``variant``, if given), newest first; given a
        ``reader``, only those he may read (`readable`: a private game only to its players)."""
        where, values = ["g.state = ?"], [OVER]
        if variant is not None:
            where.append("g.variant = ?")
            values.append(variant)
        if reader is not None:  # a finished game's players are its game_players
            where.append("(g.private = 0 OR EXISTS (SELECT 1 FROM game_players r"
                         " WHERE r.game_id = g.id AND r.name_key = ?))")
            values.append(reader.casefold())
        if name is None:
            query = "SELECT g.id FROM games g WHERE "
        else:
            query = "SELECT g.id FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.name_key = ? AND "
            values.insert(0, name.casefold())
        ids = self.db.execute(query + " AND ".join(where) + " ORDER BY g.ended DESC, g.id DESC LIMIT ?",
                              (*values, limit)).fetchall()
        out = []
        for (game_id,) in ids:
            log_number, ended, state, options, game_variant = self.db.execute(
                "SELECT log_number, ended, state, table_options, variant FROM games WHERE id = ?",
                (game_id,)).fetchone()
            players = tuple(self.db.execute(
                "SELECT name, seat, points, won FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)))
            out.append(GameResultRow(log_number, ended, state, tuple((n, s, p, bool(w)) for n, s, p, w in players),
                                     json.loads(options), game_variant))
        return out

    def readable(self, log_number: int, reader: str) -> bool:
        """Whether ``reader`` may read game ``log_number`` (its log, its review): a game not
        played at a private table, or not stored (a log without its game), by anyone; a private
        one by its players only: those seated at its start (``players``) and at its end
        (``game_players``, who took a seat over by vote included)."""
        row = self.db.execute("SELECT id, private, players FROM games WHERE log_number = ?",
                              (log_number,)).fetchone()
        if row is None or not row[1]:
            return True
        game_id, _, players = row
        key = reader.casefold()
        if any(name.casefold() == key for name in json.loads(players)):
            return True
        return self.db.execute("SELECT 1 FROM game_players WHERE game_id = ? AND name_key = ?",
                               (game_id, key)).fetchone() is not None

    def level_stats(self, level: str, variant: str = DEFAULT_VARIANT) -> tuple[int, int, int]:
        """(seats, wins, points) of a bot level over finished games of ``variant``."""
        return self._record("p.level = ?", level, variant)

    def stats(self, name: str, variant: str = DEFAULT_VARIANT) -> tuple[int, int, int]:
        """(games, wins, points) of a player over his finished games of ``variant``."""
        return self._record("p.name_key = ? AND p.level IS NULL", name.casefold(), variant)

    def _record(self, who: str, key: str, variant: str) -> tuple[int, int, int]:
        row = self.db.execute(
            "SELECT count(*), coalesce(sum(p.won), 0), coalesce(sum(p.points), 0) FROM game_players p"
            f" JOIN games g ON g.id = p.game_id WHERE {who} AND g.variant = ?", (key, variant)).fetchone()
        return tuple(row)
