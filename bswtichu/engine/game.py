"""A game: rounds until the end rules (rules.md §12), the BSW options (§13) and the tournament.

Players are names (any hashable works); the game keeps which player sits
where in each round.  Normal games have fixed seats and team totals; a
`turnier` rotates partnerships (R13.3.5) and scores victory points per player.
The `Variant` says the rest: how many play, who deals, per-team or per-player
scores, to 1000 or a fixed number of rounds (Trichu, where the people move
round by round so that each deals in turn and plays the `DUMMY` opposite),
and which seats' hands a person plays (Duo: two, so a seating names him twice).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random
from typing import Any, Hashable, Sequence

from .actions import Action
from .cards import Card
from .errors import IllegalActionError
from .events import Event, GameOver, RoundEnded, RoundScored, SeatingChanged
from .round import OVER, Round, RoundResult
from .variant import NANJING, Variant

#: A tournament (BSW's ``turnier``) is 9 rounds: each player partners each other one three times.
TOURNAMENT_ROUNDS = 9
TOURNAMENT_DOUBLE_VICTORY = 100

#: R13.3.5: which of the base players A, B, C, D (seats at /start) sits in seats 1..4.
PARTNERSHIPS = {"X": (0, 1, 2, 3), "Y": (0, 2, 1, 3), "Z": (0, 1, 3, 2)}
#: The cycling schedule of partnerships for the 9 tournament rounds.
TOURNAMENT_SCHEDULE = ("X", "Y", "Z", "X", "Y", "Z", "X", "Y", "Z")


#: The BSW table options (rules.md §13) and the `GameOptions` field each one sets.
OPTION_FIELDS = {"round": "round_limit", "tichujoin": "tichujoin", "turnier": "turnier", "clock": "clock"}
OPTION_NAMES = tuple(OPTION_FIELDS)


@dataclass(frozen=True)
class GameOptions:
    """``round_limit``: end after that many rounds (ignored under ``turnier``).

    ``clock``: seconds each person has for a decision (None: untimed).  The rules
    do not use it; it travels with the table's options to whoever runs the game.
    ``exact_rounds``: the game is ``round_limit`` rounds, no fewer (no 1000-point end):
    an event's table, whose players are scored per deal across tables (docs/rules.md).
    """

    round_limit: int | None = None
    tichujoin: bool = False
    turnier: bool = False
    clock: int | None = None
    exact_rounds: bool = False

    def __post_init__(self) -> None:
        if self.round_limit is not None and self.round_limit < 1:
            raise ValueError("round X needs a positive number of rounds")

    def as_data(self) -> dict[str, object]:
        """The options under their table names (``round``, ``tichujoin``, ``turnier``, ``clock``)."""
        return {"round": self.round_limit, "tichujoin": self.tichujoin, "turnier": self.turnier,
                "clock": self.clock}

    def with_option(self, name: str, value: Any) -> GameOptions:  # Any: each option its own type
        """These options with one table option (``round``, ``tichujoin``, ``turnier``, ``clock``) changed."""
        if name not in OPTION_NAMES:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(OPTION_NAMES)}")
        return replace(self, **{OPTION_FIELDS[name]: value})

    def describe(self) -> str:
        parts = []
        if self.round_limit and not self.turnier:
            parts.append(f"round {self.round_limit}")
        if self.tichujoin:
            parts.append("tichujoin")
        if self.turnier:
            parts.append("turnier")
        if self.clock:
            parts.append(f"clock {self.clock}")
        return ", ".join(parts) or "none"


class _Dummy:
    """The dummy hand's place in a seating (Trichu): no one; the dealer plays it."""

    def __repr__(self) -> str:
        return "DUMMY"

    def __str__(self) -> str:
        return "dummy"

    def __reduce__(self) -> str:
        return "DUMMY"


DUMMY = _Dummy()

#: The players in seat order (a person twice in Duo, `DUMMY` at Trichu's dummy seat).
Seating = tuple[Hashable, ...]

#: How the seat counts are spoken ("a game needs three players").
COUNT_WORDS = {2: "two", 3: "three", 4: "four", 6: "six"}


def seats_from_join_order(joiners: Sequence[Hashable], tichujoin: bool, variant: Variant = NANJING) -> Seating:
    """Seat order at the start: join order, or with ``tichujoin`` joiners 1+2 as partners (§13.2).

    In Trichu and Duo the order of the people; `Game.seating_for` seats them (and the dummy).
    """
    if len(joiners) != variant.players:
        raise ValueError(f"a game needs {COUNT_WORDS.get(variant.players, variant.players)} players")
    if not tichujoin:
        return tuple(joiners)
    if not variant.bsw_options:
        raise ValueError(f"tichujoin is for the 4-player game, not {variant.title}")
    a, b, c, d = joiners
    return (a, c, b, d)


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings; ``place`` is shared on a full tie."""

    player: Hashable
    place: int
    points: int  # team total (normal game) or Tichu points (tournament)
    victory_points: int | None

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "place": self.place, "points": self.points,
                "victory_points": self.victory_points}


class Game:
    """Rounds of one table, from the first deal to the end of the game."""

    def __init__(self, joiners: Sequence[Hashable], options: GameOptions = GameOptions(),
                 rng: Random | None = None, variant: Variant = NANJING):
        if options.turnier and not variant.bsw_options:
            raise ValueError(f"turnier is for the 4-player game, not {variant.title}")
        if variant.game_rounds is not None and options.round_limit is not None \
                and options.round_limit % variant.players:
            raise ValueError(f"a game of {variant.title} is a multiple of {variant.players} rounds,"
                             " so that everyone deals equally often")
        self.options = options
        self.variant = variant
        self.rng = rng if rng is not None else Random()
        self.base_seats = seats_from_join_order(joiners, options.tichujoin, variant)
        self.rounds: list[Round] = []
        self.seatings: list[Seating] = []
        self.totals = [0, 0]  # team games: team of seats 1+3(+5), team of seats 2+4(+6)
        # Per player (the dummy too, where there is one): the sum of his team's round scores.
        self.tichu_points = {p: 0 for p in self.base_seats + ((DUMMY,) if variant.dummy is not None else ())}
        self.victory_points = {p: 0 for p in self.base_seats}
        self.over = False

    # ------------------------------------------------------------------ seating

    def seating_for(self, number: int) -> Seating:
        """Players in seat order for round ``number`` (0-based).

        Trichu: the dealer sits in the variant's `dummy_owner` seat and the `DUMMY`
        opposite; the dealer role passes to the next person each round, and the
        people keep their order around the table.  Duo: each person also at the
        seat of the further hand he plays, as (A, B, A, B).
        """
        variant = self.variant
        if variant.dummy is not None:
            k = number % len(self.base_seats)
            people = iter(self.base_seats[k:] + self.base_seats[:k])
            return tuple(DUMMY if s == variant.dummy else next(people) for s in range(variant.seats))
        if not self.options.turnier:
            return self._with_further_hands(self.base_seats)
        code = TOURNAMENT_SCHEDULE[number % len(TOURNAMENT_SCHEDULE)]
        return tuple(self.base_seats[i] for i in PARTNERSHIPS[code])

    def _with_further_hands(self, people: Seating) -> Seating:
        """``people`` at the variant's `person_seats`, and each also at the seats he plays besides."""
        variant = self.variant
        if len(variant.person_seats) == variant.seats:
            return people
        at = dict(zip(variant.person_seats, people))
        return tuple(at[owner] for owner in variant.played_by)  # type: ignore[union-attr]  # Variant.__post_init__ sets it

    @property
    def seating(self) -> Seating:
        """Players in seat order for the current (or next) round."""
        return self.seatings[-1] if self.seatings else self.seating_for(0)

    def seat_of(self, player: Hashable) -> int:
        """The player's seat this round; in Duo the first of his two."""
        return self.seating.index(player)

    def seats_played_by(self, player: Hashable) -> tuple[int, ...]:
        """The seats whose hands ``player`` plays this round, his own first (`Variant.played_by`).

        One seat, but two for the dealer in Trichu (the dummy's hand too) and for
        each person in Duo (his partner seat's).
        """
        return self.variant.hands_with[self.seat_of(player)]

    def rename(self, old: Hashable, new: Hashable) -> None:
        """Another player takes ``old``'s place from now on, with his seat, points and past
        (a table handing a seat over); the rounds hold seats, not players."""
        if old not in self.base_seats or new in self.base_seats:
            raise ValueError(f"cannot hand {old!r}'s place to {new!r}")

        def swap(players: Seating) -> Seating:
            return tuple(new if p == old else p for p in players)

        self.base_seats = swap(self.base_seats)
        self.seatings = [swap(seating) for seating in self.seatings]
        self.tichu_points[new] = self.tichu_points.pop(old)
        self.victory_points[new] = self.victory_points.pop(old)

    # ------------------------------------------------------------------ rounds

    def dealer_for(self, number: int) -> int:
        """The dealer's seat in round ``number``; it matters where hands differ in size (Tientsin).

        In Trichu the people move instead (`seating_for`), so the dealer is always the same seat.
        """
        if self.variant.dummy is not None:
            return self.variant.dummy_owner  # type: ignore[return-value]  # a dummy has its owner (Variant checks)
        return number % self.variant.seats

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def start_round(self, deal: Sequence[Card] | None = None) -> list[Event]:
        """Deal the next round (from the game's random generator unless a deal is given)."""
        if self.over:
            raise IllegalActionError("the game is over")
        if self.round is not None and self.round.phase != OVER:
            raise IllegalActionError("the current round is not finished")
        number = len(self.rounds)
        options: dict[str, Any] = dict(grand_tichu=not self.options.turnier,
                       double_victory_points=TOURNAMENT_DOUBLE_VICTORY if self.options.turnier else None,
                       variant=self.variant, dealer=self.dealer_for(number))
        rnd = Round(deal, **options) if deal is not None else Round.deal_random(self.rng, **options)
        seating = self.seating_for(number)
        events: list[Event] = []
        if not self.seatings or seating != self.seatings[-1]:
            events.append(SeatingChanged(seating))
        self.rounds.append(rnd)
        self.seatings.append(seating)
        return events + list(rnd.opening_events)

    def legal_actions(self, seat: int) -> list[Action]:
        return [] if self.round is None else self.round.legal_actions(seat)

    def apply(self, action: Action) -> list[Event]:
        """Apply an action to the current round; scores the round and the game when it ends."""
        if self.round is None:
            raise IllegalActionError("no round has been dealt yet")
        events = self.round.apply(action)
        if events and isinstance(events[-1], RoundEnded):
            result = self.round.result
            assert result is not None  # an ended round has its result
            events += self._score(result)
        return events

    def _score(self, result: RoundResult) -> list[Event]:
        seating = self.seating
        score = result.score
        teams = self.variant.teams
        for seat, player in enumerate(seating):
            if seating.index(player) == seat:  # once per person, though he plays two seats (Duo)
                self.tichu_points[player] += score[teams[seat]]
        if self.options.turnier:
            for team, vp in enumerate(tournament_victory_points(result)):
                for seat in self.variant.team_seats(team):
                    self.victory_points[seating[seat]] += vp
        elif not self.variant.per_player_scores:
            self.totals[0] += score[0]
            self.totals[1] += score[1]
        self.over = self._game_is_over()
        events: list[Event] = [RoundScored(len(self.rounds), result, self.scores(), tuple(self.standings()))]
        if self.over:
            events.append(GameOver(self.winners(), tuple(self.standings())))
        return events

    def scores(self) -> tuple[int, ...]:
        """The running totals: per team, or with per-player scores (Trichu) per person in join
        order and the dummy's last."""
        if self.variant.per_player_scores:
            return tuple(self.tichu_points[p] for p in self.base_seats) + (self.dummy_points,)  # type: ignore[operator]  # per-player scores: Trichu, which has a dummy
        return tuple(self.totals)

    def _game_is_over(self) -> bool:
        played = len(self.rounds)
        if self.options.turnier:
            return played >= TOURNAMENT_ROUNDS
        if self.variant.game_rounds is not None:  # a fixed number of rounds (Trichu)
            return played >= (self.options.round_limit or self.variant.game_rounds)
        if self.options.exact_rounds and self.options.round_limit is not None:
            return played >= self.options.round_limit
        a, b = self.totals
        if max(a, b) >= self.variant.target_score and a != b:  # type: ignore[operator]  # no fixed rounds: a target
            return True
        return self.options.round_limit is not None and played >= self.options.round_limit

    # ------------------------------------------------------------------ results

    def standings(self) -> list[Standing]:
        """Players ordered best first; equal keys share a place (R13.3.4).

        With per-player scores (Trichu) each person's own total; the dummy is no
        player and has no place (its total is `dummy_points`).
        """
        if self.options.turnier:
            keyed = [(self.victory_points[p], self.tichu_points[p], p) for p in self.base_seats]
        elif self.variant.per_player_scores:
            keyed = [(self.tichu_points[p], 0, p) for p in self.base_seats]
        else:
            teams = self.variant.teams
            keyed = [(self.totals[teams[self.seat_of(p)]], 0, p) for p in self.base_seats]
        keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
        out, place = [], 0
        for i, (first, second, player) in enumerate(keyed):
            if i == 0 or (first, second) != (keyed[i - 1][0], keyed[i - 1][1]):
                place = i + 1
            points = second if self.options.turnier else first
            out.append(Standing(player, place, points, first if self.options.turnier else None))
        return out

    def winners(self) -> tuple[Hashable, ...]:
        """The players in first place once the game is over; () for a draw or an open game."""
        if not self.over:
            return ()
        firsts = tuple(s.player for s in self.standings() if s.place == 1)
        if not self.options.turnier and not self.variant.per_player_scores and self.totals[0] == self.totals[1]:
            return ()
        return firsts

    @property
    def dummy_points(self) -> int | None:
        """The dummy's own total (Trichu), to compare with; None without a dummy."""
        return self.tichu_points.get(DUMMY)


def tournament_victory_points(result: RoundResult) -> tuple[int, int]:
    """Victory points each player of team 0 and team 1 gets for a round (R13.3.3)."""
    if result.double_victory is not None:
        winners = result.double_victory
        vp = 2 if winners in result.failed_call_teams else 3
        return (vp, 0) if winners == 0 else (0, vp)
    a, b = result.score
    if a == b:
        return (1, 1)
    return (2, 0) if a > b else (0, 2)
