"""Random fields for the pairing's tests: players who come and go, rounds seated in sequence,
standings that move as random results would move them."""

from __future__ import annotations

from bswtichu.events.pairing import pair_pairs_round, seat_individual_round


def individual_event(rng, size, rounds, absence=0.1):
    """Seat ``rounds`` rounds of ``size`` players, each absent from a round with probability
    ``absence`` (never fewer than 4 present); yield (present, standings, earlier rounds, round)."""
    players = [f"p{i}" for i in range(size)]
    standings = {name: 0 for name in players}
    played = []
    for _ in range(rounds):
        present = [name for name in players if rng.random() >= absence]
        if len(present) < 4:
            present = players
        seated = seat_individual_round(present, dict(standings), list(played), rng)
        yield present, dict(standings), list(played), seated
        for table in seated.tables:
            for team in table.partnerships():
                gain = rng.choice((0, 0, 1, 2, 2, 3)) * 9  # VP over 9 deals, roughly
                for name in team:
                    standings[name] += gain
        for name in seated.byes:
            standings[name] += 9
        played.append(seated)


def pairs_event(rng, size, rounds, absence=0.1):
    """As individual_event, for ``size`` pairs (never fewer than 2 present)."""
    pairs = [f"t{i}" for i in range(size)]
    standings = {name: 0 for name in pairs}
    played = []
    for _ in range(rounds):
        present = [name for name in pairs if rng.random() >= absence]
        if len(present) < 2:
            present = pairs
        seated = pair_pairs_round(present, dict(standings), list(played), rng)
        yield present, dict(standings), list(played), seated
        for match in seated.matches:
            standings[rng.choice((match.first, match.second))] += 2
        if seated.bye is not None:
            standings[seated.bye] += 1
        played.append(seated)
