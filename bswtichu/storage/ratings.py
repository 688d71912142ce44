"""Ratings for registered players and bot levels, with openskill's Plackett-Luce model (made for teams).

After each finished game every registered player and every bot level in it gets
a new rating; guests play with the model's starting rating and keep nothing.
A level that fills two seats of one game gets the mean of its two updates.
The number shown is the ordinal (mu - 3 sigma): low while the model is unsure.

Each variant has ratings of its own (a player's Tientsin rating says nothing of
his 4-player one); the game's sides say how it is rated: two teams (the 4-player
game, Tientsin), four players (a tournament), three people each on his own
(Trichu, whose dummy is no one and not rated): docs/rules.md, docs/storage.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from openskill.models import PlackettLuce

from bswtichu.engine import NANJING
from .database import Connection

#: ratings without a variant named are the 4-player game's
DEFAULT_VARIANT = NANJING.name
MODEL = PlackettLuce()


def player_identity(name: str) -> str:
    return "player:" + name.casefold()


def bot_identity(level: str) -> str:
    return "bot:" + level


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a finished game: who (an identity, or None for a guest), on which side, which place."""

    identity: str | None
    side: int  # seats on one side are partners (2 sides; a tournament's 4, Trichu's 3: each alone)
    place: int  # 1 is best; equal places are a tie


def rating_of(db: Connection, identity: str, variant: str = DEFAULT_VARIANT) -> Rating | None:
    row = db.execute("SELECT mu, sigma, games FROM ratings WHERE identity = ? AND variant = ?",
                     (identity, variant)).fetchone()
    return Rating(*row) if row else None


def update_ratings(db: Connection, seats: Sequence[RatedSeat],
                   variant: str = DEFAULT_VARIANT) -> dict[str, Rating]:
    """Rate one finished game of ``variant``; returns the new ratings (guests' are not kept)."""
    if all(seat.identity is None for seat in seats):
        return {}  # guests only: nothing to keep, so nothing to compute
    sides = sorted({seat.side for seat in seats})
    teams, owners = [], []
    places: list[float] = []  # openskill's ranks: 1 is best
    for side in sides:
        members = [seat for seat in seats if seat.side == side]
        team = []
        for seat in members:
            known = rating_of(db, seat.identity, variant) if seat.identity else None
            team.append(MODEL.rating() if known is None else MODEL.rating(mu=known.mu, sigma=known.sigma))
            owners.append(seat.identity)
        teams.append(team)
        places.append(min(seat.place for seat in members))
    rated = MODEL.rate(teams, ranks=places)
    updates: dict[str, list] = {}
    for new, identity in zip((r for team in rated for r in team), owners):
        if identity is not None:
            updates.setdefault(identity, []).append(new)
    out = {}
    for identity, news in updates.items():
        mu = sum(r.mu for r in news) / len(news)
        sigma = sum(r.sigma for r in news) / len(news)
        old = rating_of(db, identity, variant)
        games = (old.games if old else 0) + 1
        db.execute("INSERT INTO ratings (identity, mu, sigma, games, variant) VALUES (?, ?, ?, ?, ?)"
                   " ON CONFLICT (variant, identity) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                   " games = excluded.games", (identity, mu, sigma, games, variant))
        out[identity] = Rating(mu, sigma, games)
    return out


@dataclass(frozen=True)
class LadderRow:
    """One rated identity on the ladder: a registered player's name as registered, or a bot level."""

    name: str
    rating: Rating


def ladder(db: Connection, bots: bool = False, variant: str = DEFAULT_VARIANT) -> list[LadderRow]:
    """Every rated registered player (or, with ``bots``, every bot level) of ``variant``, best ordinal first."""
    if bots:
        rows = db.execute("SELECT substr(identity, 5), mu, sigma, games FROM ratings"
                          " WHERE identity LIKE 'bot:%' AND variant = ?", (variant,))
    else:
        rows = db.execute("SELECT accounts.name, mu, sigma, games FROM ratings JOIN accounts"
                          " ON ratings.identity = 'player:' || accounts.name_key WHERE variant = ?", (variant,))
    found = [LadderRow(name, Rating(mu, sigma, games)) for name, mu, sigma, games in rows]
    return sorted(found, key=lambda row: (-row.rating.ordinal, row.name.casefold()))
