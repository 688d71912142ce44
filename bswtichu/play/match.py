"""``bswtichu match``: let two bot levels play many games and print how they fared.

Side 1 plays the first level, side 2 the second.  The sides change seats every
game (even games: side 1 in seats 1+3; odd games: side 1 in seats 2+4), so
neither level keeps a seat advantage.  Game i is played with the seed
``"S/i"``, so a run is repeated exactly by the same ``--seed``.

``--variant``: Tientsin as above with teams of three (seats 1+3+5, 2+4+6);
Trichu, with three people and no fixed teams, gives side 1 one person (the
first in game 0, the second in game 1, ...) and side 2 the other two; the
dummy plays its dealer's level.  Duo (two people, each playing both hands of a
team) as the 4-player game, a person per side, a bot of his level at each of his
seats.  Points per round are per player of a side.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import NoReturn, Sequence, TextIO

from tqdm import tqdm

from ..bots import LEVELS, BotSettings
from ..bots.base import DEFAULT_EXPERT_BUDGET
from ..engine import NANJING, VARIANTS, GameOptions, Variant, variant_named
from .headless import DEFAULT_MAX_ROUNDS, GameSummary, play_game

@dataclass
class SideResults:
    """One side's results over the match (two players per game)."""

    level: str
    wins: int = 0
    points: int = 0  # each player's points summed; per player and round when printed
    player_games: int = 0  # players of this side, summed over the games
    victory_points: int = 0
    calls: dict[str, int] = field(default_factory=lambda: {"tichu": 0, "grand": 0})
    made: dict[str, int] = field(default_factory=lambda: {"tichu": 0, "grand": 0})


@dataclass
class MatchResults:
    sides: tuple[SideResults, SideResults]
    games: int = 0
    draws: int = 0
    unfinished: int = 0
    rounds: int = 0

    def add(self, summary: GameSummary, side_of_player: Sequence[int]) -> None:
        self.games += 1
        self.rounds += summary.rounds
        for player, record in enumerate(summary.players):
            side = self.sides[side_of_player[player]]
            side.player_games += 1
            side.points += record.points
            side.victory_points += record.victory_points or 0
            side.calls["tichu"] += record.tichu_calls
            side.made["tichu"] += record.tichu_won
            side.calls["grand"] += record.grand_calls
            side.made["grand"] += record.grand_won
        winning_sides = {side_of_player[p] for p in summary.winners}
        if not summary.finished:
            self.unfinished += 1
        elif len(winning_sides) == 1:
            self.sides[winning_sides.pop()].wins += 1
        else:
            self.draws += 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bswtichu match",
        description="Let two bot levels play complete games against each other. Side 1 plays"
        " LEVEL1, side 2 LEVEL2; the sides swap seats every game (side 1 sits in seats 1+3 in"
        " even games, in seats 2+4 in odd ones).",
        epilog="example: bswtichu match --games 200 --seed 7 basic random")
    parser.add_argument("level1", metavar="LEVEL1", choices=sorted(LEVELS),
                        help="level of side 1: " + ", ".join(sorted(LEVELS)))
    parser.add_argument("level2", metavar="LEVEL2", choices=sorted(LEVELS), help="level of side 2")
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the whole match (default 0)")
    parser.add_argument("--rounds", type=int, default=None, metavar="X",
                        help="end each game after X rounds (the BSW 'round X' option)")
    parser.add_argument("--turnier", action="store_true",
                        help="tournament games: 9 rounds, rotating partners, victory points")
    parser.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS, metavar="R",
                        help="stop a game that has not ended after R rounds and count it as"
                        f" unfinished (default {DEFAULT_MAX_ROUNDS})")
    parser.add_argument("--budget", type=int, default=DEFAULT_EXPERT_BUDGET, metavar="B",
                        help="the expert level's playouts per decision (default"
                        f" {DEFAULT_EXPERT_BUDGET}; fewer play faster and weaker)")
    parser.add_argument("--variant", default=NANJING.name, type=str.lower, choices=sorted(VARIANTS),
                        metavar="NAME", help="the form of the game: " + ", ".join(VARIANTS)
                        + f" (default {NANJING.name}, the 4-player game)")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (there is none either when stderr is not a terminal)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.games < 1 or (args.rounds is not None and args.rounds < 1) or args.max_rounds < 1
            or args.budget < 1):
        parser.error("--games, --rounds, --max-rounds and --budget need positive numbers")
    variant = variant_named(args.variant)
    if args.turnier and not variant.bsw_options:
        parser.error(f"--turnier is for the 4-player game, not {variant.title}")
    if variant.game_rounds is not None and args.rounds is not None and args.rounds % variant.players:
        parser.error(f"a game of {variant.title} is a multiple of {variant.players} rounds")
    settings = BotSettings(expert_budget=args.budget)
    options = GameOptions(round_limit=args.rounds, turnier=args.turnier)
    results = MatchResults((SideResults(args.level1), SideResults(args.level2)))
    started = time.perf_counter()
    with progress_bar(args.games, sys.stderr, args.no_progress) as bar:
        for number in range(args.games):
            side_of_player = sides_in_game(variant, number)
            levels = [results.sides[side].level for side in side_of_player]
            results.add(play_game(levels, options, seed=f"{args.seed}/{number}",
                                max_rounds=args.max_rounds, settings=settings, variant=variant),
                      side_of_player)
            bar.update(1)
    print_summary(results, args, time.perf_counter() - started, sys.stdout)
    return 0


def sides_in_game(variant: Variant, number: int) -> tuple[int, ...]:
    """Each player's side (0 or 1) in game ``number``: the teams swap sides every game; without
    fixed teams (Trichu) side 1 is one person, a different one each game."""
    if variant.per_player_scores:
        return tuple(0 if p == number % variant.players else 1 for p in range(variant.players))
    return tuple((variant.teams[p] + number) % 2 for p in range(variant.players))


def progress_bar(total: int, out: TextIO, off: bool = False) -> tqdm[NoReturn]:
    """A progress bar of games on ``out``, only when ``out`` is a terminal (and not ``off``);
    it wraps no iterable (hence ``NoReturn``): the caller updates it after each game."""
    return tqdm(total=total, file=out, unit="game", disable=off or not out.isatty(), leave=True)


def print_summary(results: MatchResults, args: argparse.Namespace, seconds: float, out: TextIO) -> None:
    one, two = results.sides
    rounds = max(results.rounds, 1)
    games = "game" if results.games == 1 else "games"
    variant = variant_named(getattr(args, "variant", NANJING.name))
    fixed = variant.game_rounds
    mode = f"tournament {games}" if args.turnier else (
        f"{games} of {args.rounds or fixed} rounds" if fixed else
        f"{games} of at most {args.rounds} rounds" if args.rounds else f"{games} to 1000")
    if variant is not NANJING:
        mode = f"{variant.title} {mode}"
    per_game = [max(side.player_games, 1) / max(results.games, 1) for side in (one, two)]
    rows = [
        ("", f"side 1: {one.level}", f"side 2: {two.level}"),
        ("games won", one.wins, two.wins),
        ("points per round", f"{one.points / per_game[0] / rounds:.1f}",
         f"{two.points / per_game[1] / rounds:.1f}"),
    ]
    if args.turnier:
        rows.append(("victory points per game", f"{one.victory_points / 2 / results.games:.1f}",
                     f"{two.victory_points / 2 / results.games:.1f}"))
    for call, name in (("tichu", "Tichu"), ("grand", "Grand Tichu")):
        rows.append((f"{name} called / made", f"{one.calls[call]} / {one.made[call]}",
                     f"{two.calls[call]} / {two.made[call]}"))
    swap = ("side 1 is one person, a different one every game" if variant.per_player_scores
            else "the sides swap seats every game")
    print(f"{one.level} vs {two.level}: {results.games} {mode}, seed {args.seed} ({swap})", file=out)
    for label, a, b in rows:
        print(f"  {label:<26}{a!s:>16}{b!s:>16}", file=out)
    print(f"  draws: {results.draws}", end="", file=out)
    if results.unfinished:
        print(f", unfinished after {args.max_rounds} rounds: {results.unfinished}", end="", file=out)
    print(f"; {results.rounds} rounds ({results.rounds / results.games:.1f} per game)"
          f" in {seconds:.1f} s ({results.games / seconds:.2f} games/s)", file=out)


if __name__ == "__main__":
    sys.exit(main())
