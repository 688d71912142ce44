"""Helpers shared by the engine tests (no tests here).

The main one builds a round in which every seat holds exactly the cards a test
asks for: it works backwards through the exchange, so the position is reached
only through the engine's public API (`Round(deal)` and `apply`).
"""

from __future__ import annotations

from random import Random

from bswtichu.engine import (
    DECK, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, Round,
    TichuError, parse_cards,
)
from bswtichu.engine.cards import SUITS, natural
from bswtichu.engine.round import EXCHANGE, GRAND, OVER, PLAY


def cards(text: str) -> list:
    return parse_cards(text)


def C(text: str) -> frozenset:
    """The cards of ``text`` as a frozenset (how `Play` stores them)."""
    return frozenset(parse_cards(text))


def complete_hands(hands: dict[int, str | list]) -> list[list]:
    """Fill the seats not fully given up to 14 cards, avoiding bombs in the filler.

    A leftover card of rank r and suit k goes to seat (k + r) % 4 if that seat
    still has room, so a seat gets at most one card of a rank and the suits
    change from rank to rank (no four of a kind, no straight flush) as far as
    the seats' room allows.
    """
    out: list[list] = [[] for _ in range(4)]
    for seat, given in hands.items():
        out[seat] = list(parse_cards(given) if isinstance(given, str) else given)
    used = [c for h in out for c in h]
    if len(used) != len(set(used)):
        raise ValueError("a card is given to two seats")
    if any(len(h) > 14 for h in out):
        raise ValueError("at most 14 cards per seat")
    leftover = [c for c in DECK if c not in set(used)]
    for c in leftover:
        if c.kind == "N":
            first = (SUITS.index(c.suit) + c.rank) % 4
        else:
            first = c.index % 4
        for step in range(4):
            seat = (first + step) % 4
            if len(out[seat]) < 14:
                out[seat].append(c)
                break
    assert all(len(h) == 14 for h in out)
    return out


def deal_for(hands: dict[int, str | list]) -> tuple[list, list[Exchange]]:
    """A deal and four exchanges after which seat s holds exactly the completed ``hands[s]``.

    Each seat receives three cards of its final hand (the last three of its
    hand as listed); before the exchange it holds the rest plus the three cards it
    gives away.
    """
    final = complete_hands(hands)
    # received[r][g]: the card seat r receives from seat g; take the last cards of r's hand.
    received = [{} for _ in range(4)]
    for r in range(4):
        givers = [(r + 3) % 4, (r + 2) % 4, (r + 1) % 4]  # seat r-1 gives to its +1 ...
        for g, c in zip(givers, final[r][-3:]):
            received[r][g] = c
    before = []
    exchanges = []
    for g in range(4):
        gives = tuple(received[(g + step) % 4][g] for step in (1, 2, 3))
        keep = final[g][:-3]
        before.append(keep + list(gives))
        exchanges.append(Exchange(g, gives))
    deal = [None] * 56
    for s in range(4):
        deal[8 * s: 8 * s + 8] = before[s][:8]
        deal[32 + 6 * s: 38 + 6 * s] = before[s][8:]
    return deal, exchanges


def position(hands: dict[int, str | list], grand_tichu: bool = False, **options) -> Round:
    """A round in the play phase with exactly these hands (others filled), nobody has acted."""
    deal, exchanges = deal_for(hands)
    rnd = Round(deal, grand_tichu=grand_tichu, **options)
    if grand_tichu:
        for s in range(4):
            rnd.apply(DeclineGrand(s))
    for e in exchanges:
        rnd.apply(e)
    assert rnd.phase == PLAY
    final = complete_hands(hands)
    for s in range(4):
        assert rnd.hands[s] == set(final[s])
    return rnd


def play(rnd: Round, seat: int, text: str, phoenix_as: int | None = None):
    return rnd.apply(Play(seat, parse_cards(text), phoenix_as))


def run(rnd: Round, script: str):
    """Apply a script of actions: ``"1: MJ; wish 7; 2: pass; 3: 7j 7s; 4: tichu; 1: give 2"``.

    Seats are people's seats 1..4; a bare ``wish R``/``give S`` uses the last seat named.
    """
    from bswtichu.engine import parse_wish
    seat = None
    for step in (s.strip() for s in script.split(";")):
        if not step:
            continue
        if ":" in step:
            head, step = step.split(":", 1)
            seat = int(head) - 1
            step = step.strip()
        if step == "pass":
            rnd.apply(Pass(seat))
        elif step == "tichu":
            rnd.apply(CallTichu(seat))
        elif step.startswith("wish "):
            rnd.apply(MakeWish(seat, parse_wish(step[5:])))
        elif step.startswith("give "):
            rnd.apply(GiveDragon(seat, int(step[5:]) - 1))
        else:
            ph = None
            tokens = []
            for t in step.split():
                if t.upper().startswith("PH="):
                    from bswtichu.engine import parse_rank
                    ph = parse_rank(t[3:])
                    t = "PH"
                tokens.append(t)
            rnd.apply(Play(seat, parse_cards(" ".join(tokens)), ph))
    return rnd


def rejected(rnd: Round, action) -> bool:
    """Whether ``action`` is refused with a TichuError and leaves the round unchanged."""
    before = snapshot(rnd)
    try:
        rnd.apply(action)
    except TichuError:
        assert snapshot(rnd) == before, "a rejected action changed the state"
        return True
    return False


def snapshot(rnd: Round):
    return (tuple(rnd.view(s) for s in (None, 0, 1, 2, 3)), tuple(rnd.history),
            tuple(frozenset(h) for h in rnd.hands), tuple(tuple(p) for p in rnd.piles),
            tuple(sorted(rnd.all_cards(), key=lambda c: c.index)))


def legal_plays(rnd: Round, seat: int) -> set:
    """The legal plays of ``seat`` as (cards, phoenix_as) pairs."""
    return {(a.cards, a.phoenix_as) for a in rnd.legal_actions(seat) if isinstance(a, Play)}


def legal_card_sets(rnd: Round, seat: int) -> set:
    return {a.cards for a in rnd.legal_actions(seat) if isinstance(a, Play)}


def can_pass(rnd: Round, seat: int) -> bool:
    return Pass(seat) in rnd.legal_actions(seat)


def random_trio(rng: Random, hand) -> tuple:
    return tuple(rng.sample(sorted(hand, key=lambda c: c.index), 3))


def random_step(rnd: Round, rng: Random):
    """Apply one uniformly chosen legal action of any seat (random trios in the exchange)."""
    if rnd.phase == EXCHANGE:
        seat = rng.choice([s for s in range(4) if rnd.exchanges[s] is None])
        action = Exchange(seat, random_trio(rng, rnd.hands[seat]))
    else:
        options = [a for s in range(4) for a in rnd.iter_legal_actions(s)]
        action = rng.choice(options)
    rnd.apply(action)
    return action


def play_out(rnd: Round, rng: Random, max_steps: int = 2000) -> Round:
    steps = 0
    while rnd.phase != OVER:
        random_step(rnd, rng)
        steps += 1
        assert steps < max_steps, "the round does not end"
    return rnd


__all__ = [
    "C", "cards", "complete_hands", "deal_for", "position", "play", "run", "rejected",
    "snapshot", "legal_plays", "legal_card_sets", "can_pass", "random_trio", "random_step",
    "play_out", "natural", "GRAND", "EXCHANGE", "PLAY", "OVER", "run13", "play_scripted",
    "NORMAL_HANDS", "NORMAL_SCRIPT", "DOUBLE_HANDS", "DOUBLE_SCRIPT",
]


# ---------------------------------------------------------------- scripted whole rounds

def run13(offset: int, extra: str = "") -> str:
    """The 13 naturals 2..A, rank r in suit (r + offset) % 4 (never a straight flush), plus extras."""
    text = " ".join(natural(r, SUITS[(r + offset) % 4]).text for r in range(2, 15))
    return text + (" " + extra if extra else "")


def _spr(offset: int) -> str:
    return " ".join(natural(r, "spr"[(r + offset) % 3]).text for r in range(2, 15))


def _shifted(script: str, shift: int) -> str:
    """People's seat numbers in ``N:`` and ``give N`` moved ``shift`` seats on."""
    import re
    move = lambda m: str((int(m.group(1)) - 1 + shift) % 4 + 1)
    script = re.sub(r"(?<![\w=])([1-4]):", lambda m: move(m) + ":", script)
    return re.sub(r"give ([1-4])", lambda m: "give " + move(m), script)


NORMAL_HANDS = {0: "MJ " + run13(0), 1: run13(1, "DG"), 2: run13(2, "PH"), 3: run13(3, "DR")}
#: First out: seat 1, then 2, then 4; seat 3 is the tail-ender.  Cards 50 : 50.
NORMAL_SCRIPT = ("1: MJ " + run13(0) + "; wish none; 2: pass; 3: pass; 4: pass; "
                 "2: " + run13(1) + "; 3: pass; 4: pass; 2: DG; "
                 "4: " + run13(3) + "; 3: pass; 4: DR; 4: give 1")

DOUBLE_HANDS = {2: "MJ " + _spr(0), 0: " ".join(natural(r, "j").text for r in range(2, 15)) + " DG",
                1: _spr(1) + " DR"}
#: Seat 3 goes out first, seat 1 second: a double victory for seats 1 and 3.
DOUBLE_SCRIPT = ("3: MJ " + _spr(0) + "; wish none; 4: pass; 1: pass; 2: pass; 4: 2p; "
                 "1: " + " ".join(natural(r, "j").text for r in range(2, 15)) + "; 2: pass; 4: pass; 1: DG")


def play_scripted(target, hands: dict, script: str, shift: int = 0, calls: str = "",
                  grand: bool = True):
    """Deal ``hands`` (moved ``shift`` seats on) into a `Game` or play them on a `Round`.

    ``target`` is a Game (a new round is started) or None (a new Round is made).
    ``calls`` is a script of calls made before the first play (seats also shifted).
    """
    moved = {(s + shift) % 4: h for s, h in hands.items()}
    deal, exchanges = deal_for(moved)
    if target is None:
        target = Round(deal, grand_tichu=grand)
        rnd = target
    else:
        target.start_round(deal)
        rnd = target.round
    if rnd.phase == GRAND:
        for s in range(4):
            target.apply(DeclineGrand(s))
    for e in exchanges:
        target.apply(e)
    if calls:
        run(target, _shifted(calls, shift))
    run(target, _shifted(script, shift))
    assert rnd.phase == OVER
    return rnd
