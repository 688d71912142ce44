"""Write a `GameLog` exactly as BrettspielWelt writes `.tch` files.

This is the one place that knows the layout: headers, the order of blocks,
and which lines end with a space (card, play, ``gibt:`` and ``BOMBE:`` lines).
"""

from __future__ import annotations

from typing import Iterable

from ..engine.cards import Card, bsw_rank_text
from .layout import (BOMB_PREFIX, DRAGON_PREFIX, EXCHANGE_HEADER, GIVES, GRAND_HEADER,
                     GRAND_TICHU_PREFIX, PASSES, PLAY_HEADER, RESULT_PREFIX, START_HEADER,
                     TICHU_PREFIX, WISH_PREFIX)
from .model import (DragonGift, Entry, GameLog, Pass, Play, Result, RoundLog, TichuCall,
                    Wish, SEATS)


def write_tch(log: GameLog) -> str:
    """The log as a `.tch` text: every line ends with ``\\n``; no rounds gives ``""``."""
    return "".join(round_tch(r) for r in log.rounds)


def round_tch(r: RoundLog) -> str:
    """One round's part of a `.tch` text: a game's text is its rounds' texts, joined."""
    return "".join(line + "\n" for line in _round_lines(r))


def _round_lines(r: RoundLog) -> list[str]:
    """The lines of one round, without line ends."""
    block_names = r.card_block_names or r.seat_names
    lines = [GRAND_HEADER]
    lines += [f"({s}){block_names[s]} {_cards(r.grand_hands[s])}" for s in SEATS]
    lines.append(START_HEADER)
    lines += [f"({s}){block_names[s]} {_cards(r.start_hands[s])}" for s in SEATS]
    lines += [f"{GRAND_TICHU_PREFIX}({c.seat}){r.shown_name(c.seat, c.name)}"
              for c in r.grand_tichu_calls]
    lines.append(EXCHANGE_HEADER)
    lines += [_exchange_line(r, s) for s in SEATS]
    if r.bomb_holders:
        lines.append(BOMB_PREFIX + "".join(f"({s}){r.seat_names[s]} " for s in r.bomb_holders))
    lines.append(PLAY_HEADER)
    lines += [_entry_line(r, e) for e in r.entries]
    return lines


def _cards(cards: Iterable[Card]) -> str:
    """Card tokens each followed by a space, as on BSW's card and play lines."""
    return "".join(c.bsw + " " for c in cards)


def _exchange_line(r: RoundLog, seat: int) -> str:
    gifts = "".join(f"{r.seat_names[(seat + k) % 4]}: {c.bsw} - "
                    for k, c in enumerate(r.exchanges[seat], start=1))
    return f"({seat}){r.seat_names[seat]}{GIVES}{gifts}"


def _entry_line(r: RoundLog, entry: Entry) -> str:
    if isinstance(entry, Play):
        return f"({entry.seat}){r.shown_name(entry.seat, entry.name)}: {_cards(entry.cards)}"
    if isinstance(entry, Pass):
        return f"({entry.seat}){r.shown_name(entry.seat, entry.name)}{PASSES}"
    if isinstance(entry, TichuCall):
        return f"{TICHU_PREFIX}({entry.seat}){r.shown_name(entry.seat, entry.name)}"
    if isinstance(entry, Wish):
        return WISH_PREFIX + bsw_rank_text(entry.rank)
    if isinstance(entry, DragonGift):
        return f"{DRAGON_PREFIX}({entry.seat}){r.shown_name(entry.seat, entry.name)}"
    assert isinstance(entry, Result)  # RoundLog admits no other entry type
    return f"{RESULT_PREFIX}{entry.team_0_2} - {entry.team_1_3}"
