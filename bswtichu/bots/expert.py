"""The `expert` level: card counting, inference and a search over the hidden hands.

For every decision that matters, the bot shortlists a few candidate actions
(`basic`'s choice first, then the plays `basic`'s judgement ranks best), deals
the cards it cannot see many times over, consistent with everything its seat
has seen (`search`), and plays each deal out once per candidate with a fast
policy.  Every candidate is tried on the same deals, so its gain over
`basic`'s choice is measured deal by deal, and the bot leaves that choice only
for a gain the deals make clear (`CONFIDENCE`).

The search is budgeted in *playouts*, not in seconds: the same seed and the
same events give the same decision on any machine, so a game can be replayed
and restored.  ``budget`` playouts are shared by the candidates of a decision.

A few partnership rules stand above the search: never overtake a partner's
trick when a pass is allowed (and never go out over him while his Tichu is
alive), hand the lead to a partner who called with the Dog.

It plays every variant: seats, partners, opponents, the exchange, the Dog's
lead and the scoring come from the view's `Variant` (`search`), and a hand the
seat sees open (Trichu's dummy, `RoundView.open_hand`) is kept as it is in
every sampled deal.
"""

from __future__ import annotations

from random import Random
from typing import Iterator, Sequence, TypeVar

from ..engine import (
    DECK, Action, CallGrand, Card, DeclineGrand, DogLead, Event, Exchange, GiveDragon, Pass, Play, RoundView,
)
from ..engine.cards import mask_of
from ..engine.combos import classify
from .base import DEFAULT_EXPERT_BUDGET, BotSettings, seat_hand
from .basic import BasicBot, bomb_order, grand_strength, is_bomb_play
from .search import (
    MAHJONG, CardCounter, Playout, counts_of, sample_hands, slot_of, table_combo,
)

#: How many plays (besides passing and the lowest bomb) the search compares.
#: What a search chooses among: actions of one kind, or a bomb and None (no bomb).
Choice = TypeVar("Choice", bound="Action | None")

LEAD_CANDIDATES = 5
FOLLOW_CANDIDATES = 4
#: Call Tichu when the playouts see us go out first at least this often.
TICHU_MIN_CHANCE = 0.62
#: ... and Grand Tichu (its stake is double, its hand only 8 cards known).
GRAND_MIN_CHANCE = 0.6
#: Hands priced above this (see handeval) never call Tichu; below `GRAND_MIN_STRENGTH` no Grand Tichu.
TICHU_MAX_COST = 26.0
GRAND_MIN_STRENGTH = 7.0
#: A call is decided once a round and costs 100 or 200 points when wrong: it gets at least this many playouts.
CALL_PLAYOUTS = 100
#: Leave `basic`'s choice only for an option whose gain over it is this many standard errors above zero.
CONFIDENCE = 1.0
BONUS = {None: 0, "tichu": 100, "grand": 200}


class ExpertBot(BasicBot):
    level = "expert"

    @classmethod
    def made_for(cls, seat: int, rng: Random, settings: BotSettings) -> "ExpertBot":
        return cls(seat, rng, settings.expert_budget)

    def __init__(self, seat: int, rng: Random, budget: int = DEFAULT_EXPERT_BUDGET):
        if budget < 1:
            raise ValueError("the expert budget is a number of playouts, at least 1")
        self.budget = budget
        super().__init__(seat, rng)

    def begin_round(self, seat: int) -> None:
        super().begin_round(seat)
        self.counter = CardCounter(seat)
        self._bomb_decisions: dict[tuple[object, ...], Action | None] = {}

    def observe(self, event: Event) -> None:
        super().observe(event)
        self.counter.observe(event)

    # ------------------------------------------------------------------ the decisions

    def _exchange(self, view: RoundView) -> Exchange:
        """Basic's exchange, remembered: the counter knows who got which of its cards."""
        action = super()._exchange(view)
        self.counter.give(action.cards, self.variant.exchange_targets[self.seat])
        return action

    def interrupt(self, view: RoundView, legal: Sequence[Action]) -> Action | None:
        """Bomb out of turn when the search says the bomb gains points; asked once per table state."""
        self.variant = view.variant
        bombs = [a for a in legal if isinstance(a, Play)]
        if not bombs or view.top is None or view.top_seat is None or view.need not in ("lead", "follow"):
            return None
        if view.top_seat in self.partners or view.top_seat == self.seat \
                or not self._bomb_worth_searching(view, bombs):
            return None
        key = (len(view.trick), view.top_seat, view.turn, view.trick_won, view.hand_counts)
        if key not in self._bomb_decisions:
            lowest = min(bombs, key=bomb_order)
            default = 1 if self._bomb_worth_it(view, bombs) else 0
            self._bomb_decisions[key] = self._best_by_search(view, [None, lowest], default)
        return self._bomb_decisions[key]

    # ------------------------------------------------------------------ calls

    def _grand(self, view: RoundView) -> Action:
        """Grand Tichu if the playouts of sampled full deals see us out first often enough."""
        my_hand = seat_hand(view)
        if self._partner_called(view) or grand_strength(my_hand) < GRAND_MIN_STRENGTH:
            return DeclineGrand(self.seat)
        variant = self.variant
        seats = range(variant.seats)
        mine = set(my_hand)
        pool = [c for c in DECK if c not in mine]
        sizes_options = _full_hand_sizes(view)
        first = 0
        playouts = max(self.budget, CALL_PLAYOUTS)
        for _ in range(playouts):
            self.rng.shuffle(pool)
            sizes = sizes_options[0] if len(sizes_options) == 1 else self.rng.choice(sizes_options)
            more = sizes[self.seat] - len(my_hand)
            hands: list[list[int]] = [[] for _ in seats]
            rest = pool[more:]
            for s in seats:
                if s == self.seat:
                    hands[s] = counts_of(list(my_hand) + pool[:more])
                else:
                    hands[s], rest = counts_of(rest[:sizes[s]]), rest[sizes[s]:]
            leader = next(s for s in seats if hands[s][MAHJONG])
            nobody = (0,) * variant.seats
            state = Playout(variant, hands, (), None, None, 0, nobody, leader, 0, nobody)
            state.run()
            first += bool(state.out) and state.out[0] == self.seat
        if first / playouts >= GRAND_MIN_CHANCE:
            return CallGrand(self.seat)
        return DeclineGrand(self.seat)

    def _wants_tichu(self, view: RoundView) -> bool:
        """Tichu if the playouts from here see us go out first often enough."""
        my_hand = seat_hand(view)
        if self._partner_called(view) or self.played_any or view.finish_order:
            return False
        if self._cost(mask_of(my_hand)) > TICHU_MAX_COST:
            return False
        first = 0
        playouts = max(self.budget, CALL_PLAYOUTS)
        for hands in self._deals(view, playouts):
            state = self._position(view, hands)
            state.run()
            first += state.out[0] == self.seat
        return first / playouts >= TICHU_MIN_CHANCE

    # ------------------------------------------------------------------ play

    def _give(self, view: RoundView) -> GiveDragon:
        """The Dragon trick to the opponent where it costs us least, as the playouts price it."""
        options = [GiveDragon(self.seat, o) for o in self.opponents]
        return self._best_by_search(view, options, options.index(super()._give(view)))

    def _dog_lead(self, view: RoundView, legal: Sequence[Action]) -> DogLead:
        """The Dog's lead (Tientsin) to the partner the playouts price best; `basic`'s choice by default."""
        options = [a for a in legal if isinstance(a, DogLead)]
        return self._best_by_search(view, options, options.index(super()._dog_lead(view, legal)))

    def _lead(self, view: RoundView, legal: Sequence[Action]) -> Action:
        my_hand = seat_hand(view)
        plays = [a for a in legal if isinstance(a, Play)]
        out_at_once = [p for p in plays if len(p.cards) == len(my_hand)]
        if out_at_once:
            return min(out_at_once, key=is_bomb_play)
        dog = [p for p in plays if any(c.kind == "DG" for c in p.cards)]
        if dog and self._partner_tichu_alive(view):
            return dog[0]  # the lead to the partner who called
        normal = [p for p in plays if not is_bomb_play(p)] or plays
        hand_mask = mask_of(my_hand)
        base = self._cost(hand_mask)

        def cost(play: Play) -> float:
            return self._cost(hand_mask & ~mask_of(play.cards)) - base - 0.4 * (len(play.cards) - 1)

        ranked = sorted(normal, key=lambda p: (round(cost(p), 6), _play_key(p)))
        default = super()._lead(view, legal)
        candidates = [default] + [p for p in ranked[:LEAD_CANDIDATES] + dog if p != default]
        return self._best_by_search(view, list(dict.fromkeys(candidates)), 0)

    def _follow(self, view: RoundView, legal: Sequence[Action]) -> Action:
        my_hand = seat_hand(view)
        plays = [a for a in legal if isinstance(a, Play)]
        can_pass = Pass(self.seat) in legal
        going_out = [p for p in plays if len(p.cards) == len(my_hand)]
        if going_out and not self._partner_tichu_alive(view):
            return min(going_out, key=is_bomb_play)
        if can_pass and view.top_seat in self.partners:
            return Pass(self.seat)  # never overtake a partner
        if not plays:
            return Pass(self.seat)
        hand_mask = mask_of(my_hand)
        base = self._cost(hand_mask)

        def cost(play: Play) -> float:
            return self._cost(hand_mask & ~mask_of(play.cards)) - base

        normal = sorted((p for p in plays if not is_bomb_play(p)),
                        key=lambda p: (round(cost(p), 6), _play_key(p)))
        bombs = sorted((p for p in plays if is_bomb_play(p)), key=bomb_order)
        default = super()._follow(view, legal)
        candidates: list[Action] = [default, Pass(self.seat)] if can_pass else [default]
        candidates += normal[:FOLLOW_CANDIDATES]
        if bombs:
            candidates.append(bombs[0])
        candidates = list(dict.fromkeys(candidates))
        if len(candidates) == 1:
            return candidates[0]
        return self._best_by_search(view, candidates, 0)

    def _partner_tichu_alive(self, view: RoundView) -> bool:
        return self._partner_called(view) and not view.finish_order

    def _bomb_worth_searching(self, view: RoundView, bombs: Sequence[Play]) -> bool:
        """Cheap gate before a bomb search: the trick or the owner's hand must matter."""
        owner: int = view.top_seat  # type: ignore[assignment]  # a bomb is searched only onto a top
        return (self._bomb_worth_it(view, bombs) or view.hand_counts[owner] <= 5
                or (view.calls[owner] is not None and not view.finish_order)
                or self._trick_points(view) >= 15)

    # ------------------------------------------------------------------ the search

    def _best_by_search(self, view: RoundView, candidates: Sequence[Choice], default: int) -> Choice:
        """``candidates[default]`` (`basic`'s choice), unless the search is confident another gains more.

        Every candidate is played on the same deals, so its gain over the
        default is measured deal by deal; a candidate must gain `CONFIDENCE`
        standard errors above zero, and the one whose gain is surest wins.
        With a small budget the bot so stays close to `basic`, with a large
        one it follows the search.
        """
        values = self._search(view, candidates)
        deals = len(values[0])
        if deals < 2:
            return candidates[default]
        best, best_bound = default, 0.0
        for i, mine in enumerate(values):
            if i == default:
                continue
            gains = [a - b for a, b in zip(mine, values[default])]
            mean = sum(gains) / deals
            spread = (sum((g - mean) ** 2 for g in gains) / (deals - 1)) ** 0.5
            bound = mean - CONFIDENCE * spread / deals ** 0.5
            if bound > best_bound:
                best, best_bound = i, bound
        return candidates[best]

    def _search(self, view: RoundView, candidates: Sequence[Action | None]) -> list[list[int]]:
        """Each candidate's score difference (our team minus theirs) on each of the sampled deals."""
        deals = max(1, self.budget // len(candidates))
        values: list[list[int]] = [[] for _ in candidates]
        team = self.variant.teams[self.seat]
        for hands in self._deals(view, deals):
            for i, action in enumerate(candidates):
                score = self._position(view, hands, action).run()
                values[i].append(score[team] - score[1 - team])
        return values

    def _deals(self, view: RoundView, count: int) -> Iterator[list[list[int]]]:
        """``count`` deals of the hidden cards as playout hands (cards per rank slot)."""
        my_hand = seat_hand(view)
        dummy = view.variant.dummy
        open_hands: dict[int, Sequence[Card]] | None = None
        if view.open_hand is not None:
            open_hands = {dummy: view.open_hand}  # type: ignore[dict-item]  # an open hand is the dummy's
        for _ in range(count):
            hands = sample_hands(self.counter, my_hand, view.hand_counts, self.rng, open_hands)
            yield [counts_of(h) for h in hands]

    def _position(self, view: RoundView, hands: Sequence[Sequence[int]], action: Action | None = None) -> Playout:
        """The playout position of ``view`` with these hands, after our ``action`` (None: nothing)."""
        trick_points = sum(c.points for _, combo in view.trick for c in combo.cards)
        top = table_combo(view.top) if view.top is not None else None
        state = Playout(view.variant, hands, view.finish_order, top, view.top_seat, trick_points,
                        view.points_taken, view.turn, len(self.counter.passed),  # type: ignore[arg-type]  # searched in play: someone has the turn
                        [BONUS[c] for c in view.calls])
        bomb = isinstance(action, Play) and view.top is not None and is_bomb_play(action)
        if view.need == "lead" and view.trick_won and not bomb:
            state.collect()
            state.turn = view.turn  # type: ignore[assignment]  # the leader's, in play
        if action is None:
            return state
        if isinstance(action, GiveDragon):
            state.collect(to=action.to)
        elif isinstance(action, DogLead):
            state.send_lead(action.to)
        elif isinstance(action, Pass):
            state.pass_turn(self.seat)
        elif isinstance(action, Play):
            combo = classify(action.cards, action.phoenix_as)
            combo = combo.played_over(view.top if view.need != "lead" or bomb else None)
            state.play(self.seat, table_combo(combo), [slot_of(c) for c in action.cards])
        return state


def _full_hand_sizes(view: RoundView) -> list[tuple[int, ...]]:
    """The hand sizes the deal may end with, as far as the Grand Tichu phase shows them.

    A seat that has decided (or needs not) already holds all its cards; where
    the hands differ in size (Tientsin) and the dealer cannot be told, every
    dealer that fits is an option.
    """
    variant = view.variant
    grand = variant.grand_after
    options = []
    for dealer in range(variant.seats):
        sizes = variant.hand_sizes(dealer)
        if all(n == grand or n == size for n, size in zip(view.hand_counts, sizes)) and sizes not in options:
            options.append(sizes)
    return options or [variant.hand_sizes()]


def _play_key(play: Play) -> tuple[tuple[int, ...], int]:
    """A fixed order of plays, so ties do not depend on set iteration order."""
    return tuple(sorted(c.index for c in play.cards)), play.phoenix_as or 0
