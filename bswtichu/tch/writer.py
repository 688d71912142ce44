"""Write a `GameLog` exactly as BrettspielWelt writes `.tch` files.

This is the one place that knows the layout: headers, the order of blocks,
and which lines end with a space (card, play, ``gibt:`` and ``BOMBE:`` lines).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..engine.cards import DECK, Card, bsw_rank_text
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
    return "\n".join(_round_lines(r)) + "\n"


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
    lines += [_ENTRY_LINES[type(e)](r, e) for e in r.entries]
    return lines


#: by card index, each card's token as BSW's card and play lines write it, with the space after it
_TOKENS = tuple(c.bsw + " " for c in DECK)


def _cards(cards: Iterable[Card]) -> str:
    """Card tokens each followed by a space, as on BSW's card and play lines."""
    return "".join([_TOKENS[c.index] for c in cards])


def _exchange_line(r: RoundLog, seat: int) -> str:
    gifts = "".join(f"{r.seat_names[(seat + k) % 4]}: {c.bsw} - "
                    for k, c in enumerate(r.exchanges[seat], start=1))
    return f"({seat}){r.seat_names[seat]}{GIVES}{gifts}"


# One function per entry type, each giving the entry's line; a line shows the seat's
# name unless the entry records the other name it showed.

def _play_line(r: RoundLog, e: Play) -> str:
    return f"({e.seat}){r.seat_names[e.seat] if e.name is None else e.name}: {_cards(e.cards)}"


def _pass_line(r: RoundLog, e: Pass) -> str:
    return f"({e.seat}){r.seat_names[e.seat] if e.name is None else e.name}{PASSES}"


def _tichu_line(r: RoundLog, e: TichuCall) -> str:
    return f"{TICHU_PREFIX}({e.seat}){r.seat_names[e.seat] if e.name is None else e.name}"


def _wish_line(r: RoundLog, e: Wish) -> str:
    return WISH_PREFIX + bsw_rank_text(e.rank)


def _dragon_line(r: RoundLog, e: DragonGift) -> str:
    return f"{DRAGON_PREFIX}({e.seat}){r.seat_names[e.seat] if e.name is None else e.name}"


def _result_line(r: RoundLog, e: Result) -> str:
    return f"{RESULT_PREFIX}{e.team_0_2} - {e.team_1_3}"


_ENTRY_LINES: dict[type, Callable[[RoundLog, Any], str]] = {  # Any: each line maker takes its own entry type
    Play: _play_line, Pass: _pass_line, TichuCall: _tichu_line, Wish: _wish_line,
    DragonGift: _dragon_line, Result: _result_line,
}
