"""Durable games: the storage's subscriber of a running game, and restoring stored games.

`DurableGame` is subscribed to a game's driver before anything that tells
people, so each step is written to SQLite before anyone hears of it, and
committed before it is told (at once, or with its reactor turn's other steps:
`GameStore.batched`, committed by the lobby's `Outbox` before it writes).  When
the game ends it stores the result and updates the ratings in one transaction.
`GameWiring.restore` (``tables/wiring.py``) rebuilds every unfinished game after a
restart from its journal (`bswtichu.play.journal`): same hands, turn, wish, calls, scores, tournament
position, and bots that go on as they would have.
"""

from __future__ import annotations

from typing import Sequence

from twisted.logger import Logger

from bswtichu.engine import Event, Game, Standing, Variant
from bswtichu.engine.events import GameOver
from bswtichu.play import GameDriver, SeatHandedOver
from bswtichu.play.journal import Journal
from bswtichu.records import JournalEntry
from bswtichu.storage import Storage
from bswtichu.storage.ratings import RatedSeat, bot_identity, player_identity, update_ratings


class DurableGame:
    """A driver subscriber that writes the game's journal and, at the end, its result.

    A store that fails (a full disk, a broken file) must not stop the game, as with
    the game log: the failure is logged once and the game plays on, no longer
    durable (a journal with a gap would rebuild another game).
    """

    log = Logger()

    def __init__(self, storage: Storage, game_id: int, players: Sequence[str],
                 levels: dict[str, str], turnier: bool, seq: int = 0):
        """``players`` in seat order at the start; ``levels`` the bots' (name -> level)."""
        self.storage = storage
        self.game_id = game_id
        self.players = tuple(players)
        self.levels = dict(levels)
        self.turnier = turnier
        self.seq = seq
        self.journal = Journal(self._write)
        self.failed = False

    def _write(self, entry: JournalEntry) -> None:
        if self.failed:
            return
        try:
            self.storage.games.append(self.game_id, self.seq, entry)
        except Exception:
            self._failed("cannot store a step of game {id}; it plays on but will not survive a restart")
            return
        self.seq += 1

    def _failed(self, why: str) -> None:
        """Log the failure; mark the game abandoned if the store still lets us, so no gap is restored."""
        self.failed = True
        self.log.failure(why, id=self.game_id)
        try:
            self.storage.games.abandon(self.game_id)
        except Exception:
            self.log.failure("cannot mark game {id} abandoned either; a restart may restore it"
                             " as it was before the failure", id=self.game_id)

    def round_dealt(self, driver: GameDriver) -> None:
        self.journal.round_dealt(driver)

    def happened(self, driver: GameDriver, events: Sequence[Event]) -> None:
        self.journal.happened(driver, events)
        for event in events:  # every action's events pass here: checked by exact type
            if type(event) is GameOver:
                self._finish(driver.game, event)
            elif type(event) is SeatHandedOver:  # the result and rating go to who plays it now
                self.players = tuple(event.to if p == event.player else p  # type: ignore[misc]  # players are names here
                                     for p in self.players)

    def caught_up(self, driver: GameDriver) -> None:
        """After a restore: the journal goes on from the driver's current round."""
        self.journal.caught_up(driver)

    def game_over(self, driver: GameDriver) -> None:
        """Store the result of a game that is over (when the crash came between its end and its result)."""
        game = driver.game
        self._finish(game, GameOver(game.winners(), tuple(game.standings())))

    def abandon(self) -> None:
        self.storage.games.abandon(self.game_id)

    def made_private(self) -> None:
        """Its table went private: only its players (and admins) will read it (`GameReaders`)."""
        try:
            self.storage.games.make_private(self.game_id)
        except Exception:  # as with a step: a failing store does not stop the table
            self.log.failure("cannot mark game {id} private; its record stays public", id=self.game_id)

    def _finish(self, game: Game, event: GameOver) -> None:
        """Store the result and rate the game, both under its variant (`rated_side` says how)."""
        variant = game.variant
        standings: tuple[Standing, ...] = event.standings  # type: ignore[assignment]  # Game.standings()
        places = {s.player: s for s in standings}
        rows, rated = [], []
        for seat, name in enumerate(self.players):
            standing = places[name]
            level = self.levels.get(name)
            won = name in event.winners
            rows.append((name, seat + 1, level, standing.place, standing.points, won))
            if level is not None:
                identity = bot_identity(level)
            elif self.storage.accounts.is_registered(name):
                identity = player_identity(name)
            else:
                identity = None
            rated.append(RatedSeat(identity, rated_side(variant, self.turnier, seat), standing.place))
        result = {"winners": list(event.winners), "standings": [s.to_dict() for s in standings]}
        if self.failed:
            return
        try:
            self.storage.games.finish(self.game_id, result, rows, variant=variant.name,
                                      also=lambda db: update_ratings(db, rated, variant.name))
        except Exception:
            self._failed("cannot store the result of game {id}")


def rated_side(variant: Variant, turnier: bool, seat: int) -> int:
    """The side a player (by his seat at the start) is rated on: his team, or he alone where
    the game's result is per player (a tournament; Trichu, whose dummy is nobody and is not
    rated: docs/rules.md)."""
    if turnier or variant.per_player_scores:
        return seat
    return variant.teams[variant.person_seats[seat]]  # his first engine seat (Duo's people: 1 and 2)
