"""A game's journal record: one step of a game, as the game layer writes it and storage keeps it.

A game is its journal: the deals and the ordered steps that rebuild it exactly
(`bswtichu.play.journal` writes the steps of a running game and replays them;
`bswtichu.storage.games` keeps them in SQLite). The record type lives here, below
both, so that storage needs nothing of the game layer to keep a game.

The kinds of entry:

- ``deal``: a round was dealt (its number and the 56 cards); a check on replay.
- ``act``: a person's accepted action.
- ``bot``: an action the bots took (a seat's bot or a stand-in).
- ``substitute`` / ``substitute_end``: a stand-in began or ended for a person.
- ``replace``: by a vote at his table a bot plays a person's seat for good.
- ``hand_over``: by a vote another person (``to``) plays a person's seat, as him, from then on.
- ``timeout``: a person's turn clock ran out and a stand-in made this decision
  for him (on replay it chooses again, so its seat's generator draws alike).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from bswtichu.engine import Action, Card

#: a person at a game: a server's nick, a headless match's name (anything hashable)
Player = Hashable

#: a game's one seed (`bswtichu.play.driver.GameSeeds`): what `random.Random` takes and the
#: storage's JSON keeps (a server's random int, a match's ``"S/i"``)
Seed = int | str

DEAL, ACT, BOT, SUBSTITUTE, SUBSTITUTE_END, TIMEOUT, REPLACE, HAND_OVER = (
    "deal", "act", "bot", "substitute", "substitute_end", "timeout", "replace", "hand_over")


@dataclass(frozen=True)
class JournalEntry:
    """One step of a game: ``round`` and ``deal`` for a deal, ``action`` for an act, ``player`` for a
    person (``to``: who takes his seat, for a hand-over)."""

    kind: str
    player: Player | None = None
    action: Action | None = None
    round: int | None = None
    deal: tuple[Card, ...] | None = None
    to: Player | None = None
