"""Headless games of any variant and their variant logs, for the variant log tests."""

from __future__ import annotations

from functools import cache

from bswtichu.engine import VARIANTS, GameOptions, Variant
from bswtichu.engine.events import RoundScored
from bswtichu.play.driver import GameSeeds, seated_bots
from bswtichu.play.headless import headless_driver
from bswtichu.tch.variant_record import VariantLogWriter

#: Every variant, the 4-player one too (its games have a .tch at a server, but any game can
#: be written in the variant log) and whatever variant is added later.
ALL_VARIANTS = tuple(VARIANTS.values())


class EachRound:
    """A driver subscriber that asks the writer for the text after every scored round, as a
    server's recorder does, so that its cache is what is tested."""

    def __init__(self, writer: VariantLogWriter):
        self.writer = writer
        self.texts: list[str] = []

    def round_dealt(self, driver) -> None:
        pass

    def happened(self, driver, events) -> None:
        if any(isinstance(e, RoundScored) for e in events):
            self.texts.append(self.writer.text(driver.game))


def played_game(variant: Variant, seed, levels=("basic",), round_limit: int | None = None,
                max_rounds: int = 40):
    """A finished (or stopped) headless game of bots and its log text, written round by round."""
    seeds = GameSeeds.from_seed(seed, variant.seats)
    players = tuple(range(variant.players))
    options = GameOptions(round_limit=round_limit)
    chosen = {p: levels[p % len(levels)] for p in players}
    bots = seated_bots(players, options, chosen, seeds, variant=variant)
    driver, clock = headless_driver([bots[p] for p in players], options, seeds, max_rounds, variant)
    each = EachRound(VariantLogWriter())
    driver.subscribe(each)
    driver.start()
    clock.advance(0)
    return driver.game, each.texts[-1]


@cache
def sample_text(variant_name: str, seed: int = 1) -> str:
    """One finished game's log for each variant (a few rounds), shared by the corruption tests."""
    variant = VARIANTS[variant_name]
    limit = variant.players if variant.game_rounds is not None else 2
    return played_game(variant, seed, round_limit=limit)[1]
