"""What the `expert` bot searches with: card counting, deal sampling and fast playouts.

Three parts, all pure and driven by an injected `random.Random`:

- `CardCounter` follows the events one seat may see and keeps what that seat
  can know about the hidden cards: which cards are still out, which of them
  certainly sit with whom (the card it passed to a neighbour, the Mahjong with
  the first leader), which ranks a seat cannot hold (it passed while a wish
  bound it), and who called.
- `sample_hands` deals the cards still out to the other seats, consistent with
  all of that (and with a hand the seat sees open, Trichu's dummy), leaning the
  high cards towards players who called.
- `Playout` plays a round forward from a sampled position with a fast, fixed
  policy for every seat and returns the round's score.

Everything that depends on the form of the game comes from its `Variant`: the
seats, the teams, the turn order, whom the exchange gave which card, the
Dog's lead (Tientsin: a partner the playout chooses), the Dragon's opponents.

The engine is not used for playouts: replaying a `Round` and asking it for
legal actions costs milliseconds per step, so a few hundred playouts would
take seconds.  A playout here takes a fraction of a millisecond.  It keeps the
engine's own rules for when a trick is won, when the round ends and how it is
scored (`engine.round.trick_won`, `round_over`, `round_points`, each with
the variant), and
simplifies the rest, all of it here (the real decision is always among the
engine's legal actions; a playout only prices them):

- cards per rank, not `Card` objects: suits are not seen, so there are no
  straight flushes (four of a kind is its only bomb);
- no wish: the Mahjong's wish binds nobody;
- no Tichu calls during the playout, only the calls already made;
- a trick is collected as soon as it is won: no bomb comes onto a won trick
  (R9.6), and the Dragon goes at once to the opponent holding most cards;
- the Dog's player who chooses the partner to lead (Tientsin) sends the lead
  to the partner still in with the fewest cards;
- a double (triple) victory scores the variant's `sweep_points`, a
  tournament's 100 included.

tests/bots/test_bots_playout_rules.py plays random rounds through the engine
and the same actions through a `Playout`, and checks that the two agree on
every step they both model: whose turn, cards left, who is out, the points
taken, and the final score.
"""

from __future__ import annotations

from functools import cache
from random import Random
from typing import Iterable, Sequence

from ..engine import DECK, Card, Variant
from ..engine.combos import Combo, ComboType
from ..engine.events import (
    Event, Passed, PhaseStarted, Played, TichuCalled, TrickCollected, TurnStarted,
    WishMade,
)
from ..engine.round import round_over, round_points, trick_won

# Rank slots of a playout hand: 0 the Phoenix, 1 the Mahjong, 2..14 natural ranks,
# 15 the Dragon, 16 the Dog.
PHOENIX, MAHJONG, DRAGON, DOG = 0, 1, 15, 16
SLOTS = 17
ACE = 14
SLOT_POINTS = (-25, 0, 0, 0, 0, 5, 0, 0, 0, 0, 10, 0, 0, 10, 0, 25, 0)

# Playout combination kinds.
SINGLE, PAIR, TRIPLE, FULL, STRAIGHT, STAIRS, BOMB, DOGKIND = range(8)
_KIND_OF = {
    ComboType.SINGLE: SINGLE, ComboType.PAIR: PAIR, ComboType.TRIPLE: TRIPLE,
    ComboType.FULL_HOUSE: FULL, ComboType.STRAIGHT: STRAIGHT, ComboType.STAIRS: STAIRS,
    ComboType.FOUR_BOMB: BOMB, ComboType.STRAIGHT_FLUSH: BOMB, ComboType.DOG: DOGKIND,
}
#: Who is about to go out: a seat with this few cards makes the playout policy fight.
PRESSURE_CARDS = 2


def slot_of(card: Card) -> int:
    if card.is_natural:
        return card.rank
    return {"PH": PHOENIX, "MJ": MAHJONG, "DR": DRAGON, "DG": DOG}[card.kind]


def counts_of(cards: Iterable[Card]) -> list[int]:
    counts = [0] * SLOTS
    for c in cards:
        counts[slot_of(c)] += 1
    return counts


#: A combination as the playout sees it: (kind, length, rank).
TableCombo = tuple[int, int, float]
#: A playout move: the combination and the slots of the cards it takes.
Move = tuple[TableCombo, tuple[int, ...]]


def table_combo(combo: Combo) -> TableCombo:
    """An engine combination as the playout sees it: (kind, length, rank)."""
    kind = _KIND_OF[combo.type]
    if combo.type is ComboType.STRAIGHT_FLUSH:
        return (BOMB, combo.length, 100 * combo.length + combo.rank)
    return (kind, combo.length, combo.rank)


# ---------------------------------------------------------------------- counting

class CardCounter:
    """What one seat knows about the hidden cards of a round, from the events it saw.

    It needs no seat count: it is made at the deal, before any view tells the variant.
    """

    def __init__(self, seat: int):
        self.seat = seat
        self.played: set[Card] = set()
        self.sure: dict[Card, int] = {}  # a hidden card and the seat that certainly holds it
        self.lacks: set[tuple[int, int]] = set()  # (seat, rank): that seat holds no natural card of rank
        self.calls: dict[int, str] = {}  # seat -> "tichu" or "grand"
        self.passed: set[int] = set()  # seats that passed since the last play
        self.wish: int | None = None
        self.first_leader: int | None = None
        self._play_started = False
        self.top: Combo | None = None

    def give(self, exchange_cards: Sequence[Card], targets: Sequence[int]) -> None:
        """Our own exchange: each card to the seat in the same place of ``targets`` (`Variant.exchange_targets`)."""
        for target, c in zip(targets, exchange_cards):
            self.sure[c] = target

    def observe(self, event: Event) -> None:
        if isinstance(event, Played):
            cards = event.combo.cards
            self.played |= cards
            for c in cards:
                self.sure.pop(c, None)
            self.passed = set()
            self.top = event.combo
            if self.wish is not None and event.combo.contains_rank(self.wish):
                self.wish = None
        elif isinstance(event, Passed):
            self.passed.add(event.seat)
            top = self.top
            if (self.wish is not None and top is not None and top.type is ComboType.SINGLE
                    and top.rank < self.wish):
                self.lacks.add((event.seat, self.wish))  # a wished card would have been forced
        elif isinstance(event, WishMade):
            self.wish = event.rank
        elif isinstance(event, TichuCalled):
            self.calls[event.seat] = "grand" if event.grand else "tichu"
        elif isinstance(event, PhaseStarted) and event.phase == "play":
            self._play_started = True
        elif isinstance(event, TurnStarted) and self._play_started and self.first_leader is None:
            self.first_leader = event.seat
            mahjong = DECK[52]
            if event.seat != self.seat and mahjong not in self.played:
                self.sure[mahjong] = event.seat
        elif isinstance(event, TrickCollected):
            self.top = None
            self.passed = set()

    def hidden(self, hand: Iterable[Card]) -> list[Card]:
        """The cards neither in our hand nor played: the other seats hold them."""
        mine = set(hand)
        return [c for c in DECK if c not in mine and c not in self.played]


def sample_hands(counter: CardCounter, hand: Sequence[Card], hand_counts: Sequence[int],
                 rng: Random, open_hands: dict[int, Sequence[Card]] | None = None,
                 tries: int = 8) -> list[list[Card]]:
    """One deal of the hidden cards to the other seats, consistent with what the counter knows.

    ``hand_counts`` has one entry per seat; ``open_hands`` are other seats'
    hands that our seat sees (Trichu's dummy): they are kept, not sampled.
    Cards are dealt one at a time to a seat chosen in proportion to its free
    places (which alone gives every consistent deal the same chance), times a
    weight that leans the Dragon, the Phoenix and Aces towards a seat that
    called Tichu (and more so Grand Tichu).  A deal that strands a card where
    it may not go is tried again; after ``tries`` failures the rank exclusions
    are dropped.
    """
    me = counter.seat
    seats = range(len(hand_counts))
    known: dict[int, Sequence[Card]] = {me: hand}
    if open_hands:
        known.update((s, cards) for s, cards in open_hands.items() if s != me)
    seen = {c for cards in known.values() for c in cards}
    pool = [c for c in counter.hidden(hand) if c not in seen]
    others = [s for s in seats if s not in known]
    for attempt in range(tries + 1):
        strict = attempt < tries
        hands: list[list[Card]] = [list(known.get(s, ())) for s in seats]
        room = [0] * len(hands)
        free: list[Card] = []
        for c in pool:
            holder = counter.sure.get(c)
            if holder is not None and holder not in known:
                hands[holder].append(c)
            else:
                free.append(c)
        for s in others:
            room[s] = hand_counts[s] - len(hands[s])
        if any(room[s] < 0 for s in others):
            return _uniform(pool, known, hand_counts, others, rng)
        rng.shuffle(free)
        free.sort(key=lambda c: not _strong(c))  # strong cards first, while every seat has room
        ok = True
        for c in free:
            weights: list[float] = []
            for s in others:
                w: float = room[s]
                if w and strict and c.is_natural and (s, c.rank) in counter.lacks:
                    w = 0
                call = counter.calls.get(s)
                if w and call and _strong(c):
                    w *= 3.0 if call == "grand" else 2.0
                weights.append(w)
            total = sum(weights)
            if total <= 0:
                ok = False
                break
            pick = rng.random() * total
            for s, w in zip(others, weights):
                pick -= w
                if pick < 0 and w > 0:
                    break
            hands[s].append(c)
            room[s] -= 1
        if ok:
            return hands
    return _uniform(pool, known, hand_counts, others, rng)


def _strong(c: Card) -> bool:
    return c.kind in ("DR", "PH") or (c.is_natural and c.rank == ACE)


def _uniform(pool: Sequence[Card], known: dict[int, Sequence[Card]], hand_counts: Sequence[int],
             others: Sequence[int], rng: Random) -> list[list[Card]]:
    """Fallback: the hidden cards dealt uniformly by hand size (should the knowledge not fit)."""
    rest = list(pool)
    rng.shuffle(rest)
    hands: list[list[Card]] = [list(known.get(s, ())) for s in range(len(hand_counts))]
    for s in others:
        hands[s], rest = rest[:hand_counts[s]], rest[hand_counts[s]:]
    return hands


# ---------------------------------------------------------------------- playouts

@cache
def _following(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """Per seat, the other seats in turn order after it."""
    n = variant.seats
    return tuple(tuple((seat + step) % n for step in range(1, n)) for seat in range(n))


class Playout:
    """A round of ``variant`` in progress, reduced to what the playout policy needs; `run` plays it out.

    One entry per seat in ``hands``, ``piles`` and ``bonus`` (each seat's bonus
    at stake: 0, 100 or 200).  Scores are (team 0, team 1) as the engine counts
    them, double victory included.
    """

    __slots__ = ("variant", "teams", "following", "hands", "sizes", "out", "top", "top_seat",
                 "trick_points", "piles", "turn", "passes", "bonus", "dragon_on_top", "finished")

    def __init__(self, variant: Variant, hands: Sequence[Sequence[int]], out: Sequence[int],
                 top: TableCombo | None, top_seat: int | None, trick_points: int, piles: Sequence[int],
                 turn: int, passes: int, bonus: Sequence[int]):
        self.variant = variant
        self.teams = variant.teams
        self.following = _following(variant)
        self.hands = [list(h) for h in hands]
        self.sizes = [sum(h) for h in hands]
        self.out = list(out)
        self.top = top
        self.top_seat = top_seat
        self.trick_points = trick_points
        self.piles = list(piles)
        self.turn = turn
        self.passes = passes
        self.bonus = list(bonus)
        self.dragon_on_top = top is not None and top[0] == SINGLE and top[2] == DRAGON
        self.finished = self.over()

    # -------------------------------------------------------------- moves

    def active(self, seat: int) -> bool:
        return self.sizes[seat] > 0

    def next_active(self, seat: int) -> int:
        sizes = self.sizes
        for s in self.following[seat]:
            if sizes[s]:
                return s
        return seat

    def over(self) -> bool:
        return round_over(self.out, self.variant)

    def play(self, seat: int, combo: TableCombo, slots: Sequence[int]) -> None:
        """``seat`` plays ``combo`` made of the cards in ``slots`` (in turn or as a bomb)."""
        hand = self.hands[seat]
        for s in slots:
            hand[s] -= 1
            self.trick_points += SLOT_POINTS[s]
        self.sizes[seat] -= len(slots)
        self.passes = 0
        if combo[0] == DOGKIND:
            self.top = self.top_seat = None
            if not self.sizes[seat]:
                self.out.append(seat)
                if self.over():
                    self.finished = True
                    return
            self.send_lead(self.dog_partner(seat))
            return
        self.top, self.top_seat = combo, seat
        self.dragon_on_top = combo[0] == SINGLE and combo[2] == DRAGON
        if not self.sizes[seat]:
            self.out.append(seat)
            if self.over():
                self.finished = True
                return
        self.turn = self.next_active(seat)

    def dog_partner(self, seat: int) -> int:
        """The partner the Dog of ``seat`` sends the lead to: the one partner, or (Tientsin,
        `Variant.dog_choice`) the playout's choice, the partner still in with the fewest cards."""
        partners = self.variant.partners[seat]
        if len(partners) == 1:
            return partners[0]
        sizes = self.sizes
        return min(partners, key=lambda p: (not sizes[p], sizes[p]))

    def send_lead(self, partner: int) -> None:
        """The Dog's lead goes to ``partner``, or the next seat still in after him (R8.3.2)."""
        self.turn = partner if self.active(partner) else self.next_active(partner)

    def pass_turn(self, seat: int) -> None:
        self.passes += 1
        if trick_won(self.passes, len(self.out), not self.sizes[self.top_seat], self.variant.seats):  # type: ignore[index]  # one passes only on a top
            self.collect()
        else:
            self.turn = self.next_active(seat)

    def collect(self, to: int | None = None) -> None:
        """The trick goes to its winner (or, for the Dragon, to an opponent); the winner leads."""
        winner: int = self.top_seat  # type: ignore[assignment]  # only a trick with a top is collected
        if to is None:
            to = self.dragon_gift(winner) if self.dragon_on_top else winner
        self.piles[to] += self.trick_points
        self.trick_points = 0
        self.top = self.top_seat = None
        self.dragon_on_top = False
        self.passes = 0
        self.turn = winner if self.active(winner) else self.next_active(winner)

    def dragon_gift(self, winner: int) -> int:
        """The playout's gift: the opponent who still holds the most cards (the first in turn order of equals)."""
        sizes = self.sizes
        return max(self.variant.opponents[winner], key=lambda o: sizes[o])

    def score(self) -> tuple[int, int]:
        """The round's score (team 0, team 1), tallied by the engine's rule (`round_points`)."""
        out = self.out
        piles = list(self.piles)
        if self.top is not None:  # the last trick goes to its winner
            winner: int = self.top_seat  # type: ignore[assignment]  # a top has its seat
            to = self.dragon_gift(winner) if self.dragon_on_top else winner
            piles[to] += self.trick_points
        tail = next(s for s in range(self.variant.seats) if s not in out)
        tail_hand = sum(n * p for n, p in zip(self.hands[tail], SLOT_POINTS))
        cards, calls, _ = round_points(out, self.bonus, piles, tail_hand, variant=self.variant)
        return cards[0] + calls[0], cards[1] + calls[1]

    def run(self) -> tuple[int, int]:
        """Play the round out with the playout policy; its score (team 0, team 1)."""
        guard = 400
        while not self.finished and guard:
            guard -= 1
            seat = self.turn
            if self.top is None:
                combo, slots = lead_choice(self, seat)
                self.play(seat, combo, slots)
            else:
                choice = follow_choice(self, seat)
                if choice is None:
                    self.pass_turn(seat)
                else:
                    self.play(seat, *choice)
        return self.score()


# ---------------------------------------------------------------------- the playout policy

_WHOLE: dict[tuple[int, ...], Move | None] = {}


def _whole_hand(hand: list[int], size: int) -> Move | None:
    """The hand as one combination if it is one: (combo, slots); memoised by hand."""
    if hand[DOG] or (size > 1 and (hand[DRAGON] or hand[PHOENIX])):
        return None  # the playout keeps the Phoenix for singles
    key = tuple(hand)
    try:
        return _WHOLE[key]
    except KeyError:
        pass
    if len(_WHOLE) > 200_000:
        _WHOLE.clear()
    found = _WHOLE[key] = _one_combination(hand, size)
    return found


def _one_combination(hand: list[int], size: int) -> Move | None:
    ranks = [s for s in range(1, ACE + 1) for _ in range(hand[s])]
    if size == 1:
        if hand[DRAGON]:
            return (SINGLE, 1, DRAGON), (DRAGON,)
        if hand[PHOENIX]:
            return (SINGLE, 1, 1.5), (PHOENIX,)
        return (SINGLE, 1, ranks[0]), (ranks[0],)
    distinct = sorted(set(ranks))
    if len(distinct) == 1 and 2 <= size <= 3 and ranks[0] >= 2:
        return ((PAIR if size == 2 else TRIPLE), size, ranks[0]), tuple(ranks)
    if size == 4 and len(distinct) == 1:
        return (BOMB, 4, ranks[0]), tuple(ranks)
    if len(distinct) == size >= 5 and distinct[-1] - distinct[0] == size - 1:
        return (STRAIGHT, size, distinct[-1]), tuple(ranks)
    if size == 5 and len(distinct) == 2 and distinct[0] >= 2:
        low, high = distinct
        if hand[low] == 3:
            return (FULL, 5, low), tuple(ranks)
        if hand[high] == 3:
            return (FULL, 5, high), tuple(ranks)
    if (size >= 4 and size % 2 == 0 and distinct[0] >= 2 and all(hand[r] == 2 for r in distinct)
            and distinct[-1] - distinct[0] == len(distinct) - 1):
        return (STAIRS, size, distinct[-1]), tuple(ranks)
    return None


def lead_choice(state: Playout, seat: int) -> Move:
    """Lead: go out if one play does it; the Dog to an active partner; else the lowest rank's best combination."""
    hand = state.hands[seat]
    whole = _whole_hand(hand, state.sizes[seat])
    if whole is not None:
        return whole
    if hand[DOG] and any(state.sizes[p] for p in state.variant.partners[seat]):
        return (DOGKIND, 1, 0), (DOG,)
    for low in range(1, ACE + 1):
        if hand[low] and hand[low] < 4:
            break
    else:
        low = 0
    if low:
        run_end = low
        while run_end + 1 <= ACE and 0 < hand[run_end + 1] < 4:
            run_end += 1
        if run_end - low + 1 >= 5:
            return (STRAIGHT, run_end - low + 1, run_end), tuple(range(low, run_end + 1))
        n = hand[low]
        if n >= 2 and low >= 2:
            top = low
            while top + 1 <= ACE and hand[top + 1] in (2, 3):
                top += 1
            if top > low:
                slots = tuple(r for r in range(low, top + 1) for _ in (0, 1))
                return (STAIRS, len(slots), top), slots
            if n == 3:
                pair = next((r for r in range(2, ACE + 1) if r != low and hand[r] == 2), None)
                if pair:
                    return (FULL, 5, low), (low,) * 3 + (pair,) * 2
                return (TRIPLE, 3, low), (low,) * 3
            triple = next((r for r in range(2, ACE + 1) if r != low and hand[r] == 3), None)
            if triple:
                return (FULL, 5, triple), (triple,) * 3 + (low,) * 2
            return (PAIR, 2, low), (low, low)
        return (SINGLE, 1, low), (low,)
    if hand[PHOENIX]:
        return (SINGLE, 1, 1.5), (PHOENIX,)
    if hand[DRAGON]:
        return (SINGLE, 1, DRAGON), (DRAGON,)
    if hand[DOG]:
        return (DOGKIND, 1, 0), (DOG,)
    bomb = next(r for r in range(2, ACE + 1) if hand[r] == 4)
    return (BOMB, 4, bomb), (bomb,) * 4


def follow_choice(state: Playout, seat: int) -> Move | None:
    """Follow: never over the partner; the cheapest beating play; high cards and bombs under pressure."""
    hand = state.hands[seat]
    top: TableCombo = state.top  # type: ignore[assignment]  # one follows only onto a top
    owner: int = state.top_seat  # type: ignore[assignment]  # which has its seat
    size = state.sizes[seat]
    whole = _whole_hand(hand, size)
    if whole is not None and _beats(whole[0], top):
        if whole[1] == (PHOENIX,):
            return (SINGLE, 1, top[2] + 0.5), whole[1]
        return whole
    if state.teams[owner] == state.teams[seat]:
        return None
    sizes = state.sizes
    pressed = (any(0 < sizes[o] <= PRESSURE_CARDS for o in state.variant.opponents[seat])
               or state.trick_points >= 15 or (state.bonus[owner] > 0 and sizes[owner] <= 6))
    kind, length, rank = top
    choice = None
    if kind == SINGLE:
        choice = _single_over(hand, rank, pressed)
    elif kind == PAIR or kind == TRIPLE:
        for r in range(int(rank) + 1, ACE + 1):
            if length <= hand[r] < 4 and (hand[r] == length or pressed or r >= 11):
                choice = (kind, length, r), (r,) * length
                break
    elif kind == FULL:
        for r in range(int(rank) + 1, ACE + 1):
            if 3 <= hand[r] < 4:
                pair = next((p for p in range(2, ACE + 1) if p != r and 2 <= hand[p] < 4), None)
                if pair:
                    choice = (FULL, 5, r), (r,) * 3 + (pair,) * 2
                break
    elif kind == STRAIGHT:
        for end in range(int(rank) + 1, ACE + 1):
            start = end - length + 1
            if start >= 1 and all(0 < hand[r] < 4 for r in range(start, end + 1)):
                choice = (STRAIGHT, length, end), tuple(range(start, end + 1))
                break
    elif kind == STAIRS:
        pairs = length // 2
        for end in range(int(rank) + 1, ACE + 1):
            start = end - pairs + 1
            if start >= 2 and all(2 <= hand[r] < 4 for r in range(start, end + 1)):
                choice = (STAIRS, length, end), tuple(r for r in range(start, end + 1) for _ in (0, 1))
                break
    if choice is not None:
        return choice
    if pressed or size <= 5:
        floor = rank if kind == BOMB else 0
        for r in range(2, ACE + 1):
            if hand[r] == 4 and r > floor:
                return (BOMB, 4, r), (r,) * 4
    return None


def _single_over(hand: list[int], rank: float, pressed: bool) -> Move | None:
    if rank >= DRAGON:
        return None
    for r in range(int(rank) + 1, ACE + 1):
        if hand[r] == 1 or (hand[r] in (2, 3) and (pressed or r >= 13)):
            return (SINGLE, 1, r), (r,)
    if hand[PHOENIX] and (pressed or rank >= 11):
        return (SINGLE, 1, rank + 0.5), (PHOENIX,)
    if hand[DRAGON] and (pressed or rank >= 12):
        return (SINGLE, 1, DRAGON), (DRAGON,)
    return None


def _beats(combo: TableCombo, top: TableCombo) -> bool:
    kind, length, rank = combo
    if kind == BOMB:
        return top[0] != BOMB or rank > top[2]
    if kind == DOGKIND or top[0] == BOMB or top[0] == DOGKIND:
        return False
    if kind != top[0] or length != top[1]:
        return False
    if kind == SINGLE and rank == 1.5:  # the Phoenix, led or played
        return top[2] < DRAGON
    return rank > top[2]
