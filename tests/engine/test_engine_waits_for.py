"""The one rule for "does the round wait for this seat": the round and every view agree."""

from random import Random

from bswtichu.engine import OVER, Exchange, Round
from bswtichu.engine.round import EXCHANGE, GRAND, PLAY


def _expected(rnd: Round, seat: int) -> bool:
    if rnd.phase == GRAND:
        return not rnd.grand_decided[seat]
    if rnd.phase == EXCHANGE:
        return rnd.exchanges[seat] is None
    return rnd.phase == PLAY and rnd.waiting_for == seat


def test_round_and_views_wait_for_the_same_seats_through_random_rounds():
    rng = Random(20)
    checked = 0
    for _ in range(30):
        rnd = Round.deal_random(rng)
        while True:
            for seat in range(4):
                expected = _expected(rnd, seat)
                assert rnd.waits_for(seat) is expected
                assert all(rnd.view(viewer).waits_for(seat) is expected for viewer in (None, 0, 1, 2, 3))
                checked += 1
            if rnd.phase == OVER:
                break
            options = []
            for seat in range(4):
                if rnd.phase == EXCHANGE:
                    if rnd.exchanges[seat] is None:
                        options.append(Exchange(seat, tuple(sorted(rnd.hands[seat], key=lambda c: c.index)[:3])))
                else:
                    options.extend(rnd.iter_legal_actions(seat))
            rnd.apply(rng.choice(options))
        assert not any(rnd.waits_for(seat) for seat in range(4))
    assert checked > 1000
