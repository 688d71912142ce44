"""One round (one deal) of 4-player Tichu as a state machine.

`Round` is built from a deal (a permutation of the 56 cards) and moves only
through `apply`, which either changes the state and returns the events, or
raises an error and changes nothing.  `legal_actions(seat)` lists every action
the rules allow that seat now, and nothing else.  Replaying the same deal and
action list rebuilds the same state (`Round.replay`).

Phases: "grand" (8 cards each, Grand Tichu decisions), "exchange", "play",
"over".  Inside "play" the round may wait for a wish (after the Mahjong) or a
Dragon gift; a trick everyone else passed on is *won but not collected* until
the next leader acts, so bombs can still come (rules.md R9.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from random import Random
from typing import Iterator, Sequence

from .actions import (
    Action, CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, play_of,
)
from .cards import (
    DECK, DRAGON_CARD, MAHJONG_CARD, NATURAL, NATURAL_RANKS, PHOENIX_CARD, Card, card_points,
    cards_of, format_cards, rank_text, sort_cards,
)
from .combos import BOMB_TYPES, Combo, ComboType, HandIndex, classify, listed_plays, play_list, sorted_cards_of
from .deal import first_cards, last_cards
from .errors import IllegalActionError
from .events import (
    CardsDealt, CardsReceived, DragonGiven, Event, ExchangeSubmitted, GrandDecided, PhaseStarted,
    Played, PlayerOut, Passed, RoundEnded, TichuCalled, TrickCollected, TrickWon, TurnStarted,
    WishFulfilled, WishMade,
)

GRAND, EXCHANGE, PLAY, OVER = "grand", "exchange", "play", "over"

# The fixed actions, made once: actions are immutable values.
_CALL_TICHU = tuple(CallTichu(s) for s in range(4))
_TICHU_ONLY = tuple((call,) for call in _CALL_TICHU)
_GRAND_CHOICES = tuple((CallGrand(s), DeclineGrand(s)) for s in range(4))
_PASS = tuple(Pass(s) for s in range(4))
_WISHES = tuple((MakeWish(s, None),) + tuple(MakeWish(s, r) for r in NATURAL_RANKS) for s in range(4))
_GIFTS = tuple((GiveDragon(s, (s + 1) % 4), GiveDragon(s, (s + 3) % 4)) for s in range(4))
# The events with few possible values, made once too (events are frozen values).
_PASSED = tuple(Passed(s) for s in range(4))
_PHASE_STARTED = {phase: PhaseStarted(phase) for phase in (GRAND, EXCHANGE, PLAY)}
_GRAND_DECIDED = tuple((GrandDecided(s, False), GrandDecided(s, True)) for s in range(4))
_TICHU_CALLED = tuple((TichuCalled(s, grand=False), TichuCalled(s, grand=True)) for s in range(4))
_EXCHANGE_SUBMITTED = tuple(ExchangeSubmitted(s) for s in range(4))
_TURN_TO = {need: tuple(TurnStarted(s, need) for s in range(4)) for need in ("lead", "follow", "wish", "give")}
_TO_LEAD, _TO_FOLLOW = _TURN_TO["lead"], _TURN_TO["follow"]
_TRICK_WON = tuple(tuple(TrickWon(s, leader) for leader in range(4)) for s in range(4))
_MAHJONG_BIT, _PHOENIX_BIT, _DRAGON_BIT = MAHJONG_CARD.bit, PHOENIX_CARD.bit, DRAGON_CARD.bit
_NEXT_SEAT = (1, 2, 3, 0)  # next_active while nobody is out
_DECK_IDS = frozenset(map(id, DECK))
_DOG = ComboType.DOG
TICHU_BONUS = 100
GRAND_BONUS = 200


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2 (people's seats 1 and 3); team 1 is seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


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


def trick_won(passes: int, out: int, owner_out: bool) -> bool:
    """Whether a trick is won: every seat still in but its owner passed since its last play.

    ``passes`` since that play (a seat passes at most once a trick), ``out`` the
    number of seats out of the round, ``owner_out`` whether the trick's owner is
    one of them.  The one rule behind the round, the `.tch` recorder and the
    bots' playouts (rules.md R9).
    """
    return passes >= 3 - out + owner_out


def double_victory(finish_order: Sequence[int]) -> int | None:
    """The team whose two players went out first and second (a double victory), else None."""
    if len(finish_order) >= 2 and finish_order[0] % 2 == finish_order[1] % 2:
        return finish_order[0] % 2
    return None


def round_over(finish_order: Sequence[int]) -> bool:
    """Whether the round ends (R10.7): a double victory, or three seats out."""
    return len(finish_order) >= 3 or double_victory(finish_order) is not None


def round_points(finish_order: Sequence[int], bonuses: Sequence[int], taken: Sequence[int],
                 tail_hand: int, double_victory_points: int = 200) -> tuple[tuple[int, int], tuple[int, int], int | None]:
    """The tally of an ended round: (card points, call points, double victory's team or None), per team.

    ``finish_order`` the seats out in order (the round is over), ``bonuses`` each
    seat's call at stake (0, `TICHU_BONUS` or `GRAND_BONUS`: won by the first
    out, lost by everyone else), ``taken`` each seat's points in its tricks (the
    last trick collected), ``tail_hand`` the points left in the last seat's hand.
    A double victory scores ``double_victory_points`` and no cards; otherwise the
    last seat's tricks go to the first out and his hand to the other team (R10).
    The one tally behind the round and the bots' playouts.
    """
    first = finish_order[0] if finish_order else None
    calls = [0, 0]
    for seat, bonus in enumerate(bonuses):
        if bonus:
            calls[seat % 2] += bonus if seat == first else -bonus
    cards = [0, 0]
    double = double_victory(finish_order)
    if double is not None:
        cards[double] = double_victory_points
        return (cards[0], cards[1]), (calls[0], calls[1]), double
    tail = next(s for s in range(4) if s not in finish_order)
    for seat, points in enumerate(taken):
        cards[(first if seat == tail else seat) % 2] += points
    cards[1 - tail % 2] += tail_hand
    return (cards[0], cards[1]), (calls[0], calls[1]), None


@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what each team scores (index 0: seats 1+3, index 1: seats 2+4)."""

    finish_order: tuple[int, ...]
    double_victory: int | None  # the team, or None
    card_points: tuple[int, int]
    call_points: tuple[int, int]
    calls: tuple[str | None, ...]  # per seat: None, "tichu" or "grand"

    @property
    def score(self) -> tuple[int, int]:
        return (self.card_points[0] + self.call_points[0], self.card_points[1] + self.call_points[1])

    @property
    def failed_call_teams(self) -> set[int]:
        first = self.finish_order[0] if self.finish_order else None
        return {team_of(s) for s, c in enumerate(self.calls) if c and s != first}

    def to_dict(self) -> dict:
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

    def waits_for(self, seat: int) -> bool:
        """Whether the round waits for ``seat`` (`waits_for_seat`); any seat's view shows it."""
        return waits_for_seat(self.phase, self.grand_decided[seat], self.exchange_submitted[seat],
                              self.turn, seat)

    def to_dict(self) -> dict:
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
        }


class Round:
    """The state of one deal.  Build it with `deal_random`, `from_deal` or `replay`."""

    def __init__(self, deal: Sequence[Card], grand_tichu: bool = True, double_victory_points: int = 200):
        deal = tuple(deal)
        if len(deal) != 56 or set(map(id, deal)) != _DECK_IDS:  # the 56 cards are the only ones
            raise ValueError("a deal is an ordering of all 56 cards")
        self.deal = deal
        self.grand_tichu = grand_tichu
        self.double_victory_points = double_victory_points
        self.history: list[Action] = []
        self.hands: list[set[Card]] = [set() for _ in range(4)]
        self.calls: list[str | None] = [None] * 4
        self.grand_decided = [not grand_tichu] * 4
        self.exchanges: list[tuple[Card, Card, Card] | None] = [None] * 4
        self.played_any = [False] * 4
        self.finish_order: list[int] = []
        self.piles: list[list[Card]] = [[] for _ in range(4)]
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
        self.result: RoundResult | None = None
        self.ending = False  # the round has ended but for the last trick's Dragon gift
        # Per seat: (the hand set it was built from, its HandIndex), until the hand changes.
        self._indexes: list[tuple[set[Card], HandIndex] | None] = [None] * 4
        self.opening_events: list[Event] = []
        if grand_tichu:
            self.phase = GRAND
            for seat in range(4):
                first = first_cards(deal, seat)
                self.hands[seat] = set(first)
                self.opening_events.append(CardsDealt(seat, tuple(sort_cards(first))))
            self.opening_events.append(_PHASE_STARTED[GRAND])
        else:
            self.phase = EXCHANGE
            for seat in range(4):
                self.hands[seat] = set(first_cards(deal, seat)) | set(last_cards(deal, seat))
                self.opening_events.append(CardsDealt(seat, tuple(sort_cards(self.hands[seat]))))
            self.opening_events.append(_PHASE_STARTED[EXCHANGE])

    # ------------------------------------------------------------------ building

    @classmethod
    def deal_random(cls, rng: Random, **options) -> "Round":
        """A round dealt by shuffling with the injected random generator."""
        deal = list(DECK)
        rng.shuffle(deal)
        return cls(deal, **options)

    @classmethod
    def from_deal(cls, deal: Sequence[Card], **options) -> "Round":
        return cls(deal, **options)

    @classmethod
    def replay(cls, deal: Sequence[Card], actions: Sequence[Action], **options) -> "Round":
        """Rebuild a round from its deal and action list (raises on the first illegal action)."""
        rnd = cls(deal, **options)
        for action in actions:
            rnd.apply(action)
        return rnd

    def _last_six(self, seat: int) -> tuple[Card, ...]:
        return tuple(last_cards(self.deal, seat))

    # ------------------------------------------------------------------ queries

    def is_active(self, seat: int) -> bool:
        """A seat still holding cards in the play phase (before it: everyone)."""
        return seat not in self.finish_order and (self.phase != PLAY or bool(self.hands[seat]))

    def next_active(self, seat: int) -> int:
        for step in range(1, 5):
            s = (seat + step) % 4
            if s not in self.finish_order:
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
            return False  # a normal Tichu needs all 14 cards (rules.md R4.5)
        return self.gift_pending_seat is None or not self.ending

    @property
    def need(self) -> str | None:
        """What the round waits for: "wish", "give", "lead", "follow", or None outside play."""
        if self.phase != PLAY:
            return None
        if self.wish_pending_seat is not None:
            return "wish"
        if self.gift_pending_seat is not None:
            return "give"
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
        if w is None or self.phase != PLAY:
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
                    out: list[Action] = [_CALL_TICHU[seat]] if tichu else []
                    out += listed_plays(seat, [b for b in found if b.beats(top)])
                    return iter(out)
            return iter(_TICHU_ONLY[seat] if tichu else ())
        # can_call_tichu, as it reads in the play phase
        out = ([_CALL_TICHU[seat]] if not self.calls[seat] and not self.played_any[seat]
               and (self.gift_pending_seat is None or not self.ending) else [])
        if self.wish_pending_seat is not None or self.gift_pending_seat is not None:
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
        if (wish is not None and index.nibble(wish)
                and any(c.contains_rank(wish) for c in options)):  # the wish binds (R8.1.3)
            options = [c for c in options if c.is_bomb or c.contains_rank(wish)]
        else:
            out.append(_PASS[seat])
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
        """While the round waits for a wish or the Dragon gift."""
        if self.wish_pending_seat is not None:
            if seat == self.wish_pending_seat:
                out += _WISHES[seat]
            return
        if seat == self.gift_pending_seat:
            out += _GIFTS[seat]
        if not self.ending and seat not in self.finish_order:
            out += listed_plays(seat, self._bombs_beating(seat))

    def _iter_setup_actions(self, seat: int) -> Iterator[Action]:
        if self.phase == GRAND:  # Tichu only once Grand Tichu is decided (can_call_tichu)
            if not self.grand_decided[seat]:
                return iter(_GRAND_CHOICES[seat])
            return iter(() if self.calls[seat] else (_CALL_TICHU[seat],))
        return self._iter_exchange_actions(seat)

    def _iter_exchange_actions(self, seat: int) -> Iterator[Action]:
        """Tichu and the 2184 trios while the seat has not passed its cards; nothing once over."""
        if self.phase == OVER:
            return
        if self.can_call_tichu(seat):
            yield _CALL_TICHU[seat]
        if self.exchanges[seat] is None:
            for trio in permutations(sort_cards(self.hands[seat]), 3):
                yield Exchange(seat, trio)

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
        if not 0 <= action.seat < 4:
            raise IllegalActionError("seats are 1 to 4")
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

    def _do_grand(self, action) -> list[Event]:
        seat = action.seat
        if self.phase != GRAND:
            raise IllegalActionError("Grand Tichu can only be called right after the first 8 cards"
                                     + (" (not in a tournament)" if not self.grand_tichu else ""))
        if self.grand_decided[seat]:
            raise IllegalActionError("you have already decided about Grand Tichu")
        called = isinstance(action, CallGrand)
        self.history.append(action)
        self.grand_decided[seat] = True
        events: list[Event] = [_GRAND_DECIDED[seat][called]]
        if called:
            self.calls[seat] = "grand"
            events.append(_TICHU_CALLED[seat][True])
        six = self._last_six(seat)
        self.hands[seat].update(six)
        events.append(CardsDealt(seat, tuple(sort_cards(six))))
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
        return [_TICHU_CALLED[seat][False]]

    def _do_exchange(self, action: Exchange) -> list[Event]:
        seat = action.seat
        if self.phase != EXCHANGE:
            raise IllegalActionError("the exchange is not now" if self.phase != GRAND
                                     else "first decide about Grand Tichu; the exchange comes next")
        if self.exchanges[seat] is not None:
            raise IllegalActionError("you have already passed your cards (it cannot be changed)")
        cards = tuple(action.cards)
        if len(cards) != 3:
            raise IllegalActionError("pass exactly 3 cards: to the right opponent, the partner, the left opponent")
        if len(set(cards)) != 3:
            raise IllegalActionError("pass 3 different cards")
        missing = [c for c in cards if c not in self.hands[seat]]
        if missing:
            raise IllegalActionError(f"you do not hold {format_cards(missing)}")
        self.history.append(action if cards is action.cards else Exchange(seat, cards))
        self.exchanges[seat] = cards
        events: list[Event] = [_EXCHANGE_SUBMITTED[seat]]
        if all(e is not None for e in self.exchanges):
            received: list[dict] = [{} for _ in range(4)]
            for giver, trio in enumerate(self.exchanges):
                for step, c in enumerate(trio, start=1):
                    self.hands[giver].discard(c)
                    received[(giver + step) % 4][giver] = c
            for s in range(4):
                self.hands[s].update(received[s].values())
                events.append(CardsReceived(s, received[s]))
            self.phase = PLAY
            self._indexes = [None] * 4
            self.turn = next(s for s in range(4) if MAHJONG_CARD in self.hands[s])
            events.append(_PHASE_STARTED[PLAY])
            events.append(_TO_LEAD[self.turn])
        return events

    def _check_play_phase(self, seat: int) -> None:
        if self.phase != PLAY:
            raise IllegalActionError({GRAND: "first decide about Grand Tichu (grand or nogrand)",
                                      EXCHANGE: "first pass your 3 cards (exchange)"}[self.phase])
        if self.wish_pending_seat is not None:
            who = "you" if seat == self.wish_pending_seat else seat_name(self.wish_pending_seat)
            raise IllegalActionError(f"waiting for {who} to make the wish (/wish RANK or /wish none)")

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
                raise IllegalActionError(f"you do not hold {format_cards(missing)}")
            combo = classify(action.cards, action.phoenix_as)
        else:  # a listed play: its mask against the hand's
            entry = self._indexes[seat]
            missing = combo.mask & ~(entry[1].mask if entry is not None and entry[0] is hand
                                     else self._index(seat).mask)  # kept: the play updates it
            if missing:
                raise IllegalActionError(f"you do not hold {format_cards(cards_of(missing))}")
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
                    f"the trick is won; {seat_name(self.leader)} leads next, only a bomb may come now")
            return self._play_bomb_onto(seat, combo, action)
        if top is None:
            if seat == self.turn:
                return self._lead(seat, combo, action)
            raise IllegalActionError(
                f"it is {seat_name(self.turn)}'s lead; nobody may bomb an empty table")
        if seat != self.turn:
            if combo.type not in BOMB_TYPES:
                raise IllegalActionError(f"not your turn: {seat_name(self.turn)} plays; out of turn only a bomb may come")
            return self._play_bomb_onto(seat, combo, action)
        placed = combo if combo.mask != _PHOENIX_BIT else combo.played_over(top)
        if not placed.beats(top):
            raise IllegalActionError(self._why_not_beating(placed))
        if (self.wish is not None and self.wish_binds(seat) and combo.type not in BOMB_TYPES
                and not combo.contains_rank(self.wish)):
            raise IllegalActionError(
                f"you must fulfil the wish for {rank_text(self.wish)}: play a combination with a "
                f"{rank_text(self.wish)} that beats the table, or a bomb")
        return self._place(seat, placed, False, action)

    def _why_not_beating(self, combo: Combo) -> str:
        top = self.top
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
        if not combo.beats(self.top):
            raise IllegalActionError(self._why_not_beating(combo))
        return self._place(seat, combo, seat != self.turn or self.trick_won or self.gift_pending_seat is not None,
                           action)

    def _lead(self, seat: int, combo: Combo, action: Play) -> list[Event]:
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
            if round_over(self.finish_order):
                return events + self._end_round()
        if mask & _MAHJONG_BIT:
            self.wish_pending_seat = seat
            self.turn = self.next_active(seat)
            events.append(_TURN_TO["wish"][seat])
            return events
        if combo.type is _DOG:
            self.loose_cards.extend(self.trick_cards)
            self.trick, self.trick_cards = [], []
            self.top = self.top_seat = None
            partner = partner_of(seat)
            self.turn = partner if partner not in self.finish_order else self.next_active(partner)
            events.append(_TO_LEAD[self.turn])
            return events
        self.turn = turn = self.next_active(seat) if self.finish_order else _NEXT_SEAT[seat]
        events.append(_TO_FOLLOW[turn])
        return events

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
        if trick_won(passes, len(finish_order), self.top_seat in finish_order):
            self.trick_won = True
            leader = self.leader
            self.turn = leader
            events: list[Event] = [_PASSED[seat], _TRICK_WON[self.top_seat][leader]]
            if self.top.mask == _DRAGON_BIT:
                self.gift_pending_seat = self.top_seat
                events.append(_TURN_TO["give"][self.top_seat])
            else:
                events.append(_TO_LEAD[leader])
            return events
        self.turn = turn = self.next_active(seat) if finish_order else _NEXT_SEAT[seat]
        return [_PASSED[seat], _TO_FOLLOW[turn]]

    def _check_pass(self, seat: int) -> None:
        """Raise the reason a pass by ``seat`` is refused, checked in the rules' order."""
        self._check_play_phase(seat)
        if seat in self.finish_order:
            raise IllegalActionError("you are out of this round")
        if self.gift_pending_seat is not None:
            raise IllegalActionError(f"waiting for {seat_name(self.gift_pending_seat)} to give the Dragon trick")
        if self._leading(seat):
            raise IllegalActionError("you have the lead and cannot pass: play any combination")
        if self.top is None or self.trick_won or seat != self.turn:
            who = self.leader if self.trick_won else self.turn
            raise IllegalActionError(f"not your turn: {seat_name(who)} is to play")
        if self.wish_binds(seat):
            raise IllegalActionError(
                f"you cannot pass: you must fulfil the wish for {rank_text(self.wish)} (or bomb)")

    def _collect(self, to: int | None = None) -> list[Event]:
        """Move the trick (and a waiting Dog) into a pile: the winner's, or ``to``'s."""
        winner = self.top_seat
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
        events.append(_TO_FOLLOW[self.turn])
        return events

    def _do_give(self, action: GiveDragon) -> list[Event]:
        seat = action.seat
        if self.gift_pending_seat is None:
            raise IllegalActionError("there is no Dragon trick to give")
        if seat != self.gift_pending_seat:
            raise IllegalActionError(f"only {seat_name(self.gift_pending_seat)}, who won with the Dragon, gives it away")
        if not 0 <= action.to < 4 or team_of(action.to) == team_of(seat):
            raise IllegalActionError(
                f"give the Dragon trick to an opponent: seat {(seat + 1) % 4 + 1} or seat {(seat + 3) % 4 + 1}")
        self.history.append(action)
        self.gift_pending_seat = None
        points = card_points(self.trick_cards + self.loose_cards)
        events: list[Event] = [DragonGiven(seat, action.to, points)]
        events += self._collect(to=action.to)
        if self.ending:
            return events + self._finish()
        self.turn = seat if seat not in self.finish_order else self.next_active(seat)
        events.append(_TO_LEAD[self.turn])
        return events

    # ------------------------------------------------------------------ the end

    def _end_round(self) -> list[Event]:
        """The round ends now (R10.7): settle the open trick, then score."""
        if double_victory(self.finish_order) is not None:
            return self._finish()
        self.ending = True
        if self.top is not None and self.top.mask == DRAGON_CARD.bit:
            self.gift_pending_seat = self.top_seat
            return [_TURN_TO["give"][self.top_seat]]
        return self._collect() + self._finish()

    def _finish(self) -> list[Event]:
        f = self.finish_order
        bonuses = [GRAND_BONUS if call == "grand" else TICHU_BONUS if call else 0 for call in self.calls]
        tail = None if double_victory(f) is not None else next(s for s in range(4) if s not in f)
        cards, calls, double = round_points(
            f, bonuses, [card_points(p) for p in self.piles],
            0 if tail is None else card_points(self.hands[tail]), self.double_victory_points)
        if tail is not None:  # his tricks go to the first out (counted so by round_points)
            self.piles[f[0]].extend(self.piles[tail])
            self.piles[tail] = []
            f.append(tail)
        self.phase = OVER
        self.turn = None
        self.gift_pending_seat = None
        self.result = RoundResult(tuple(f), double, cards, calls, tuple(self.calls))
        return [RoundEnded(self.result)]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> RoundView:
        """What ``seat`` may see (its own hand); None gives the spectators' view."""
        hand = None if seat is None else tuple(sort_cards(self.hands[seat]))
        return RoundView(
            seat=seat, phase=self.phase, hand=hand,
            hand_counts=tuple(len(h) for h in self.hands), calls=tuple(self.calls),
            grand_decided=tuple(self.grand_decided),
            exchange_submitted=tuple(e is not None for e in self.exchanges),
            top=self.top, top_seat=self.top_seat, trick=tuple(self.trick),
            trick_won=self.trick_won, turn=self.waiting_for, need=self.need, wish=self.wish,
            finish_order=tuple(self.finish_order),
            points_taken=tuple(card_points(p) for p in self.piles), result=self.result,
        )

    def all_cards(self) -> list[Card]:
        """Every card wherever it is (hands, table, piles); for invariant checks."""
        out = [c for h in self.hands for c in h] + self.trick_cards + self.loose_cards
        return out + [c for p in self.piles for c in p] + [
            c for s in range(4) if self.phase == GRAND and not self.grand_decided[s]
            for c in self._last_six(s)]


#: Each action type's handler in `Round.apply`.
_HANDLERS = {
    CallGrand: Round._do_grand, DeclineGrand: Round._do_grand, CallTichu: Round._do_tichu,
    Exchange: Round._do_exchange, Play: Round._do_play, Pass: Round._do_pass, MakeWish: Round._do_wish,
    GiveDragon: Round._do_give,
}

__all__ = ["Round", "RoundResult", "RoundView", "team_of", "partner_of", "waits_for_seat", "trick_won",
           "double_victory", "round_over", "round_points", "GRAND", "EXCHANGE", "PLAY", "OVER"]
