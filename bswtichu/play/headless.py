"""Headless games between bots, as `bswtichu match` plays them: the same driver as a server table.

A headless game is a `GameDriver` on a `Clock` of its own with no bot delay:
one ``clock.advance(0)`` plays the whole game, bot step by bot step, exactly
as a server table full of bots would (the same order of asking seats, the
same handling of an illegal bot action).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, cast

from twisted.internet.task import Clock

from ..bots import Bot, BotSettings
from ..engine import DUMMY, NANJING, Event, GameOptions, Variant
from ..engine.events import RoundEnded
from ..engine.round import RoundResult
from ..records import Player, Seed
from .driver import GameDriver, GameSeeds, seated_bots

#: A game that has not ended after this many rounds is stopped (two `random` teams can
#: sink below zero forever, since they call Grand Tichu half the time).
DEFAULT_MAX_ROUNDS = 100


@dataclass(frozen=True)
class PlayerRecord:
    """One player's game: ``points`` adds up his team's score of every round he played (once,
    though he plays two hands); his calls are those of all his hands but the dummy's."""

    level: str
    points: int
    victory_points: int | None
    tichu_calls: int
    tichu_won: int
    grand_calls: int
    grand_won: int


@dataclass(frozen=True)
class GameSummary:
    """How a game went; players are numbered by their place in the join order (their seat at the start)."""

    players: tuple[PlayerRecord, ...]
    rounds: int
    finished: bool
    winners: tuple[int, ...]  # players in first place; () for a draw or an unfinished game
    totals: tuple[int, ...]  # `Game.scores`: team totals (seats 1+3.., seats 2+4..), or per player (Trichu)


class CallCounts:
    """A subscriber that counts each player's points and calls round by round."""

    def __init__(self, players: int = NANJING.players) -> None:
        """Counts for ``players`` players, named 0..N-1 as a headless game names them."""
        self.counts: dict[Player, dict[str, int]] = {
            player: dict(points=0, tichu_calls=0, tichu_won=0, grand_calls=0, grand_won=0)
            for player in range(players)}

    def round_dealt(self, driver: GameDriver) -> None:
        pass

    def happened(self, driver: GameDriver, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, RoundEnded):
                self._count(event, driver.game.seating, driver.game.variant)

    def _count(self, event: RoundEnded, seating: Sequence[Player], variant: Variant) -> None:
        result: RoundResult = event.result  # type: ignore[assignment]  # typed object in the engine
        first = result.finish_order[0]
        for seat, player in enumerate(seating):
            if player is DUMMY:  # no one: its calls are its dealer's decisions, its points its own
                continue
            counts = self.counts[player]
            if seat in variant.person_seats:  # his first seat: Duo's person scores once
                counts["points"] += result.score[variant.teams[seat]]
            call = result.calls[seat]
            if call:
                counts[f"{call}_calls"] += 1
                counts[f"{call}_won"] += seat == first


def headless_driver(bots: Sequence[Bot], options: GameOptions, seeds: GameSeeds,
                    max_rounds: int | None = DEFAULT_MAX_ROUNDS,
                    variant: Variant = NANJING) -> tuple[GameDriver, Clock]:
    """A driver for players 0..N-1 played by ``bots`` (bot i is player i), on its own clock."""
    clock = Clock()
    driver = GameDriver(tuple(range(len(bots))), options, seeds, dict(enumerate(bots)), clock,
                        max_rounds=max_rounds, variant=variant)
    return driver, clock


def play_game(levels_by_seat: Sequence[str], options: GameOptions = GameOptions(),
              seed: Seed = 0, max_rounds: int = DEFAULT_MAX_ROUNDS,
              settings: BotSettings = BotSettings(), variant: Variant = NANJING) -> GameSummary:
    """Play a complete game between bots of the given levels (one per player); the seed fixes everything."""
    seeds = GameSeeds.from_seed(seed, variant.seats)
    players = tuple(range(variant.players))
    bots = seated_bots(players, options, dict(enumerate(levels_by_seat)), seeds, settings, variant)
    return run_game([bots[player] for player in players], options, seeds, max_rounds, variant)


def run_game(bots: Sequence[Bot], options: GameOptions, seeds: GameSeeds,
             max_rounds: int = DEFAULT_MAX_ROUNDS, variant: Variant = NANJING) -> GameSummary:
    """Play a game with these bot objects (bot i is player i, who starts in seat i; a player of
    two hands gets a bot of his level and settings for the second)."""
    driver, clock = headless_driver(bots, options, seeds, max_rounds, variant)
    calls = CallCounts(len(bots))
    driver.subscribe(calls)
    driver.start()
    clock.advance(0)
    game = driver.game
    if not driver.finished:
        raise RuntimeError("a headless game stalled: no bot would act")
    return GameSummary(
        players=tuple(PlayerRecord(level=bot.level, victory_points=(
            game.victory_points[p] if options.turnier else None), **calls.counts[p])
            for p, bot in enumerate(bots)),
        rounds=len(game.rounds), finished=game.over,
        winners=cast("tuple[int, ...]", game.winners()),  # the players are numbered: 0..N-1
        totals=game.scores())
