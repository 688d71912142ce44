"""The fast play generator `plays(hand, top)` against a brute-force reference.

The reference classifies every subset of the hand with `readings()` and keeps
the readings that may go onto the table (`played_over` + `beats`).  The
generator must yield exactly that set of combinations, each once.
"""

from itertools import combinations
from random import Random

import pytest

from bswtichu.engine import DECK, ComboType, bombs, classify, parse_cards, plays, readings
from bswtichu.engine.cards import natural

SPECIALS = {c.text: c for c in DECK[52:]}
NATURALS = DECK[:52]


def key(c):
    return (c.mask, c.phoenix_as, c.type, c.rank, c.length)


def reference(hand, top):
    hand = list(hand)
    out = set()
    for size in range(1, len(hand) + 1):
        for subset in combinations(hand, size):
            for r in readings(subset):
                placed = r.played_over(top)
                if top is None or placed.beats(top):
                    out.add(key(placed))
    return out


def check(hand, top):
    got = [key(c) for c in plays(hand, top)]
    assert len(got) == len(set(got)), f"duplicates in plays({hand}, {top})"
    expected = reference(hand, top)
    missing = expected - set(got)
    extra = set(got) - expected
    assert not missing and not extra, (
        f"hand {sorted(c.text for c in hand)} top {top!r}: "
        f"missing {[describe(k) for k in missing][:5]} extra {[describe(k) for k in extra][:5]}")
    # bombs() is the bomb part of plays()
    expected_bombs = {k for k in expected if k[2] in (ComboType.FOUR_BOMB, ComboType.STRAIGHT_FLUSH)}
    assert {key(b) for b in bombs(hand, top)} == expected_bombs


def describe(k):
    mask, ph, t, rank, length = k
    cards = [c.text for c in DECK if c.bit & mask]
    return f"{t.value} {rank} {cards} PH={ph}"


def random_top(rng: Random, exclude):
    """A random combination from cards not in the hand, as it would lie on the table."""
    rest = [c for c in DECK if c not in exclude]
    while True:
        sample = rng.sample(rest, min(len(rest), rng.choice([6, 8, 10])))
        options = [c for c in plays(sample, None) if c.type is not ComboType.DOG]
        if options:
            pick = rng.choice(options)
            if pick.type is ComboType.SINGLE and pick.cards == {SPECIALS["PH"]}:
                below = rng.choice([None, classify([rng.choice([c for c in rest if c.is_natural])])])
                return pick.played_over(below)
            return pick


def random_hand(rng: Random, size: int):
    return rng.sample(DECK, size)


def adversarial_hand(rng: Random, size: int):
    """Hands rich in long straights, pairs, bombs, the Phoenix and the Mahjong."""
    kind = rng.randrange(5)
    cards = set()
    if kind == 0:  # Phoenix + a long run with gaps, Mahjong often
        cards.add(SPECIALS["PH"])
        if rng.random() < 0.6:
            cards.add(SPECIALS["MJ"])
        low = rng.randint(2, 6)
        for r in range(low, min(14, low + size)):
            cards.add(natural(r, rng.choice("jspr")))
    elif kind == 1:  # stairs: pairs of consecutive ranks, plus the Phoenix
        cards.add(SPECIALS["PH"])
        low = rng.randint(2, 10)
        for r in range(low, min(15, low + 4)):
            for s in rng.sample("jspr", rng.choice([1, 2, 2, 3])):
                cards.add(natural(r, s))
    elif kind == 2:  # bombs: a four of a kind and a straight flush
        r = rng.randint(2, 14)
        cards |= {natural(r, s) for s in "jspr"}
        suit = rng.choice("jspr")
        low = rng.randint(2, 9)
        cards |= {natural(x, suit) for x in range(low, low + rng.randint(5, 6))}
    elif kind == 3:  # two full houses' worth of pairs and triples + Phoenix
        cards.add(SPECIALS["PH"])
        for r in rng.sample(range(2, 15), 4):
            for s in rng.sample("jspr", rng.choice([2, 3])):
                cards.add(natural(r, s))
    else:  # Mahjong low straights, Dog, Dragon
        cards |= {SPECIALS["MJ"], SPECIALS["DG"], SPECIALS["DR"]}
        for r in range(2, 2 + size):
            if r <= 14:
                cards.add(natural(r, rng.choice("jspr")))
    cards = list(cards)
    rng.shuffle(cards)
    cards = cards[:size]
    while len(cards) < size:
        c = rng.choice(DECK)
        if c not in cards:
            cards.append(c)
    return cards


@pytest.mark.parametrize("seed", range(20))
def test_random_hands_leading_and_following(seed):
    rng = Random(1000 + seed)
    for _ in range(8):
        hand = random_hand(rng, rng.randint(3, 9))
        check(hand, None)
        check(hand, random_top(rng, hand))


@pytest.mark.parametrize("seed", range(25))
def test_adversarial_hands_leading_and_following(seed):
    rng = Random(2000 + seed)
    for _ in range(6):
        hand = adversarial_hand(rng, rng.randint(6, 10))
        check(hand, None)
        for _ in range(2):
            check(hand, random_top(rng, hand))


FIXED_HANDS = [
    "MJ 2j 3s 4p 5r 6j PH",
    "MJ 2j 3j 4j 5j 6j",
    "2j 3j 4j 5j 6j 7j PH 7s",
    "5j 5s 6p 6r 7j PH 8s 8p",
    "Jj Qs Kp Ar PH Tj",
    "7j 7s 7p 7r PH 9j 9s",
    "3j 4j 5j 6j 7j 3s 3p 3r",
    "MJ DG DR PH 2j 2s",
    "9j 9s Tj Ts Jj Js PH Qr",
]


@pytest.mark.parametrize("text", FIXED_HANDS)
def test_fixed_adversarial_hands(text):
    hand = parse_cards(text)
    check(hand, None)
    for top_text in ("2s", "MJ", "Ar", "DR", "3r 3p", "Ap As", "2p 2r 2s", "2s 3p 4r 5s 6p",
                     "3p 4r 5s 6p 7r 8r", "4r 4p 5s 5p", "2r 2p 2s Kp Kr",
                     "8r 8p 8s 8j", "9p Tp Jp Qp Kp"):
        top_cards = parse_cards(top_text)
        if set(top_cards) & set(hand):
            continue
        check(hand, classify(top_cards).played_over(None))
    # a Phoenix on the table, half a rank above a 9
    if SPECIALS["PH"] not in hand:
        check(hand, classify([SPECIALS["PH"]]).played_over(classify(parse_cards("9r"))))


@pytest.mark.parametrize("seed", range(6))
def test_full_14_card_hands(seed):
    rng = Random(3000 + seed)
    hand = adversarial_hand(rng, 14) if seed else random_hand(rng, 14)
    check(hand, None)
    check(hand, random_top(rng, hand))
