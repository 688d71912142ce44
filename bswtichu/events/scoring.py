"""Scoring an event across tables: a table's deals, a round's results, the standings.

Pure: a table's result is the points and victory points of each of its deals; the
standings are sums over the rounds played, ordered by the tie-breaks of docs/rules.md
("Events: formats, scoring, tie-breaks"). A deal's victory points are the tournament's
(R13.3.3, `engine.tournament_victory_points`: one copy of that rule).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bswtichu.engine import RoundResult, tournament_victory_points

#: which seats (indexes 0-3) make each team: seats 1+3 and seats 2+4
TEAM_SEATS = ((0, 2), (1, 3))
#: a pairs match's victory points: a win, a tie (a bye too), a loss
MATCH_WIN, MATCH_TIE, MATCH_LOSS = 2, 1, 0


@dataclass(frozen=True)
class DealScore:
    """One deal at a table: each team's points (seats 1+3, seats 2+4) and victory points."""

    points: tuple[int, int]
    victory_points: tuple[int, int]

    @classmethod
    def of(cls, result: RoundResult) -> DealScore:
        """The deal as the engine scored it, with its victory points (R13.3.3)."""
        return cls(result.score, tournament_victory_points(result))

    def to_data(self) -> list[int]:
        return [*self.points, *self.victory_points]

    @classmethod
    def from_data(cls, data: Sequence[int]) -> DealScore:
        return cls((data[0], data[1]), (data[2], data[3]))


@dataclass(frozen=True)
class TableResult:
    """A table of a round: its players in seats 1-4, its deals, and the players a bot played
    for at some moment (their results are marked)."""

    seats: tuple[str, str, str, str]
    deals: tuple[DealScore, ...]
    stood_in: frozenset[str] = frozenset()

    def team_of(self, name: str) -> int:
        """0 for seats 1+3, 1 for seats 2+4."""
        return 0 if self.seats.index(name) in TEAM_SEATS[0] else 1

    def team_points(self, team: int) -> int:
        return sum(deal.points[team] for deal in self.deals)

    def team_victory_points(self, team: int) -> int:
        return sum(deal.victory_points[team] for deal in self.deals)


@dataclass(frozen=True)
class PlayedRound:
    """A finished round: its tables' results and who sat out (players or pairs)."""

    tables: tuple[TableResult, ...]
    byes: tuple[str, ...] = ()


#: a standing's numbers: victory points and points; duplicate's match points may be fractions
Score = int | Fraction


@dataclass(frozen=True)
class Standing:
    """One line of the standings: a player (or pair), his place (shared on a full tie), his
    victory points, the tie-break (points), games played, byes, and the games a bot played
    part of for him."""

    name: str
    place: int
    victory_points: Score
    points: Score
    games: int = 0
    byes: int = 0
    stood_in: int = 0

    def to_data(self) -> dict[str, object]:
        return {"name": self.name, "place": self.place, "victory_points": plain(self.victory_points),
                "points": plain(self.points), "games": self.games, "byes": self.byes, "stood_in": self.stood_in}


def plain(score: Score) -> int | float:
    """A score as JSON says it: whole, or a fraction (duplicate's Neuberg) to 2 decimals."""
    if isinstance(score, Fraction):
        return score.numerator if score.denominator == 1 else round(float(score), 2)
    return score


@dataclass
class _Tally:
    victory_points: int = 0
    points: int = 0
    games: int = 0
    byes: int = 0
    stood_in: int = 0


def ranked(tallies: Mapping[str, _Tally]) -> list[Standing]:
    """Best first by victory points, then points; a full tie shares its place (names in order)."""
    order = sorted(tallies.items(), key=lambda item: (-item[1].victory_points, -item[1].points, item[0]))
    out: list[Standing] = []
    for index, (name, t) in enumerate(order):
        tied = out and (out[-1].victory_points, out[-1].points) == (t.victory_points, t.points)
        place = out[-1].place if tied else index + 1
        out.append(Standing(name, place, t.victory_points, t.points, t.games, t.byes, t.stood_in))
    return out


def individual_standings(names: Iterable[str], rounds: Sequence[PlayedRound],
                         deals_per_round: int) -> list[Standing]:
    """Individual: each player scores his team's victory points of every deal he played and
    his team's points (the tie-break, as `turnier`'s); a bye scores 1 victory point per deal
    of the round and no points (docs/rules.md items 45, 52-53)."""
    tallies = {name: _Tally() for name in names}
    for played in rounds:
        for table in played.tables:
            for name in table.seats:
                tally = tallies.setdefault(name, _Tally())
                team = table.team_of(name)
                tally.victory_points += table.team_victory_points(team)
                tally.points += table.team_points(team)
                tally.games += 1
                tally.stood_in += name in table.stood_in
        for name in played.byes:
            tally = tallies.setdefault(name, _Tally())
            tally.victory_points += deals_per_round
            tally.byes += 1
    return ranked(tallies)


def match_victory_points(own: int, other: int) -> int:
    """A pairs match: 2 for the pair with more points over its deals, 1 each on a tie, 0 else."""
    return MATCH_WIN if own > other else MATCH_TIE if own == other else MATCH_LOSS


def pairs_standings(pairs: Mapping[str, tuple[str, str]], rounds: Sequence[PlayedRound]) -> list[Standing]:
    """Pairs: each match scores victory points by its points over the round's deals
    (`match_victory_points`), the tie-break is the sum of the point differences; a bye scores
    a tied match with a difference of 0 (docs/rules.md items 49, 54-55). ``pairs``: each
    pair's name and its two players."""
    pair_of = {player: name for name, players in pairs.items() for player in players}
    tallies = {name: _Tally() for name in pairs}
    for played in rounds:
        for table in played.tables:
            for team in (0, 1):
                name = pair_of[table.seats[TEAM_SEATS[team][0]]]
                own, other = table.team_points(team), table.team_points(1 - team)
                tally = tallies.setdefault(name, _Tally())
                tally.victory_points += match_victory_points(own, other)
                tally.points += own - other
                tally.games += 1
                tally.stood_in += any(table.seats[s] in table.stood_in for s in TEAM_SEATS[team])
        for name in played.byes:
            tally = tallies.setdefault(name, _Tally())
            tally.victory_points += MATCH_TIE
            tally.byes += 1
    return ranked(tallies)
