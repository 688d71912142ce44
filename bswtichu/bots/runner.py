"""Headless games between bots: the engine drives four bots from the deal to the end.

Each step asks the seats the round does not wait for whether they want to act
out of turn (a bomb, a Tichu call), starting after the waiting seat, and only
then the waiting seat.  Every event goes to the seats allowed to see it.  An
action a bot returns that is not among its legal actions raises
`IllegalBotAction`, so tests catch any bot that breaks a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Hashable, Sequence

from ..engine import Action, Event, Game, GameOptions, Round, team_of
from ..engine.round import OVER
from .base import Bot, must_act
from .basic import BasicBot
from .random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "basic": BasicBot}
#: A game that has not ended after this many rounds is stopped (two `random` teams can
#: sink below zero forever, since they call Grand Tichu half the time).
DEFAULT_MAX_ROUNDS = 100


class IllegalBotAction(Exception):
    """A bot returned an action the rules do not allow it now."""


def make_bot(level: str, seat: int, rng: Random) -> Bot:
    """A bot of ``level`` ("random" or "basic") for ``seat``, drawing on ``rng``."""
    try:
        return LEVELS[level](seat, rng)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}") from None


@dataclass(frozen=True)
class PlayerRecord:
    """One player's game: ``points`` adds up his team's score of every round he played."""

    level: str
    points: int
    victory_points: int | None
    tichu_calls: int
    tichu_won: int
    grand_calls: int
    grand_won: int


@dataclass(frozen=True)
class GameSummary:
    """How a game went; players are numbered by their seat at the start (0..3)."""

    players: tuple[PlayerRecord, ...]
    rounds: int
    finished: bool
    winners: tuple[int, ...]  # players in first place; () for a draw or an unfinished game
    totals: tuple[int, int]  # team totals of a normal game (seats 1+3, seats 2+4)


def play_game(levels_by_seat: Sequence[str], options: GameOptions = GameOptions(),
              seed: Hashable = 0, max_rounds: int = DEFAULT_MAX_ROUNDS) -> GameSummary:
    """Play a complete game between bots of the given levels; the seed fixes everything."""
    master = Random(seed)
    game_rng = Random(master.getrandbits(64))
    bots = [make_bot(level, seat, Random(master.getrandbits(64)))
            for seat, level in enumerate(levels_by_seat)]
    return run_game(bots, options, game_rng, max_rounds)


def run_game(bots: Sequence[Bot], options: GameOptions, rng: Random,
             max_rounds: int = DEFAULT_MAX_ROUNDS) -> GameSummary:
    """Play a game with these bot objects (bot i is the player who starts in seat i)."""
    game = Game(tuple(range(4)), options, rng)
    tally = [dict(points=0, tichu_calls=0, tichu_won=0, grand_calls=0, grand_won=0) for _ in bots]
    while not game.over and len(game.rounds) < max_rounds:
        events = game.start_round()
        seating = game.seating
        seat_bots = [bots[player] for player in seating]
        for seat, bot in enumerate(seat_bots):
            bot.begin_round(seat)
        _deliver(events, seat_bots)
        play_round(game, seat_bots)
        _count_round(game.round, seating, tally)
    return GameSummary(
        players=tuple(PlayerRecord(level=bot.level, victory_points=(
            game.victory_points[p] if options.turnier else None), **tally[p])
            for p, bot in enumerate(bots)),
        rounds=len(game.rounds), finished=game.over, winners=tuple(game.winners()),
        totals=(game.totals[0], game.totals[1]))


def play_round(game: Game, seat_bots: Sequence[Bot]) -> None:
    """Drive the game's current round to its end; ``seat_bots[s]`` plays seat s."""
    rnd = game.round
    while rnd.phase != OVER:
        _deliver(game.apply(next_action(rnd, seat_bots)), seat_bots)


def next_action(rnd: Round, seat_bots: Sequence[Bot]) -> Action:
    """The next action: an out-of-turn one if a bot offers it, else the waiting seat's."""
    waiting = [s for s in range(4) if must_act(rnd.view(s))]
    first = waiting[0]
    for step in (1, 2, 3):
        seat = (first + step) % 4
        if seat in waiting:
            continue
        legal = rnd.legal_actions(seat)
        if legal:
            action = seat_bots[seat].interrupt(rnd.view(seat), legal)
            if action is not None:
                return _checked(action, legal)
    legal = rnd.legal_actions(first)
    return _checked(seat_bots[first].choose(rnd.view(first), legal), legal)


def _checked(action: Action, legal: Sequence[Action]) -> Action:
    if action not in legal:
        raise IllegalBotAction(f"seat {action.seat + 1} tried an illegal action: {action!r}")
    return action


def _deliver(events: Sequence[Event], seat_bots: Sequence[Bot]) -> None:
    for event in events:
        for seat, bot in enumerate(seat_bots):
            if event.private_to is None or event.private_to == seat:
                bot.observe(event)


def _count_round(rnd: Round, seating: tuple, tally: list[dict]) -> None:
    result = rnd.result
    first = result.finish_order[0]
    for seat, player in enumerate(seating):
        counts = tally[player]
        counts["points"] += result.score[team_of(seat)]
        call = result.calls[seat]
        if call:
            counts[f"{call}_calls"] += 1
            counts[f"{call}_won"] += seat == first
