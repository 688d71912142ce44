"""What the forms of Tichu vary, as one value: seats, teams, deal, exchange, Dog, end, scoring, game.

The engine has no seat count or partner arithmetic of its own: a `Round` and a
`Game` read everything that depends on the number of players from their
`Variant`.  Seats are 0..N-1 inside the engine (people count them 1..N); turn
order is seat, seat + 1, ... (rules.md R3.3).  `NANJING` is the 4-player game
and the default everywhere; `TRICHU` (3 people and a dummy hand), `TIENTSIN`
(6 players) and `DUO` (2 people, each playing both hands of a team) are
rules.md §17, with the decisions of docs/rules.md.  Who plays which seat's
hand is the variant's too (`played_by`): a person may play more than one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache

DECK_SIZE = 56


@dataclass(frozen=True, eq=False)
class Variant:
    """One form of the game.  The fields say the rules; the derived tables serve the hot paths.

    Compared and hashed by identity (``eq=False``): each variant is one value made
    here, and a round's tables are looked up by it at every deal, so hashing must be cheap.
    """

    name: str
    seats: int
    #: seat -> team (0 or 1); a team's seats are its partners.
    teams: tuple[int, ...]
    #: Cards each seat sees before its Grand Tichu decision (the rest come after it).
    grand_after: int
    #: Seats (counted from the dealer) that get one card more when the deck does not divide evenly.
    extra_card_offsets: tuple[int, ...]
    #: Seats that may call Grand Tichu; the others get all their cards at once.
    grand_seats: tuple[int, ...]
    #: The exchange: a seat passes one card to each seat this many steps on, in this order.
    exchange_steps: tuple[int, ...]
    #: The Dog's player chooses which partner leads (`DogLead`), instead of the one partner.
    dog_choice: bool
    #: The team whose players all go out first scores this (double or triple victory), no cards.
    sweep_points: int
    #: The last player's tricks go to the opponents (Tientsin) rather than to the first out.
    tail_tricks_to_opponents: bool
    #: The next-to-last player out gives his tricks to the first out (Tientsin).
    next_to_last_tricks_to_first: bool
    #: The dummy hand's seat and the seat whose player plays it (Trichu), else None.
    dummy: int | None = None
    dummy_owner: int | None = None
    #: Scores per player (each partner scores his team's points) rather than per team.
    per_player_scores: bool = False
    #: A game ends when a team reaches this (rules.md §12), or after ``game_rounds`` rounds.
    target_score: int | None = 1000
    game_rounds: int | None = None
    #: The BSW options `tichujoin` and `turnier` (4-player only).
    bsw_options: bool = False
    #: Per seat, the seat of the person who plays its hand: his own seat, or for a further
    #: hand (Trichu's dummy, Duo's partner seats) the seat he sits at first.  None: each seat
    #: its own person, but the dummy its `dummy_owner` (one copy of that fact).
    played_by: tuple[int, ...] | None = None

    # Derived tables (seat -> ...), made once in __post_init__.
    next_seat: tuple[int, ...] = field(init=False, repr=False, compare=False)
    partners: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    opponents: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    exchange_targets: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    team_size: int = field(init=False, repr=False, compare=False)
    #: The seats people sit at first, in join order (the others are further hands).
    person_seats: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: The seats of further hands, played by a person who sits first at another seat.
    further_seats: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: seat -> the seats whose hands the person playing it plays, his first seat first.
    hands_with: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.seats
        if len(self.teams) != n or sorted(set(self.teams)) != [0, 1]:
            raise ValueError("every seat needs a team, 0 or 1")
        seats = range(n)
        put = object.__setattr__
        played_by = self.played_by
        if played_by is None:
            owner = self.dummy_owner
            if self.dummy is not None and owner is None:
                raise ValueError("a dummy hand needs the seat whose player plays it")
            played_by = tuple(owner if s == self.dummy and owner is not None else s for s in seats)
            put(self, "played_by", played_by)
        if len(played_by) != n or any(played_by[played_by[s]] != played_by[s] for s in seats):
            raise ValueError("every seat's hand is played by the person of a seat he sits at first")
        put(self, "person_seats", tuple(s for s in seats if played_by[s] == s))
        put(self, "further_seats", tuple(s for s in seats if played_by[s] != s))
        put(self, "hands_with", tuple((played_by[s],) + tuple(t for t in seats if t != played_by[s]
                                                                and played_by[t] == played_by[s])
                                      for s in seats))
        put(self, "next_seat", tuple((s + 1) % n for s in seats))
        put(self, "partners", tuple(tuple((s + k) % n for k in range(1, n) if self.teams[(s + k) % n] == self.teams[s])
                                    for s in seats))
        put(self, "opponents", tuple(tuple((s + k) % n for k in range(1, n) if self.teams[(s + k) % n] != self.teams[s])
                                     for s in seats))
        put(self, "exchange_targets", tuple(tuple((s + k) % n for k in self.exchange_steps) for s in seats))
        put(self, "team_size", self.teams.count(0))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Copies and pickles of a named variant are that variant (they compare by identity)."""
        if VARIANTS.get(self.name) is self:
            return variant_named, (self.name,)
        return Variant, tuple(getattr(self, f.name) for f in fields(self) if f.init)

    # ------------------------------------------------------------------ people

    @property
    def players(self) -> int:
        """How many people play (a person of two hands is one; the dummy is no one)."""
        return len(self.person_seats)

    @property
    def four_player_round(self) -> bool:
        """Whether a round is the 4-player game's (Duo: only who plays which hand differs)."""
        return self.round_rules == NANJING.round_rules

    @property
    def round_rules(self) -> tuple[object, ...]:
        """The fields a `Round` plays by (who plays which hand, the game's length and options aside)."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.init and f.name not in _GAME_FIELDS)

    @property
    def title(self) -> str:
        return self.name.capitalize()

    def partner_of(self, seat: int) -> int:
        """The one partner of ``seat``; a variant with teams of three has two (`partners`)."""
        partners = self.partners[seat]
        if len(partners) != 1:
            raise ValueError(f"{self.name}: seat {seat + 1} has {len(partners)} partners")
        return partners[0]

    def team_seats(self, team: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.seats) if self.teams[s] == team)

    # ------------------------------------------------------------------ the deal

    def hand_sizes(self, dealer: int = 0) -> tuple[int, ...]:
        """Cards per seat in a round dealt by ``dealer`` (the extra cards go by `extra_card_offsets`)."""
        return _hand_sizes(self, dealer % self.seats)

    def deal_slices(self, dealer: int = 0) -> tuple[tuple[slice, slice], ...]:
        """Per seat: where its first cards (before Grand Tichu) and its last ones lie in a deal."""
        return _deal_slices(self, dealer % self.seats)

    def exchange_text(self) -> str:
        steps = ", ".join(_STEP_NAMES.get((self.seats, k), f"seat+{k}") for k in self.exchange_steps)
        return f"pass exactly {len(self.exchange_steps)} cards, in this order: {steps}"


#: The fields that concern the game or the people, not the rules of a round.
_GAME_FIELDS = frozenset({"name", "played_by", "per_player_scores", "target_score", "game_rounds",
                          "bsw_options"})

_STEP_NAMES = {(4, 1): "the right opponent", (4, 2): "the partner", (4, 3): "the left opponent",
               (6, 2): "the partner two seats on", (6, 4): "the partner four seats on"}


@cache
def _hand_sizes(variant: Variant, dealer: int) -> tuple[int, ...]:
    n = variant.seats
    sizes = [DECK_SIZE // n] * n
    for offset in variant.extra_card_offsets:
        sizes[(dealer + offset) % n] += 1
    if sum(sizes) != DECK_SIZE:
        raise ValueError(f"{variant.name}: the hands hold {sum(sizes)} cards, not {DECK_SIZE}")
    return tuple(sizes)


@cache
def _deal_slices(variant: Variant, dealer: int) -> tuple[tuple[slice, slice], ...]:
    """The first ``grand_after`` cards of every seat in seat order, then every seat's rest in seat order."""
    first = variant.grand_after
    n = variant.seats
    out, start = [], first * n
    for seat, size in enumerate(_hand_sizes(variant, dealer)):
        out.append((slice(first * seat, first * (seat + 1)), slice(start, start + size - first)))
        start += size - first
    return tuple(out)


#: The 4-player game (rules.md §§2-12): partners opposite, 8 + 6 cards, 3 cards exchanged.
NANJING = Variant(
    name="nanjing", seats=4, teams=(0, 1, 0, 1), grand_after=8, extra_card_offsets=(),
    grand_seats=(0, 1, 2, 3), exchange_steps=(1, 2, 3), dog_choice=False, sweep_points=200,
    tail_tricks_to_opponents=False, next_to_last_tricks_to_first=False, bsw_options=True)

#: Trichu (rules.md §17.2): four hands; seat 0 is the dealer, who also plays the dummy
#: opposite (seat 2).  The `Game` moves the people round by round so that the dealer
#: role passes on; per-player scores, a fixed number of rounds.
TRICHU = Variant(
    name="trichu", seats=4, teams=(0, 1, 0, 1), grand_after=8, extra_card_offsets=(),
    grand_seats=(1, 3), exchange_steps=(1, 3), dog_choice=False, sweep_points=200,
    tail_tricks_to_opponents=False, next_to_last_tricks_to_first=False,
    dummy=2, dummy_owner=0, per_player_scores=True, target_score=None, game_rounds=9)

#: Tientsin (rules.md §17.1): six seats, two alternating teams of three; 9 or 10 cards
#: (the dealer and the seat opposite him get 10), Grand Tichu after 6; one card to each
#: partner; the Dog's player chooses the partner; triple victory 300.
TIENTSIN = Variant(
    name="tientsin", seats=6, teams=(0, 1, 0, 1, 0, 1), grand_after=6, extra_card_offsets=(0, 3),
    grand_seats=(0, 1, 2, 3, 4, 5), exchange_steps=(2, 4), dog_choice=True, sweep_points=300,
    tail_tricks_to_opponents=True, next_to_last_tricks_to_first=True)

#: Two players (rules.md §17.3, the Würzburg form): the 4-player game, each person playing
#: both hands of a team (seat 0 and 2, seat 1 and 3), seeing both; scores per team are per person.
DUO = Variant(
    name="duo", seats=4, teams=(0, 1, 0, 1), grand_after=8, extra_card_offsets=(),
    grand_seats=(0, 1, 2, 3), exchange_steps=(1, 2, 3), dog_choice=False, sweep_points=200,
    tail_tricks_to_opponents=False, next_to_last_tricks_to_first=False, played_by=(0, 1, 0, 1))

VARIANTS: dict[str, Variant] = {v.name: v for v in (NANJING, TRICHU, TIENTSIN, DUO)}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` (any case); ValueError naming the ones there are."""
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; variants: {', '.join(VARIANTS)}") from None


__all__ = ["Variant", "NANJING", "TRICHU", "TIENTSIN", "DUO", "VARIANTS", "variant_named"]
