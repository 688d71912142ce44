"""The `basic` level: a sensible beginner.

Every play is judged by the hand it leaves (`handeval`): the bot plays what
makes its remaining hand cheapest to play out, leads low, keeps its high
cards and bombs for when they matter, lets its partner's tricks stand, and
calls Tichu only with a hand that needs few tricks.  Ties are broken with the
injected random generator, so a seed fixes every decision.

It plays every variant with the same judgement: partners and opponents come
from the view's `Variant` (in Tientsin two partners: it lets either's trick
stand, gives each a card it can spare, and sends the Dog's lead to the one who
called or holds the fewest cards); the hand-cost thresholds are the 4-player
game's (a 9- or 10-card Tientsin hand is cheap, so it calls Tichu more often).
"""

from __future__ import annotations

from random import Random
from typing import Callable, Sequence

from ..engine import (
    DECK, NANJING, Action, Card, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange, GiveDragon,
    MakeWish, Pass, Play, RoundView, Variant,
)
from ..engine.cards import cards_of, mask_of
from ..engine.combos import classify
from ..engine.events import Event, Played
from .base import Bot, seat_hand
from .handeval import combo_count, hand_cost, shape_of

#: Call Tichu when the 14 cards cost at most this much to play out (see handeval).
TICHU_MAX_COST = 18.0
#: Call Grand Tichu when the first 8 cards score at least this (see `grand_strength`).
GRAND_MIN_STRENGTH = 9.0
#: How much worse a follow may leave the hand and still be played: normally, and under pressure.
FOLLOW_THRESHOLD = -3.0
FOLLOW_THRESHOLD_PRESSED = 3.0
#: An opponent with this few cards is about to go out.
DANGER_CARDS = 3
#: An opponent who called Tichu and holds this few cards is worth a bomb.
TICHU_DANGER_CARDS = 7


def is_bomb_play(play: Play) -> bool:
    return classify(play.cards, play.phoenix_as).is_bomb


def highest_readings(plays: Sequence[Play]) -> list[Play]:
    """The plays with each set of cards read only the highest way the Phoenix allows.

    ``3s 3p 9j 9p PH`` is nines over threes or threes over nines: the same cards
    leave the same hand, and the higher reading beats all the lower one does.
    """
    best: dict[frozenset[Card], tuple[int, float]] = {}  # cards: (where kept, its rank)
    kept: list[Play] = []
    for play in plays:
        if play.phoenix_as is None:
            kept.append(play)
            continue
        rank = (play.combo or classify(play.cards, play.phoenix_as)).rank
        at = best.get(play.cards)
        if at is None:
            best[play.cards] = (len(kept), rank)
            kept.append(play)
        elif rank > at[1]:
            best[play.cards] = (at[0], rank)
            kept[at[0]] = play
    return kept


def single_strength(c: Card) -> float:
    """How high a card stands as a single: the Phoenix just below the Dragon."""
    if c.kind == "PH":
        return 14.5
    return float(c.rank)


def grand_strength(cards: Sequence[Card]) -> float:
    """Score of the first 8 cards for Grand Tichu: the Dragon, the Phoenix, Aces, Kings and bombs."""
    worth = {"DR": 3.5, "PH": 3.0}
    score = 0.0
    for c in cards:
        if c.is_natural:
            score += {14: 2.0, 13: 0.75}.get(c.rank, 0.0)
        else:
            score += worth.get(c.kind, 0.0)
    return score + 4.0 * len(shape_of(cards).bombs)


def bomb_order(play: Play) -> tuple[int, int, float]:
    """The engine's bomb order (rules.md R9.3), lowest first."""
    return classify(play.cards, play.phoenix_as).bomb_key


class BasicBot(Bot):
    level = "basic"
    tichu_max_cost = TICHU_MAX_COST
    grand_min_strength = GRAND_MIN_STRENGTH

    def __init__(self, seat: int, rng: Random):
        super().__init__(seat, rng)
        self.begin_round(seat)

    def begin_round(self, seat: int) -> None:
        super().begin_round(seat)
        self.variant: Variant = NANJING  # until a view tells (every decision starts with one)
        self.seen: set[Card] = set()  # cards played in public this round
        self.given_to_partners: set[int] = set()  # the ranks we passed to partners
        self.tichu_considered = False
        self.played_any = False
        self._costs: dict[int, float] = {}

    def observe(self, event: Event) -> None:
        if isinstance(event, Played):
            self.seen |= event.combo.cards
            if event.seat == self.seat:
                self.played_any = True

    # ------------------------------------------------------------------ the decisions

    def choose(self, view: RoundView, legal: Sequence[Action]) -> Action:
        self.variant = view.variant
        if view.phase == "grand":
            return self._grand(view)
        if view.phase == "exchange":
            return self._exchange(view)
        if not self.tichu_considered and CallTichu(self.seat) in legal:
            self.tichu_considered = True
            if self._wants_tichu(view):
                return CallTichu(self.seat)
        if view.need == "wish":
            return self._wish(view)
        if view.need == "give":
            return self._give(view)
        if view.need == "dog":
            return self._dog_lead(view, legal)
        if view.need == "lead":
            return self._lead(view, legal)
        return self._follow(view, legal)

    def interrupt(self, view: RoundView, legal: Sequence[Action]) -> Action | None:
        """Bomb out of turn only to stop an opponent's trick that matters (see `_bomb_worth_it`)."""
        self.variant = view.variant
        bombs = [a for a in legal if isinstance(a, Play)]
        if not bombs or view.top is None or not self._bomb_worth_it(view, bombs):
            return None
        return min(bombs, key=bomb_order)

    # ------------------------------------------------------------------ calls

    def _partner_called(self, view: RoundView) -> bool:
        return any(view.calls[p] is not None for p in self.partners)

    def _grand(self, view: RoundView) -> Action:
        my_hand = seat_hand(view)
        if not self._partner_called(view) and grand_strength(my_hand) >= self.grand_min_strength:
            return CallGrand(self.seat)
        return DeclineGrand(self.seat)

    def _wants_tichu(self, view: RoundView) -> bool:
        my_hand = seat_hand(view)
        if self._partner_called(view) or self.played_any:
            return False
        return self._cost(mask_of(my_hand)) <= self.tichu_max_cost

    # ------------------------------------------------------------------ exchange

    def _exchange(self, view: RoundView) -> Exchange:
        """Opponents get the cards the hand misses least (the lower one to the right), each
        partner a high card we can spare."""
        hand = list(seat_hand(view))
        bomb_cards = shape_of(hand).bomb_cards
        keep = set(hand)
        targets = self.variant.exchange_targets[self.seat]
        to_opponents = []
        for _ in range(sum(t in self.opponents for t in targets)):
            base = self._cost(mask_of(keep))
            options = [c for c in keep if c.kind not in ("PH", "DR")]
            pick = min(options, key=lambda c: (c in bomb_cards,
                                               self._cost(mask_of(keep - {c})) - base + 0.3 * c.points,
                                               c.sort_key()))
            to_opponents.append(pick)
            keep.discard(pick)
        to_partners = {}
        for target in targets:
            if target in self.partners:
                to_partners[target] = self._card_for_partner(view, keep, bomb_cards, target)
                keep.discard(to_partners[target])
                self.given_to_partners.add(to_partners[target].rank)
        opponent_cards = iter(sorted(to_opponents, key=lambda c: c.sort_key()))
        return Exchange(self.seat, tuple(to_partners[t] if t in to_partners else next(opponent_cards)
                                         for t in targets))

    def _card_for_partner(self, view: RoundView, keep: set[Card], bomb_cards: frozenset[Card], partner: int) -> Card:
        base = self._cost(mask_of(keep))

        def loss(c: Card) -> float:
            return self._cost(mask_of(keep - {c})) - base

        if view.calls[partner] == "grand":
            options = [c for c in keep if c not in bomb_cards and c.kind != "DG"]
            return max(options, key=lambda c: (single_strength(c) if c.kind != "DR" else 16.0,
                                               -loss(c), c.sort_key()))
        options = [c for c in keep if c.is_natural and c not in bomb_cards] or [
            c for c in keep if c.kind not in ("PH", "DR")]
        if view.calls[self.seat] == "grand":
            return min(options, key=lambda c: (loss(c), c.sort_key()))
        return max(options, key=lambda c: (c.rank - 0.5 * max(0.0, loss(c) + 5.0), c.sort_key()))

    # ------------------------------------------------------------------ play

    def _wish(self, view: RoundView) -> MakeWish:
        """The highest rank we lack, that our partner did not get from us, and that is still out."""
        my_hand = seat_hand(view)
        held = {c.rank for c in my_hand if c.is_natural}
        gone = self.seen | set(my_hand)
        for rank in range(14, 1, -1):
            if rank in held or rank in self.given_to_partners:
                continue
            if any(c.is_natural and c.rank == rank and c not in gone for c in DECK):
                return MakeWish(self.seat, rank)
        return MakeWish(self.seat, None)

    def _give(self, view: RoundView) -> GiveDragon:
        """The opponent most likely to finish last, whose pile then goes to the first one out."""
        def worse_placed(opponent: int) -> tuple[bool, bool, int, int]:
            active = opponent not in view.finish_order
            return (active, not view.calls[opponent], view.hand_counts[opponent], -opponent)
        target = max(self.opponents, key=worse_placed)
        return GiveDragon(self.seat, target)

    def _dog_lead(self, view: RoundView, legal: Sequence[Action]) -> DogLead:
        """The Dog's lead (Tientsin): to a partner still in who called, else the one with fewest cards."""
        choices = [a for a in legal if isinstance(a, DogLead)]

        def better(choice: DogLead) -> tuple[bool, bool, int, int]:
            p = choice.to
            active = p not in view.finish_order
            return (active, active and view.calls[p] is not None, -view.hand_counts[p], -p)
        return max(choices, key=better)

    def _lead(self, view: RoundView, legal: Sequence[Action]) -> Action:
        my_hand = seat_hand(view)
        plays = highest_readings([a for a in legal if isinstance(a, Play)])
        options = [p for p in plays if not is_bomb_play(p)] or plays
        hand_mask = mask_of(my_hand)
        base = self._cost(hand_mask)
        opponent_on_one = any(view.hand_counts[o] == 1 for o in self.opponents
                              if o not in view.finish_order)
        partners_in = [p for p in self.partners if p not in view.finish_order]

        def score(play: Play) -> float:
            rest = hand_mask & ~mask_of(play.cards)
            value = self._cost(rest) - base - 0.4 * (len(play.cards) - 1)
            if len(play.cards) == 1:
                (c,) = play.cards
                if c.kind == "DG":
                    if any(view.calls[p] for p in partners_in):
                        value -= 15.0  # hand the lead to the partner who called
                    elif not partners_in:
                        value += 5.0
                elif opponent_on_one:
                    value += 20.0 - single_strength(c)
                if rest and self._is_boss(c, view) and combo_count(shape_of(cards_of(rest))) <= 1:
                    value -= 30.0  # win this trick, then lead out
            return value

        return self._best(options, score)

    def _follow(self, view: RoundView, legal: Sequence[Action]) -> Action:
        my_hand = seat_hand(view)
        plays = highest_readings([a for a in legal if isinstance(a, Play)])
        can_pass = Pass(self.seat) in legal
        hand_mask = mask_of(my_hand)
        partner_tichu_alive = self._partner_called(view) and not view.finish_order
        going_out = [p for p in plays if len(p.cards) == len(my_hand)]
        if going_out and not partner_tichu_alive:
            return min(going_out, key=is_bomb_play)
        if can_pass and view.top_seat in self.partners:
            return Pass(self.seat)
        base = self._cost(hand_mask)

        def score(play: Play) -> float:
            return self._cost(hand_mask & ~mask_of(play.cards)) - base

        normal = [p for p in plays if not is_bomb_play(p)]
        bombs = [p for p in plays if is_bomb_play(p)]
        if not can_pass:
            return self._best(normal or plays, score)
        if normal:
            pick = self._best(normal, score)
            if score(pick) <= self._follow_threshold(view):
                return pick
        if bombs and self._bomb_worth_it(view, bombs):
            return min(bombs, key=bomb_order)
        return Pass(self.seat)

    # ------------------------------------------------------------------ judgement

    def _follow_threshold(self, view: RoundView) -> float:
        """Fight harder when an opponent is close to going out, has called, or the trick is rich."""
        pressed = any(o not in view.finish_order and (view.hand_counts[o] <= DANGER_CARDS
                                                       or (view.calls[o] and not view.finish_order))
                      for o in self.opponents)
        if pressed or view.calls[self.seat] or self._trick_points(view) >= 20:
            return FOLLOW_THRESHOLD_PRESSED
        return FOLLOW_THRESHOLD

    def _bomb_worth_it(self, view: RoundView, bombs: Sequence[Play]) -> bool:
        """Bomb an opponent's trick if he is about to go out, his Tichu is near, it is rich, or we go out."""
        my_hand = seat_hand(view)
        owner = view.top_seat
        if owner is None or self.variant.teams[owner] == self.variant.teams[self.seat]:
            return False
        owner_in = owner not in view.finish_order
        if owner_in and view.hand_counts[owner] <= DANGER_CARDS:
            return True
        if owner_in and view.calls[owner] and not view.finish_order \
                and view.hand_counts[owner] <= TICHU_DANGER_CARDS:
            return True
        if self._trick_points(view) >= 25:
            return True
        hand_mask = mask_of(my_hand)
        lowest = min(bombs, key=bomb_order)
        rest = hand_mask & ~mask_of(lowest.cards)
        return combo_count(shape_of(cards_of(rest))) <= 1

    def _is_boss(self, c: Card, view: RoundView) -> bool:
        """Whether no card still out can beat this single (bombs aside)."""
        my_hand = seat_hand(view)
        if c.kind == "DR":
            return True
        gone = self.seen | set(my_hand)
        out = [d for d in DECK if d not in gone]
        if c.kind == "PH":
            return all(d.kind != "DR" for d in out)
        return all(d.kind not in ("DR", "PH") and not (d.is_natural and d.rank > c.rank) for d in out)

    @staticmethod
    def _trick_points(view: RoundView) -> int:
        return sum(c.points for _, combo in view.trick for c in combo.cards)

    def _best(self, options: Sequence[Play], score: Callable[[Play], float]) -> Play:
        """The lowest-scoring option; equal scores are split by the random generator."""
        scored = [(round(score(p), 6), p) for p in options]
        low = min(s for s, _ in scored)
        return self.rng.choice([p for s, p in scored if s == low])

    def _cost(self, mask: int) -> float:
        cost = self._costs.get(mask)
        if cost is None:
            cost = self._costs[mask] = hand_cost(cards_of(mask))
        return cost

    @property
    def partner(self) -> int:
        """The one partner (not in Tientsin: `partners`)."""
        return self.variant.partner_of(self.seat)

    @property
    def partners(self) -> tuple[int, ...]:
        return self.variant.partners[self.seat]

    @property
    def opponents(self) -> tuple[int, ...]:
        """In turn order from the seat: the right opponent first."""
        return self.variant.opponents[self.seat]
