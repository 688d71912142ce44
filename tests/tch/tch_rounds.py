"""Random rounds for the log tests (a module of its own: test modules do not import each other)."""

from __future__ import annotations

import random

from bswtichu.engine import OVER, Exchange, Game, GameOptions, Round


def random_options(rnd: Round, rng: random.Random, keep) -> list:
    """Every seat's legal actions that ``keep`` accepts; in the exchange one random trio each."""
    options = []
    for seat in range(4):
        if rnd.phase == "exchange":
            if rnd.exchanges[seat] is None:
                hand = sorted(rnd.hands[seat], key=lambda c: c.index)
                options.append(Exchange(seat, tuple(rng.sample(hand, 3))))
            continue
        options += [a for a in rnd.iter_legal_actions(seat) if keep(a)]
    return options


def random_tournament(names, seed: int) -> list[tuple[Round, tuple]]:
    """A whole tournament (9 rounds, seats changing) of uniformly random legal actions of all
    seats: each round with its seat order."""
    game = Game(list(names), GameOptions(turnier=True), rng=random.Random(seed))
    rng = random.Random(seed + 1)
    rounds = []
    while not game.over:
        game.start_round()
        rnd = game.round
        while rnd.phase != OVER:
            if rnd.phase == "exchange":
                seat = next(s for s in range(4) if rnd.exchanges[s] is None)
                game.apply(Exchange(seat, tuple(rng.sample(sorted(rnd.hands[seat], key=lambda c: c.index), 3))))
            else:
                game.apply(rng.choice([a for s in range(4) for a in rnd.legal_actions(s)]))
        rounds.append((rnd, game.seating))
    return rounds
