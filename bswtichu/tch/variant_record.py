"""A running game's variant log (docs/variant-log.md), written as its rounds finish.

The round's own record is the engine's: its deal and its history of actions,
each written in the engine's notation.  The game's totals after each round are
the engine's too: a scoring `Game` of its own replays each finished round once
(a restored game's early rounds were scored before this writer existed, and
`Game` keeps only the latest totals), so no scoring rule is copied here.
"""

from __future__ import annotations

from typing import Hashable, Sequence

from ..engine import DUMMY, Game, GameOptions, Round
from ..engine.deal import first_cards, last_cards
from ..engine.game import Seating
from ..engine.round import OVER
from .variant_log import DUMMY_NAME, GameEnd, LoggedAction, Outcome, VariantRound, end_text, header_text, round_text


def name_of(player: Hashable) -> str:
    """A player's name in the log: his own, the dummy's mark for the dummy."""
    return DUMMY_NAME if player is DUMMY else str(player)


def variant_round(rnd: Round, seating: Sequence[Hashable], number: int,
                  totals: tuple[int, ...] | None) -> VariantRound:
    """The log's values for a round (finished or not) played by ``seating``."""
    variant, dealer = rnd.variant, rnd.dealer
    seats = range(variant.seats)
    outcome = None
    if rnd.phase == OVER:
        result = rnd.result
        assert result is not None  # an ended round has its result
        outcome = Outcome(result.finish_order, result.double_victory is not None, result.score,
                          result.card_points, result.call_points)
    return VariantRound(
        number, tuple(name_of(p) for p in seating), dealer,
        tuple(tuple(first_cards(rnd.deal, s, variant, dealer)) for s in seats),
        tuple(tuple(last_cards(rnd.deal, s, variant, dealer)) for s in seats),
        tuple(LoggedAction(a) for a in rnd.history), outcome, totals)


class VariantLogWriter:
    """The text of one game's log, kept up to date: each finished round's text is made once
    (again only if its seating changed: a seat handed over takes the player's past too)."""

    def __init__(self) -> None:
        self._rounds: list[tuple[Seating, tuple[int, ...], str]] = []  # seating, totals, text
        self._scoring: Game | None = None

    def text(self, game: Game) -> str:
        """The log of ``game``'s finished rounds, and its end once it is over."""
        if self._scoring is None:
            self._scoring = Game(tuple(range(game.variant.players)),
                                 GameOptions(game.options.round_limit, turnier=game.options.turnier),
                                 variant=game.variant)
        scoring = self._scoring
        for number in range(len(self._rounds), len(game.rounds)):
            rnd = game.rounds[number]
            if rnd.phase != OVER:
                break
            scoring.start_round(rnd.deal)
            for action in rnd.history:
                scoring.apply(action)
            self._rounds.append(((), scoring.scores(), ""))
        for number, (seating, totals, text) in enumerate(self._rounds):
            if seating != game.seatings[number]:
                seating = game.seatings[number]
                text = round_text(variant_round(game.rounds[number], seating, number + 1, totals))
                self._rounds[number] = (seating, totals, text)
        options = game.options
        header = header_text(game.variant, [name_of(p) for p in game.base_seats], options.round_limit,
                             options.turnier)
        end = end_text(GameEnd(tuple(name_of(p) for p in game.winners()))) if game.over else ""
        return header + "".join(text for _, _, text in self._rounds) + end
