"""One round (one deal) of Tichu as a state machine, for any `Variant` (4-player by default).

`Round` is built from a deal (a permutation of the 56 cards) and moves only
through `apply`, which either changes the state and returns the events, or
raises an error and changes nothing.  `legal_actions(seat)` lists every action
the rules allow that seat now, and nothing else.  Replaying the same deal and
action list rebuilds the same state (`Round.replay`).

Phases: "grand" (8 cards each, Grand Tichu decisions), "exchange", "play",
"over".  Inside "play" the round may wait for a wish (after the Mahjong), a
Dragon gift, or (Tientsin) the Dog's player's choice of who leads; a trick everyone else passed on is *won but not collected* until
the next leader acts, so bombs can still come (rules.md R9.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations
from random import Random
from typing import Any, Callable, Iterator, Sequence

from .actions import (
    Action, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange, GiveDragon, MakeWish, Pass, Play, play_of,
)
from .cards import (
    DECK, DRAGON_CARD, MAHJONG_CARD, NATURAL, NATURAL_RANKS, PHOENIX_CARD, Card, card_points,
    cards_of, format_cards, rank_text, sort_cards,
)
from .combos import BOMB_TYPES, Combo, ComboType, HandIndex, classify, listed_plays, play_list, sorted_cards_of
from .errors import CardsNotHeld, IllegalActionError
from .events import (
    CardsDealt, CardsReceived, DogLeadChosen, DragonGiven, Event, ExchangeSubmitted, GrandDecided, PhaseStarted,
    Played, PlayerOut, Passed, RoundEnded, TichuCalled, TrickCollected, TrickWon, TurnStarted,
    WishFulfilled, WishMade,
)
from .variant import NANJING, Variant

GRAND, EXCHANGE, PLAY, OVER = "grand", "exchange", "play", "over"

_PHASE_STARTED = {phase: PhaseStarted(phase) for phase in (GRAND, EXCHANGE, PLAY)}
_MAHJONG_BIT, _PHOENIX_BIT, _DRAGON_BIT = MAHJONG_CARD.bit, PHOENIX_CARD.bit, DRAGON_CARD.bit
_DECK_IDS = frozenset(map(id, DECK))
_DOG = ComboType.DOG
TICHU_BONUS = 100
GRAND_BONUS = 200


def _not_held(cards: Sequence[Card]) -> CardsNotHeld:
    """The refusal of an action naming ``cards`` its seat does not hold (one sentence for all)."""
    return CardsNotHeld(f"you do not hold {format_cards(cards)}", list(cards))


class _SeatTables:
    """A variant's per-seat actions, events and neighbours, made once (actions and events are
    immutable values), so the hot paths index a tuple instead of building or computing them.

    One per variant and dealer, so that a `Round` holds its variant, dealer and deal
    layout in one attribute: a round has as few attributes as CPython shares the
    keys of (29), which keeps every attribute read in the hot paths fast.
    """

    __slots__ = ("variant", "dealer", "slices", "seats", "next_seat", "dog_to", "wish_binds", "call_tichu", "tichu_only",
                 "grand_choices", "pass_", "wishes", "gifts", "dog_leads", "passed", "grand_decided",
                 "tichu_called", "exchange_submitted", "turn_to", "to_lead", "to_follow", "trick_won")

    def __init__(self, v: Variant, dealer: int):
        seats = range(v.seats)
        self.variant = v
        self.dealer = dealer
        self.slices = v.deal_slices(dealer)
        self.seats = v.seats
        self.next_seat = v.next_seat  # next_active while nobody is out
        # Where the Dog sends the lead when its player does not choose: the one partner.
        self.dog_to = None if v.dog_choice else tuple(v.partner_of(s) for s in seats)
        self.wish_binds = tuple(s != v.dummy for s in seats)  # the dummy need not fulfil a wish
        self.call_tichu = tuple(CallTichu(s) for s in seats)
        self.tichu_only = tuple((call,) for call in self.call_tichu)
        self.grand_choices = tuple((CallGrand(s), DeclineGrand(s)) for s in seats)
        self.pass_ = tuple(Pass(s) for s in seats)
        self.wishes = tuple((MakeWish(s, None),) + tuple(MakeWish(s, r) for r in NATURAL_RANKS) for s in seats)
        self.gifts = tuple(tuple(GiveDragon(s, o) for o in v.opponents[s]) for s in seats)
        self.dog_leads = tuple(tuple(DogLead(s, p) for p in v.partners[s]) for s in seats)
        self.passed = tuple(Passed(s) for s in seats)
        self.grand_decided = tuple((GrandDecided(s, False), GrandDecided(s, True)) for s in seats)
        self.tichu_called = tuple((TichuCalled(s, grand=False), TichuCalled(s, grand=True)) for s in seats)
        self.exchange_submitted = tuple(ExchangeSubmitted(s) for s in seats)
        self.turn_to = {need: tuple(TurnStarted(s, need) for s in seats)
                        for need in ("lead", "follow", "wish", "give", "dog")}
        self.to_lead, self.to_follow = self.turn_to["lead"], self.turn_to["follow"]
        self.trick_won = tuple(tuple(TrickWon(s, leader) for leader in seats) for s in seats)


@cache
def _tables(variant: Variant, dealer: int) -> _SeatTables:
    return _SeatTables(variant, dealer)


def team_of(seat: int, variant: Variant = NANJING) -> int:
    """Team 0 is seats 0, 2, ... (people's seats 1, 3, ...); team 1 the others (`Variant.teams`)."""
    return variant.teams[seat]


def partner_of(seat: int, variant: Variant = NANJING) -> int:
    """The partner of ``seat`` where it has one (not in Tientsin: `Variant.partners`)."""
    return variant.partner_of(seat)


def seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def waits_for_seat(phase: str, decided: bool, exchanged: bool, waiting: int | None, seat: int) -> bool:
    """Whether a round waits for ``seat``: its Grand Tichu decision, its exchange, its turn.

    The one rule behind `Round.waits_for` and `RoundView.waits_for` (the server
    asks the round, a bot its view): ``decided`` and ``exchanged`` are the seat's,
    ``waiting`` the seat the play phase needs next.
    """
    if phase == GRAND:
        return not decided
    if phase == EXCHANGE:
        return not exchanged
    return phase == PLAY and waiting == seat


def trick_won(passes: int, out: int, owner_out: bool, seats: int = 4) -> bool:
    """Whether a trick is won: every seat still in but its owner passed since its last play.

    ``passes`` since that play (a seat passes at most once a trick), ``out`` the
    number of seats out of the round, ``owner_out`` whether the trick's owner is
    one of them, ``seats`` the variant's.  The one rule behind the round, the
    `.tch` recorder and the bots' playouts (rules.md R9).
    """
    return passes >= seats - 1 - out + owner_out


def double_victory(finish_order: Sequence[int], variant: Variant = NANJING) -> int | None:
    """The team whose players all went out first (a double victory; Tientsin's triple), else None."""
    size = variant.team_size
    if len(finish_order) >= size:
        teams = variant.teams
        team = teams[finish_order[0]]
        if all(teams[s] == team for s in finish_order[1:size]):
            return team
    return None


def round_over(finish_order: Sequence[int], variant: Variant = NANJING) -> bool:
    """Whether the round ends (R10.7, §17): a double (triple) victory, or all seats but one out."""
    return len(finish_order) >= variant.seats - 1 or double_victory(finish_order, variant) is not None


def round_points(finish_order: Sequence[int], bonuses: Sequence[int], taken: Sequence[int],
                 tail_hand: int, double_victory_points: int | None = None,
                 variant: Variant = NANJING) -> tuple[tuple[int, int], tuple[int, int], int | None]:
    """The tally of an ended round: (card points, call points, double victory's team or None), per team.

    ``finish_order`` the seats out in order (the round is over), ``bonuses`` each
    seat's call at stake (0, `TICHU_BONUS` or `GRAND_BONUS`: won by the first
    out, lost by everyone else), ``taken`` each seat's points in its tricks (the
    last trick collected), ``tail_hand`` the points left in the last seat's hand.
    A double victory scores ``double_victory_points`` (by default the variant's
    `sweep_points`) and no cards; otherwise the last seat's hand goes to the
    other team and his tricks to the first out (R10) or, in Tientsin, to the
    other team, and there the next-to-last seat's tricks go to the first out.
    The one tally behind the round and the bots' playouts.
    """
    teams = variant.teams
    first = finish_order[0] if finish_order else None
    calls = [0, 0]
    for seat, bonus in enumerate(bonuses):
        if bonus:
            calls[teams[seat]] += bonus if seat == first else -bonus
    cards = [0, 0]
    double = double_victory(finish_order, variant)
    if double is not None:
        cards[double] = variant.sweep_points if double_victory_points is None else double_victory_points
        return (cards[0], cards[1]), (calls[0], calls[1]), double
    tail = next(s for s in range(variant.seats) if s not in finish_order)
    fifth = finish_order[-1] if variant.next_to_last_tricks_to_first else None
    first_team = teams[finish_order[0]]  # an ended round without a double victory has someone out
    tail_team = 1 - teams[tail] if variant.tail_tricks_to_opponents else first_team
    for seat, points in enumerate(taken):
        cards[tail_team if seat == tail else first_team if seat == fifth else teams[seat]] += points
    cards[1 - teams[tail]] += tail_hand
    return (cards[0], cards[1]), (calls[0], calls[1]), None


@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what each team scores (index 0: seats 1+3(+5), index 1: seats 2+4(+6))."""

    finish_order: tuple[int, ...]
    double_victory: int | None  # the team that went out all first (Tientsin: triple victory), or None
    card_points: tuple[int, int]
    call_points: tuple[int, int]
    calls: tuple[str | None, ...]  # per seat: None, "tichu" or "grand"
    variant: Variant = NANJING

    @property
    def score(self) -> tuple[int, int]:
        return (self.card_points[0] + self.call_points[0], self.card_points[1] + self.call_points[1])

    @property
    def failed_call_teams(self) -> set[int]:
        first = self.finish_order[0] if self.finish_order else None
        return {self.variant.teams[s] for s, c in enumerate(self.calls) if c and s != first}

    def to_dict(self) -> dict[str, object]:
        return {"finish_order": list(self.finish_order), "double_victory": self.double_victory,
                "card_points": list(self.card_points), "call_points": list(self.call_points),
                "calls": list(self.calls), "score": list(self.score)}


@dataclass(frozen=True)
class RoundView:
    """What one seat (or, with ``seat`` None, a spectator) may know about the round."""

    seat: int | None
    phase: str
    hand: tuple[Card, ...] | None
    hand_counts: tuple[int, ...]
    calls: tuple[str | None, ...]
    grand_decided: tuple[bool, ...]
    exchange_submitted: tuple[bool, ...]
    top: Combo | None
    top_seat: int | None
    trick: tuple[tuple[int, Combo], ...]
    trick_won: bool
    turn: int | None
    need: str | None
    wish: int | None
    finish_order: tuple[int, ...]
    points_taken: tuple[int, ...]
    result: RoundResult | None
    variant: Variant = NANJING
    #: The dummy's hand (Trichu), where this view may see it: its owner's and the dummy's
    #: own view always, everyone's once the exchange is over; else None.
    open_hand: tuple[Card, ...] | None = None

    def waits_for(self, seat: int) -> bool:
        """Whether the round waits for ``seat`` (`waits_for_seat`); any seat's view shows it."""
        return waits_for_seat(self.phase, self.grand_decided[seat], self.exchange_submitted[seat],
                              self.turn, seat)

    def to_dict(self) -> dict[str, object]:
        from .events import _plain
        return {
            "seat": self.seat, "phase": self.phase,
            "hand": None if self.hand is None else [c.text for c in self.hand],
            "hand_counts": list(self.hand_counts), "calls": list(self.calls),
            "grand_decided": list(self.grand_decided),
            "exchange_submitted": list(self.exchange_submitted),
            "top": _plain(self.top) if self.top else None, "top_seat": self.top_seat,
            "trick": [{"seat": s, "combo": _plain(c)} for s, c in self.trick],
            "trick_won": self.trick_won, "turn": self.turn, "need": self.need,
            "wish": self.wish, "finish_order": list(self.finish_order),
            "points_taken": list(self.points_taken),
            "result": self.result.to_dict() if self.result else None,
            **({} if self.variant is NANJING else {
                "variant": self.variant.name,
                "open_hand": None if self.open_hand is None else [c.text for c in self.open_hand]}),
        }


class Round:
    """The state of one deal.  Build it with `deal_random`, `from_deal` or `replay`."""

    def __init__(self, deal: Sequence[Card], grand_tichu: bool = True, double_victory_points: int | None = None,
                 variant: Variant = NANJING, dealer: int = 0):
        """``dealer`` matters where the hands differ in size (Tientsin: `Variant.hand_sizes`)."""
        deal = tuple(deal)
        if len(deal) != 56 or set(map(id, deal)) != _DECK_IDS:  # the 56 cards are the only ones
            raise ValueError("a deal is an ordering of all 56 cards")
        if not 0 <= dealer < variant.seats:
            raise ValueError(f"the dealer is one of the {variant.seats} seats")
        n = variant.seats
        self.deal = deal
        self._t = _tables(variant, dealer)
        self.grand_tichu = grand_tichu
        self.double_victory_points = variant.sweep_points if double_victory_points is None else double_victory_points
        self.history: list[Action] = []
        self.hands: list[set[Card]] = [set() for _ in range(n)]
        self.calls: list[str | None] = [None] * n
        self.grand_decided = [not grand_tichu or s not in variant.grand_seats for s in range(n)]
        self.exchanges: list[tuple[Card, ...] | None] = [None] * n
        self.played_any = [False] * n
        self.finish_order: list[int] = []
        self.piles: list[list[Card]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, Combo]] = []
        self.trick_cards: list[Card] = []
        self.loose_cards: list[Card] = []  # the Dog, waiting for the next trick's winner
        self.top: Combo | None = None
        self.top_seat: int | None = None
        self.turn: int | None = None
        self.passes = 0  # passes since the last play: each seat passes at most once a trick
        self.trick_won = False
        self.wish: int | None = None
        self.wish_pending_seat: int | None = None
        self.gift_pending_seat: int | None = None
        self.dog_pending_seat: int | None = None  # Tientsin: the Dog's player, choosing who leads
        self.result: RoundResult | None = None
        self.ending = False  # the round has ended but for the last trick's Dragon gift
        # Per seat: (the hand set it was built from, its HandIndex), until the hand changes.
        self._indexes: list[tuple[set[Card], HandIndex] | None] = [None] * n
        self.opening_events: list[Event] = []
        # A seat that decides about Grand Tichu sees its first cards; the others (all under
        # `grand_tichu=False`; Trichu's dealer and dummy) get their whole hand at once.
        for seat, (first, last) in enumerate(self._t.slices):
            cards = deal[first] if not self.grand_decided[seat] else deal[first] + deal[last]
            self.hands[seat] = set(cards)
            self.opening_events.append(CardsDealt(seat, tuple(sort_cards(cards))))
        self.phase = GRAND if not all(self.grand_decided) else EXCHANGE
        self.opening_events.append(_PHASE_STARTED[self.phase])

    # ------------------------------------------------------------------ building

    @classmethod
    def deal_random(cls, rng: Random, **options: Any) -> "Round":
        """A round dealt by shuffling with the injected random generator."""
        deal = list(DECK)
        rng.shuffle(deal)
        return cls(deal, **options)

    @classmethod
    def from_deal(cls, deal: Sequence[Card], **options: Any) -> "Round":
        return cls(deal, **options)

    @classmethod
    def replay(cls, deal: Sequence[Card], actions: Sequence[Action], **options: Any) -> "Round":
        """Rebuild a round from its deal and action list (raises on the first illegal action)."""
        rnd = cls(deal, **options)
        for action in actions:
            rnd.apply(action)
        return rnd

    def _last_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` gets after its Grand Tichu decision (6 in the 4-player game)."""
        return self.deal[self._t.slices[seat][1]]

    @property
    def variant(self) -> Variant:
        return self._t.variant

    @property
    def dealer(self) -> int:
        return self._t.dealer

    # ------------------------------------------------------------------ queries

    def next_active(self, seat: int) -> int:
        following = self._t.next_seat
        finish_order = self.finish_order
        s = seat
        for _ in following:
            s = following[s]
            if s not in finish_order:
                return s
        raise AssertionError("no active player left")

    @property
    def leader(self) -> int | None:
        """Who leads next while a won trick waits to be collected."""
        if not self.trick_won:
            return None
        owner = self.top_seat
        return owner if owner not in self.finish_order else self.next_active(owner)

    def can_call_tichu(self, seat: int) -> bool:
        if self.phase == OVER or self.calls[seat] or self.played_any[seat]:
            return False
        if self.phase == GRAND and not self.grand_decided[seat]:
            return False  # a normal Tichu needs the whole hand (rules.md R4.5)
        return self.gift_pending_seat is None or not self.ending

    @property
    def need(self) -> str | None:
        """What the round waits for: "wish", "give", "dog", "lead", "follow", or None outside play."""
        if self.phase != PLAY:
            return None
        if self.wish_pending_seat is not None:
            return "wish"
        if self.gift_pending_seat is not None:
            return "give"
        if self.dog_pending_seat is not None:
            return "dog"
        if self.top is None or self.trick_won:
            return "lead"
        return "follow"

    @property
    def waiting_for(self) -> int | None:
        """The seat whose action the round needs next (in play), else None."""
        need = self.need
        if need == "wish":
            return self.wish_pending_seat
        if need == "give":
            return self.gift_pending_seat
        if need == "dog":
            return self.dog_pending_seat
        if need in ("lead", "follow"):
            return self.leader if self.trick_won else self.turn
        return None

    def waits_for(self, seat: int) -> bool:
        """Whether the round waits for ``seat``: its Grand Tichu decision, its exchange, its turn."""
        return waits_for_seat(self.phase, self.grand_decided[seat], self.exchanges[seat] is not None,
                              self.waiting_for, seat)

    def wish_binds(self, seat: int) -> bool:
        """Whether the wish binds ``seat`` at its regular turn now (rules.md R8.1.3)."""
        w = self.wish
        if w is None or self.phase != PLAY or not self._t.wish_binds[seat]:
            return False
        hand = self.hands[seat]
        if not any(c.rank == w and c.kind == NATURAL for c in hand):
            return False
        if self._leading(seat):
            return True
        return any(c.contains_rank(w) for c in play_list(self._index(seat), self.top))

    def _index(self, seat: int) -> HandIndex:
        """The seat's hand as masks for play generation; kept until the hand changes."""
        hand = self.hands[seat]
        entry = self._indexes[seat]
        if entry is None or entry[0] is not hand:  # none yet, or the hand set was replaced
            entry = self._indexes[seat] = (hand, HandIndex(hand))
        return entry[1]

    def _leading(self, seat: int) -> bool:
        if self.trick_won:
            return seat == self.leader
        return self.top is None and seat == self.turn

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now.  Exchanges are many (2184): see `iter_legal_actions`.

        Order: Tichu, then the phase's actions; in play the wish or the Dragon
        gift, or bombs that take over a won trick, the pass, then the plays in
        the order of `plays`.
        """
        return list(self.iter_legal_actions(seat))

    def iter_legal_actions(self, seat: int) -> Iterator[Action]:
        """`legal_actions` as an iterator, lazy where it matters: the exchange's 2184 options.

        The legal actions are worked out here (a simulating bot asks for all
        four seats' at every step); in play the list is built at once.  The
        commonest question comes first: a seat the play phase does not wait
        for, with nothing pending (``turn`` is then the seat to act, the next
        leader of a won trick included), may call Tichu before its first card
        and bomb a trick on the table.
        """
        if self.phase != PLAY:
            return self._iter_setup_actions(seat)
        if seat != self.turn and self.wish_pending_seat is None and self.gift_pending_seat is None:
            tichu = not self.calls[seat] and not self.played_any[seat]
            top = self.top
            if top is not None:
                entry = self._indexes[seat]
                index = entry[1] if entry is not None and entry[0] is self.hands[seat] else self._index(seat)
                found = index._bombs
                if found is None:
                    found = index.bombs()
                if found:
                    out: list[Action] = [self._t.call_tichu[seat]] if tichu else []
                    out += listed_plays(seat, [b for b in found if b.beats(top)])
                    return iter(out)
            return iter(self._t.tichu_only[seat] if tichu else ())
        # can_call_tichu, as it reads in the play phase
        t = self._t
        out = ([t.call_tichu[seat]] if not self.calls[seat] and not self.played_any[seat]
               and (self.gift_pending_seat is None or not self.ending) else [])
        if (self.wish_pending_seat is not None or self.gift_pending_seat is not None
                or self.dog_pending_seat is not None):
            self._add_waiting_options(seat, out)
            return iter(out)
        if seat in self.finish_order:
            return iter(out)
        top = self.top
        if top is None or self.trick_won:  # seat leads (it is the turn)
            self._add_leads(seat, out)
            return iter(out)
        entry = self._indexes[seat]
        index = entry[1] if entry is not None and entry[0] is self.hands[seat] else self._index(seat)
        options = play_list(index, top)
        wish = self.wish
        if (wish is not None and index.nibble(wish) and t.wish_binds[seat]
                and any(c.contains_rank(wish) for c in options)):  # the wish binds (R8.1.3)
            options = [c for c in options if c.is_bomb or c.contains_rank(wish)]
        else:
            out.append(t.pass_[seat])
        out += listed_plays(seat, options)
        return iter(out)


    def _add_leads(self, seat: int, out: list[Action]) -> None:
        """The plays of ``seat``, who leads now (with the bombs that take a won trick first)."""
        options = play_list(self._index(seat), None)
        if self.wish is not None and self.wish_binds(seat):
            wish = self.wish
            options = [c for c in options if c.contains_rank(wish)]
        if self.trick_won and seat != self.top_seat:
            # He leads after a trick won by a player who is out: his bombs that beat
            # it go onto it, as anyone else's would (R9.6); his other plays are his
            # lead, which hands the trick to its out winner.
            taking = self._bombs_beating(seat)
            out += listed_plays(seat, taking)
            options = [c for c in options if c not in taking]
        out += listed_plays(seat, options)

    def _add_waiting_options(self, seat: int, out: list[Action]) -> None:
        """While the round waits for a wish, the Dragon gift or the Dog's choice of who leads."""
        if self.wish_pending_seat is not None:
            if seat == self.wish_pending_seat:
                out += self._t.wishes[seat]
            return
        if self.dog_pending_seat is not None:  # an empty table: nothing to bomb
            if seat == self.dog_pending_seat:
                out += self._t.dog_leads[seat]
            return
        if seat == self.gift_pending_seat:
            out += self._t.gifts[seat]
        if not self.ending and seat not in self.finish_order:
            out += listed_plays(seat, self._bombs_beating(seat))

    def _iter_setup_actions(self, seat: int) -> Iterator[Action]:
        if self.phase == GRAND:  # Tichu only once Grand Tichu is decided (can_call_tichu)
            if not self.grand_decided[seat]:
                return iter(self._t.grand_choices[seat])
            return iter(() if self.calls[seat] else (self._t.call_tichu[seat],))
        return self._iter_exchange_actions(seat)

    def _iter_exchange_actions(self, seat: int) -> Iterator[Action]:
        """Tichu and the exchanges (2184 trios in the 4-player game) while the seat has not passed its cards."""
        if self.phase == OVER:
            return
        if self.can_call_tichu(seat):
            yield self._t.call_tichu[seat]
        if self.exchanges[seat] is None:
            for cards in permutations(sort_cards(self.hands[seat]), len(self.variant.exchange_steps)):
                yield Exchange(seat, cards)

    def _bombs_beating(self, seat: int) -> list[Combo]:
        found = self._index(seat).bombs()
        if not found:
            return found
        top = self.top
        return [b for b in found if b.beats(top)]

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Event]:
        """Apply one action: returns the events, or raises and leaves the state unchanged."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(f"{action!r} is not a Tichu action")
        if not 0 <= action.seat < self._t.seats:
            raise IllegalActionError(f"seats are 1 to {self._t.seats}")
        if self.phase == OVER:
            raise IllegalActionError("the round is over")
        return handler(self, action)  # a handler records the action once it has validated it


    def is_legal(self, action: Action) -> bool:
        """Whether `apply` would accept ``action`` (checked on a copy)."""
        try:
            self.copy().apply(action)
        except IllegalActionError:
            return False
        return True

    def copy(self) -> "Round":
        """An independent copy of the state, made field by field (no replay).

        Values (cards, combos, actions, events, results) are immutable and
        shared; the containers are copied.  The cost is bounded by the 56 cards
        and the round's action list, which is copied as one list.
        """
        other = Round.__new__(Round)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.hands = [set(h) for h in self.hands]
        other.calls = list(self.calls)
        other.grand_decided = list(self.grand_decided)
        other.exchanges = list(self.exchanges)
        other.played_any = list(self.played_any)
        other.finish_order = list(self.finish_order)
        other.piles = [list(p) for p in self.piles]
        other.trick = list(self.trick)
        other.trick_cards = list(self.trick_cards)
        other.loose_cards = list(self.loose_cards)
        other.opening_events = list(self.opening_events)
        other._indexes = [  # a hand index is immutable: the copy's equal hands share it
            None if entry is None or entry[0] is not hand else (copied, entry[1])
            for entry, hand, copied in zip(self._indexes, self.hands, other.hands)]
        return other

    # Each handler validates completely before it changes anything.

    def _do_grand(self, action: CallGrand | DeclineGrand) -> list[Event]:
        seat = action.seat
        if self.phase != GRAND:
            raise IllegalActionError("Grand Tichu can only be called right after the first 8 cards"
                                     + (" (not in a tournament)" if not self.grand_tichu else ""))
        if self.grand_decided[seat]:
            if seat not in self.variant.grand_seats:
                raise IllegalActionError(f"in {self.variant.title} the dealer and the dummy cannot call Grand Tichu")
            raise IllegalActionError("you have already decided about Grand Tichu")
        called = isinstance(action, CallGrand)
        self.history.append(action)
        self.grand_decided[seat] = True
        events: list[Event] = [self._t.grand_decided[seat][called]]
        if called:
            self.calls[seat] = "grand"
            events.append(self._t.tichu_called[seat][True])
        rest = self._last_cards(seat)
        self.hands[seat].update(rest)
        events.append(CardsDealt(seat, tuple(sort_cards(rest))))
        if all(self.grand_decided):
            self.phase = EXCHANGE
            events.append(_PHASE_STARTED[EXCHANGE])
        return events

    def _do_tichu(self, action: CallTichu) -> list[Event]:
        seat = action.seat
        if self.calls[seat] == "grand":
            raise IllegalActionError("you have already called Grand Tichu")
        if self.calls[seat]:
            raise IllegalActionError("you have already called Tichu")
        if self.played_any[seat]:
            raise IllegalActionError("Tichu can only be called before your first card is played")
        if not self.can_call_tichu(seat):
            raise IllegalActionError("decide about Grand Tichu first: Tichu needs all 14 cards")
        self.history.append(action)
        self.calls[seat] = "tichu"
        return [self._t.tichu_called[seat][False]]

    def _do_exchange(self, action: Exchange) -> list[Event]:
        seat = action.seat
        if self.phase != EXCHANGE:
            raise IllegalActionError("the exchange is not now" if self.phase != GRAND
                                     else "first decide about Grand Tichu; the exchange comes next")
        if self.exchanges[seat] is not None:
            raise IllegalActionError("you have already passed your cards (it cannot be changed)")
        cards = tuple(action.cards)
        count = len(self.variant.exchange_steps)
        if len(cards) != count:
            raise IllegalActionError(self.variant.exchange_text())
        if len(set(cards)) != count:
            raise IllegalActionError(f"pass {count} different cards")
        missing = [c for c in cards if c not in self.hands[seat]]
        if missing:
            raise _not_held(missing)
        self.history.append(action if cards is action.cards else Exchange(seat, cards))
        self.exchanges[seat] = cards
        events: list[Event] = [self._t.exchange_submitted[seat]]
        if all(e is not None for e in self.exchanges):
            seats = range(self._t.seats)
            received: list[dict[int, Card]] = [{} for _ in seats]
            for giver, given in enumerate(self.exchanges):
                for to, c in zip(self.variant.exchange_targets[giver], given):  # type: ignore[arg-type]  # all given: checked above
                    self.hands[giver].discard(c)
                    received[to][giver] = c
            for s in seats:
                self.hands[s].update(received[s].values())
                events.append(CardsReceived(s, received[s]))
            self.phase = PLAY
            self._indexes = [None] * self._t.seats
            self.turn = next(s for s in seats if MAHJONG_CARD in self.hands[s])
            events.append(_PHASE_STARTED[PLAY])
            events.append(self._t.to_lead[self.turn])
        return events

    def _check_play_phase(self, seat: int) -> None:
        if self.phase != PLAY:
            raise IllegalActionError({GRAND: "first decide about Grand Tichu (grand or nogrand)",
                                      EXCHANGE: f"first pass your {len(self.variant.exchange_steps)} cards (exchange)"
                                      }[self.phase])
        if self.wish_pending_seat is not None:
            who = "you" if seat == self.wish_pending_seat else seat_name(self.wish_pending_seat)
            raise IllegalActionError(f"waiting for {who} to make the wish (/wish RANK or /wish none)")
        if self.dog_pending_seat is not None:
            who = "you" if seat == self.dog_pending_seat else seat_name(self.dog_pending_seat)
            raise IllegalActionError(f"waiting for {who} to choose the partner who leads after the Dog (/dog SEAT)")

    def _do_play(self, action: Play) -> list[Event]:
        seat = action.seat
        if self.phase != PLAY or self.wish_pending_seat is not None:
            self._check_play_phase(seat)
        if seat in self.finish_order:
            raise IllegalActionError("you are out of this round")
        hand = self.hands[seat]
        combo = action.combo if type(action) is Play else None
        if combo is None:  # a play typed or built outside the engine: classify it
            if not action.cards <= hand:
                missing = [c for c in action.cards if c not in hand]
                raise _not_held(missing)
            combo = classify(action.cards, action.phoenix_as)
        else:  # a listed play: its mask against the hand's
            entry = self._indexes[seat]
            missing = combo.mask & ~(entry[1].mask if entry is not None and entry[0] is hand
                                     else self._index(seat).mask)  # kept: the play updates it
            if missing:
                raise _not_held(cards_of(missing))
        if self.gift_pending_seat is not None:
            if self.ending:
                raise IllegalActionError("the round is over: only the Dragon gift remains")
            if not combo.is_bomb:
                raise IllegalActionError(
                    f"waiting for {seat_name(self.gift_pending_seat)} to give the Dragon trick; only a bomb may come now")
            return self._play_bomb_onto(seat, combo, action)
        top = self.top
        if self.trick_won:
            if seat == self.leader:
                if seat != self.top_seat and combo.type in BOMB_TYPES and combo.beats(top):
                    return self._play_bomb_onto(seat, combo, action)  # onto the out winner's trick (R9.6)
                return self._lead(seat, combo, action)
            if combo.type not in BOMB_TYPES:
                raise IllegalActionError(
                    f"the trick is won; {seat_name(self.leader)} leads next, only a bomb may come now")  # type: ignore[arg-type]  # a won trick has a leader
            return self._play_bomb_onto(seat, combo, action)
        if top is None:
            if seat == self.turn:
                return self._lead(seat, combo, action)
            raise IllegalActionError(
                f"it is {seat_name(self.turn)}'s lead; nobody may bomb an empty table")  # type: ignore[arg-type]  # in play someone has the turn
        if seat != self.turn:
            if combo.type not in BOMB_TYPES:
                raise IllegalActionError(f"not your turn: {seat_name(self.turn)} plays; out of turn only a bomb may come")  # type: ignore[arg-type]  # in play someone has the turn
            return self._play_bomb_onto(seat, combo, action)
        placed = combo if combo.mask != _PHOENIX_BIT else combo.played_over(top)
        if not placed.beats(top):
            raise IllegalActionError(self._why_not_beating(placed, top))
        if (self.wish is not None and self.wish_binds(seat) and combo.type not in BOMB_TYPES
                and not combo.contains_rank(self.wish)):
            raise IllegalActionError(
                f"you must fulfil the wish for {rank_text(self.wish)}: play a combination with a "
                f"{rank_text(self.wish)} that beats the table, or a bomb")
        return self._place(seat, placed, False, action)

    def _why_not_beating(self, combo: Combo, top: Combo) -> str:
        if top.is_bomb:
            return f"{combo.describe()} does not beat the {top.describe()}; only a higher bomb does"
        if combo.type is ComboType.DOG:
            return "the Dog can only be led"
        if combo.type is not top.type or combo.length != top.length:
            return (f"the table holds a {top.length}-card {top.type.value} ({top.describe()}); "
                    f"play a higher one of the same kind and length, a bomb, or pass")
        if top.type is ComboType.SINGLE and top.cards == {DRAGON_CARD}:
            if combo.cards == {PHOENIX_CARD}:
                return "the Phoenix cannot be played on the Dragon; only a bomb beats it"
            return "nothing beats the Dragon but a bomb"
        return f"{combo.describe()} does not beat {top.describe()}"

    def _play_bomb_onto(self, seat: int, combo: Combo, action: Play) -> list[Event]:
        top = self.top
        if not combo.beats(top):
            assert top is not None  # nothing to bomb onto is refused before (a refusal, not a hot path)
            raise IllegalActionError(self._why_not_beating(combo, top))
        return self._place(seat, combo, seat != self.turn or self.trick_won or self.gift_pending_seat is not None,
                           action)

    def _lead(self, seat: int, combo: Combo, action: Play) -> list[Event]:
        if self.dog_pending_seat is not None:
            self._check_play_phase(seat)
        if self.wish is not None and self.wish_binds(seat) and not combo.contains_rank(self.wish):
            raise IllegalActionError(
                f"you must fulfil the wish for {rank_text(self.wish)}: lead a combination with a {rank_text(self.wish)}")
        events = self._collect() if self.trick_won else []
        if combo.mask == _PHOENIX_BIT:
            combo = combo.played_over(None)
        events += self._place(seat, combo, False, action)
        return events

    def _place(self, seat: int, combo: Combo, out_of_turn: bool, action: Play) -> list[Event]:
        """Put a validated combo on the table and run the going-out and end checks.

        The history records ``action`` itself when it is the listed play of
        ``combo`` (the resolved reading), else the play of ``combo``.
        """
        self.history.append(action if action.combo is combo else play_of(seat, combo))
        mask = combo.mask
        cards = sorted_cards_of(mask)  # a fixed order: replays rebuild equal piles
        hand = self.hands[seat]
        entry = self._indexes[seat]
        hand.difference_update(cards)
        if entry is not None and entry[0] is hand:  # the new hand's index from the old one's mask
            old = entry[1]
            index = HandIndex(old.mask & ~mask)
            if old._bombs == []:
                index._bombs = []  # fewer cards make no bomb
            self._indexes[seat] = (hand, index)
        else:
            self._indexes[seat] = None
        self.played_any[seat] = True
        self.trick.append((seat, combo))
        self.trick_cards += cards
        self.top, self.top_seat = combo, seat
        self.passes = 0
        self.trick_won = False
        self.gift_pending_seat = None
        events: list[Event] = [Played(seat, combo, out_of_turn, len(hand))]
        if self.wish is not None and combo.contains_rank(self.wish):
            events.append(WishFulfilled(seat, self.wish))
            self.wish = None
        if not hand:
            self.finish_order.append(seat)
            events.append(PlayerOut(seat, len(self.finish_order)))
            if round_over(self.finish_order, self.variant):
                return events + self._end_round()
        if mask & _MAHJONG_BIT:
            self.wish_pending_seat = seat
            self.turn = self.next_active(seat)
            events.append(self._t.turn_to["wish"][seat])
            return events
        if combo.type is _DOG:
            self.loose_cards.extend(self.trick_cards)
            self.trick, self.trick_cards = [], []
            self.top = self.top_seat = None
            return events + self._dog_sends_lead(seat)
        t = self._t
        self.turn = turn = self.next_active(seat) if self.finish_order else t.next_seat[seat]
        events.append(t.to_follow[turn])
        return events

    def _dog_lead(self, partner: int) -> int:
        """Who leads after the Dog sent the lead to ``partner``: he, or the next one in after him (R8.3.2)."""
        return partner if partner not in self.finish_order else self.next_active(partner)

    def _dog_sends_lead(self, seat: int) -> list[Event]:
        """The lead after ``seat``'s Dog: to the partner, or (Tientsin) the one ``seat`` chooses.

        The choice waits (``need`` "dog") only when the two partners would give
        different leaders (docs/rules.md, Tientsin).
        """
        dog_to = self._t.dog_to
        if dog_to is not None:
            self.turn = self._dog_lead(dog_to[seat])
            return [self._t.to_lead[self.turn]]
        leaders = {self._dog_lead(p) for p in self.variant.partners[seat]}
        if len(leaders) == 1:
            self.turn = leaders.pop()
            return [self._t.to_lead[self.turn]]
        self.dog_pending_seat = self.turn = seat
        return [self._t.turn_to["dog"][seat]]

    def _do_dog_lead(self, action: DogLead) -> list[Event]:
        seat = action.seat
        if self.dog_pending_seat is None:
            raise IllegalActionError("there is no Dog lead to choose: choose right after leading the Dog")
        if seat != self.dog_pending_seat:
            raise IllegalActionError(f"only {seat_name(self.dog_pending_seat)}, who led the Dog, chooses who leads")
        partners = self.variant.partners[seat]
        if action.to not in partners:
            raise IllegalActionError("the Dog sends the lead to a partner: "
                                     + " or ".join(seat_name(p) for p in partners))
        self.history.append(action)
        self.dog_pending_seat = None
        self.turn = leader = self._dog_lead(action.to)
        return [DogLeadChosen(seat, action.to, leader), self._t.to_lead[leader]]

    def _do_pass(self, action: Pass) -> list[Event]:
        seat = action.seat
        if (seat != self.turn or self.top is None or self.trick_won or self.phase != PLAY
                or self.wish_pending_seat is not None or self.gift_pending_seat is not None
                or self.wish is not None or seat in self.finish_order):
            self._check_pass(seat)  # raises unless the pass is allowed after all
        self.history.append(action)
        passes = self.passes = self.passes + 1
        finish_order = self.finish_order
        # Seats that have passed are still in and not the trick's owner: all its
        # opponents and partner have passed when they number the active seats but him.
        if trick_won(passes, len(finish_order), self.top_seat in finish_order, self._t.seats):
            self.trick_won = True
            leader = self.leader
            self.turn = leader
            t = self._t
            events: list[Event] = [t.passed[seat], t.trick_won[self.top_seat][leader]]  # type: ignore[index]  # a won trick has its top seat and leader
            if self.top.mask == _DRAGON_BIT:  # type: ignore[union-attr]  # a won trick has its top
                self.gift_pending_seat = self.top_seat
                events.append(t.turn_to["give"][self.top_seat])  # type: ignore[index]  # a won trick has its top seat and leader
            else:
                events.append(t.to_lead[leader])  # type: ignore[index]  # a won trick has its top seat and leader
            return events
        t = self._t
        self.turn = turn = self.next_active(seat) if finish_order else t.next_seat[seat]
        return [t.passed[seat], t.to_follow[turn]]

    def _check_pass(self, seat: int) -> None:
        """Raise the reason a pass by ``seat`` is refused, checked in the rules' order."""
        self._check_play_phase(seat)
        if seat in self.finish_order:
            raise IllegalActionError("you are out of this round")
        if self.gift_pending_seat is not None:
            raise IllegalActionError(f"waiting for {seat_name(self.gift_pending_seat)} to give the Dragon trick")
        if self.dog_pending_seat is not None:
            raise IllegalActionError(f"waiting for {seat_name(self.dog_pending_seat)} to choose who leads after the Dog")
        if self._leading(seat):
            raise IllegalActionError("you have the lead and cannot pass: play any combination")
        if self.top is None or self.trick_won or seat != self.turn:
            who = self.leader if self.trick_won else self.turn
            raise IllegalActionError(f"not your turn: {seat_name(who)} is to play")  # type: ignore[arg-type]  # in play someone leads or has the turn
        if self.wish_binds(seat):
            raise IllegalActionError(
                f"you cannot pass: you must fulfil the wish for {rank_text(self.wish)} (or bomb)")  # type: ignore[arg-type]  # a binding wish has a rank

    def _collect(self, to: int | None = None) -> list[Event]:
        """Move the trick (and a waiting Dog) into a pile: the winner's, or ``to``'s."""
        winner: int = self.top_seat  # type: ignore[assignment]  # only a trick with a top is collected
        receiver = winner if to is None else to
        cards = self.trick_cards + self.loose_cards
        self.piles[receiver].extend(cards)
        points = card_points(cards)
        self.trick, self.trick_cards, self.loose_cards = [], [], []
        self.top = self.top_seat = None
        self.trick_won = False
        self.passes = 0
        return [TrickCollected(winner, receiver, points)]

    def _do_wish(self, action: MakeWish) -> list[Event]:
        seat = action.seat
        if self.wish_pending_seat is None:
            raise IllegalActionError("there is no wish to make: wish only right after playing the Mahjong")
        if seat != self.wish_pending_seat:
            raise IllegalActionError(f"only {seat_name(self.wish_pending_seat)}, who played the Mahjong, makes the wish")
        if action.rank is not None and action.rank not in NATURAL_RANKS:
            raise IllegalActionError("wish a rank from 2 to A (2-9, T, J, Q, K, A), or none")
        self.history.append(action)
        self.wish_pending_seat = None
        self.wish = action.rank
        events: list[Event] = [WishMade(seat, action.rank)]
        events.append(self._t.to_follow[self.turn])  # type: ignore[index]  # the Mahjong's play gave the turn on
        return events

    def _do_give(self, action: GiveDragon) -> list[Event]:
        seat = action.seat
        if self.gift_pending_seat is None:
            raise IllegalActionError("there is no Dragon trick to give")
        if seat != self.gift_pending_seat:
            raise IllegalActionError(f"only {seat_name(self.gift_pending_seat)}, who won with the Dragon, gives it away")
        opponents = self.variant.opponents[seat]
        if action.to not in opponents:
            raise IllegalActionError(
                "give the Dragon trick to an opponent: " + " or ".join(seat_name(o) for o in opponents))
        self.history.append(action)
        self.gift_pending_seat = None
        points = card_points(self.trick_cards + self.loose_cards)
        events: list[Event] = [DragonGiven(seat, action.to, points)]
        events += self._collect(to=action.to)
        if self.ending:
            return events + self._finish()
        self.turn = seat if seat not in self.finish_order else self.next_active(seat)
        events.append(self._t.to_lead[self.turn])
        return events

    # ------------------------------------------------------------------ the end

    def _end_round(self) -> list[Event]:
        """The round ends now (R10.7): settle the open trick, then score."""
        if double_victory(self.finish_order, self.variant) is not None:
            return self._finish()
        self.ending = True
        if self.top is not None and self.top.mask == DRAGON_CARD.bit:
            self.gift_pending_seat = self.top_seat
            return [self._t.turn_to["give"][self.top_seat]]  # type: ignore[index]  # a top has its seat
        return self._collect() + self._finish()

    def _finish(self) -> list[Event]:
        f = self.finish_order
        bonuses = [GRAND_BONUS if call == "grand" else TICHU_BONUS if call else 0 for call in self.calls]
        v = self.variant
        tail = next(s for s in range(v.seats) if s not in f)  # first of those still in
        cards, calls, double = round_points(
            f, bonuses, [card_points(p) for p in self.piles], card_points(self.hands[tail]),
            self.double_victory_points, v)
        if double is None:  # the tricks that change hands, as round_points counts them
            if v.next_to_last_tricks_to_first:
                self.piles[f[0]].extend(self.piles[f[-1]])
                self.piles[f[-1]] = []
            if not v.tail_tricks_to_opponents:
                self.piles[f[0]].extend(self.piles[tail])
                self.piles[tail] = []
            f.append(tail)
        self.phase = OVER
        self.turn = None
        self.gift_pending_seat = None
        self.result = RoundResult(tuple(f), double, cards, calls, tuple(self.calls), v)
        return [RoundEnded(self.result)]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> RoundView:
        """What ``seat`` may see (its own hand, the dummy's where open); None gives the spectators' view."""
        hand = None if seat is None else tuple(sort_cards(self.hands[seat]))
        dummy = self.variant.dummy
        open_hand = None
        if dummy is not None and (self.phase in (PLAY, OVER) or seat in (dummy, self.variant.dummy_owner)):
            open_hand = tuple(sort_cards(self.hands[dummy]))
        return RoundView(
            seat=seat, phase=self.phase, hand=hand,
            hand_counts=tuple(len(h) for h in self.hands), calls=tuple(self.calls),
            grand_decided=tuple(self.grand_decided),
            exchange_submitted=tuple(e is not None for e in self.exchanges),
            top=self.top, top_seat=self.top_seat, trick=tuple(self.trick),
            trick_won=self.trick_won, turn=self.waiting_for, need=self.need, wish=self.wish,
            finish_order=tuple(self.finish_order),
            points_taken=tuple(card_points(p) for p in self.piles), result=self.result,
            variant=self.variant, open_hand=open_hand,
        )

    def all_cards(self) -> list[Card]:
        """Every card wherever it is (hands, table, piles); for invariant checks."""
        out = [c for h in self.hands for c in h] + self.trick_cards + self.loose_cards
        return out + [c for p in self.piles for c in p] + [
            c for s in range(self._t.seats) if self.phase == GRAND and not self.grand_decided[s]
            for c in self._last_cards(s)]


#: Each action type's handler in `Round.apply`.
_HANDLERS: dict[type[Action], Callable[[Round, Any], list[Event]]] = {
    CallGrand: Round._do_grand, DeclineGrand: Round._do_grand, CallTichu: Round._do_tichu,
    Exchange: Round._do_exchange, Play: Round._do_play, Pass: Round._do_pass, MakeWish: Round._do_wish,
    GiveDragon: Round._do_give, DogLead: Round._do_dog_lead,
}

__all__ = ["Round", "RoundResult", "RoundView", "team_of", "partner_of", "waits_for_seat", "trick_won",
           "double_victory", "round_over", "round_points", "GRAND", "EXCHANGE", "PLAY", "OVER"]
