"""Read BrettspielWelt `.tch` Tichu logs into `GameLog` values, at the text level.

The reader checks the layout (blocks in order, seats 0-3 in order, card
counts, card tokens) and reports the first fault as a `TchFormatError` with
its line number.  It does not check the deal or the play against the rules:
a replay through the engine does that.

Tolerated variations (see docs/tch-format.md): trailing spaces and ``\\r`` at
line ends (the writer restores BSW's own), stale names in the card blocks
and on any call, play, pass or Dragon line (kept as written), a Dragon line
with no name, repeated ``Grosses Tichu`` lines, and an unfinished last round.
"""

from __future__ import annotations

import re
from os import PathLike
from typing import Optional, Union

from ..engine.cards import DECK, Card, bsw_rank_text, parse_bsw_card, parse_bsw_rank
from ..engine.errors import ParseError
from .errors import TchFormatError, read_log_text
from .layout import (BOMB_PREFIX, DRAGON_PREFIX, EXCHANGE_HEADER, GIVES, GRAND_HEADER,
                     GRAND_TICHU_PREFIX, PASSES, PLAY_HEADER, RESULT_PREFIX, START_HEADER,
                     TICHU_PREFIX, WISH_PREFIX)
from .model import (EXCHANGE_SIZE, GRAND_HAND_SIZE, SEATS, START_HAND_SIZE, DragonGift,
                    Entry, GameLog, GrandTichuCall, Pass, Play, Result, RoundLog,
                    TichuCall, Wish)

_CARD_BY_TOKEN = {c.bsw: c for c in DECK}
_SEAT = re.compile(r"\((\d+)\)")
_RESULT = re.compile(r"Ergebnis: (-?\d+) - (-?\d+)")
_HEADERS = {GRAND_HEADER: "Gr.Tichukarten", START_HEADER: "Startkarten",
            EXCHANGE_HEADER: "Schupfen", PLAY_HEADER: "Rundenverlauf"}
_ORDINALS = ("first", "second", "third")


def read_tch_file(path: Union[str, PathLike]) -> GameLog:
    """Read a `.tch` file (UTF-8); the log's ``source`` is the file's name."""
    text, name = read_log_text(path)
    return read_tch(text, source=name)


def read_tch(text: str, source: str = "") -> GameLog:
    """Parse a whole `.tch` text; raise `TchFormatError` at the first fault."""
    lines = _Lines(text, source)
    rounds = [_read_round(lines, 1)]
    while not lines.at_end():  # an unfinished round only ever ends the file
        rounds.append(_read_round(lines, len(rounds) + 1))
    return GameLog(tuple(rounds), source)


class _Lines:
    """The file's non-blank lines (trailing blanks stripped) with a cursor and 1-based numbers.

    Tolerated: a byte-order mark, a last line without a line end, blank lines and
    ``--END GAME--`` markers (an editor's, or games joined into one file).
    """

    def __init__(self, text: str, source: str):
        self.source = source
        self.cut_short = False
        self.last_number = 0
        text = text.removeprefix("\ufeff")
        if text.strip() == "":
            raise self.error(1, "the file is empty")
        raw = text.split("\n")
        self.cut_short = raw[-1] != ""  # the last line has no line end
        if not self.cut_short:
            raw.pop()
        self.entries = []
        for number, line in enumerate(raw, start=1):
            line = line.rstrip(" \t\r")
            if "\r" in line:  # a name cannot hold one (see model._check_name)
                raise self.error(number, "a carriage return inside the line")
            if line and line.strip("- ").upper() != "END GAME":  # joined files mark game ends
                self.entries.append((number, line))
        self.last_number = len(raw)
        self.position = 0

    @property
    def number(self) -> int:
        """The 1-based number of the next line (one past the end when at the end)."""
        if self.at_end():
            return self.last_number + 1
        return self.entries[self.position][0]

    def at_end(self) -> bool:
        return self.position == len(self.entries)

    def peek(self) -> Optional[str]:
        return None if self.at_end() else self.entries[self.position][1]

    def take(self, wanted: str) -> tuple[int, str]:
        """The next line and its number; ``wanted`` says what a truncated file lacks."""
        if self.at_end():
            raise self.error(self.number, f"the file ends where {wanted} was expected")
        self.position += 1
        return self.entries[self.position - 1]

    def error(self, number: int, reason: str) -> TchFormatError:
        if self.cut_short and number == self.last_number:  # most likely cut in mid-line
            reason = "the last line has no line end: the file is truncated"
        return TchFormatError(number, reason, self.source)


def _read_round(lines: _Lines, round_number: int) -> RoundLog:
    _expect_header(lines, GRAND_HEADER, round_number)
    grand_names, grand_hands = _read_card_block(lines, GRAND_HAND_SIZE, "Gr.Tichukarten")
    _expect_header(lines, START_HEADER, round_number)
    # The Startkarten names may differ (stale names); the Schupfen lines name the seats.
    _, start_hands = _read_card_block(lines, START_HAND_SIZE, "Startkarten")
    grand_calls = []
    while (lines.peek() or "").startswith(GRAND_TICHU_PREFIX):
        number, text = lines.take("a Grosses Tichu line")
        grand_calls.append(_seat_prefix(lines, number, text[len(GRAND_TICHU_PREFIX):]))
    _expect_header(lines, EXCHANGE_HEADER, round_number)
    seat_names, exchanges = _read_exchange(lines)
    bomb_holders: tuple[int, ...] = ()
    if (lines.peek() or "").startswith(BOMB_PREFIX.rstrip()):
        bomb_holders = _read_bomb_line(lines, seat_names)
    _expect_header(lines, PLAY_HEADER, round_number)
    entries = _read_play_section(lines, seat_names, round_number)
    return RoundLog(
        seat_names=seat_names,
        grand_hands=grand_hands,
        start_hands=start_hands,
        exchanges=exchanges,
        entries=entries,
        grand_tichu_calls=tuple(GrandTichuCall(seat, _as_written(name, seat_names[seat]))
                                for seat, name in grand_calls),
        bomb_holders=bomb_holders,
        card_block_names=grand_names,
    )


def _expect_header(lines: _Lines, header: str, round_number: int) -> None:
    block = _HEADERS[header]
    number, text = lines.take(f"the {block} header of round {round_number}")
    if text == header:
        return
    if text in _HEADERS:
        raise lines.error(number, (f"block out of order: expected the {block} header of "
                                   f"round {round_number}, found the {_HEADERS[text]} header"))
    raise lines.error(number, f"expected the {block} header of round {round_number}, "
                              f"found {text!r}")


def _seat_prefix(lines: _Lines, number: int, text: str) -> tuple[int, str]:
    """Split ``(s)rest`` into the seat and the rest; the seat must be 0-3."""
    match = _SEAT.match(text)
    if match is None:
        raise lines.error(number, f"expected a seat such as (0) at the start of {text!r}")
    seat = int(match.group(1))
    if seat not in SEATS:
        raise lines.error(number, f"seat ({match.group(1)}) is not 0-3")
    return seat, text[match.end():]


def _expected_seat(lines: _Lines, number: int, text: str, seat: int) -> str:
    """The rest of a ``(s)...`` line that must belong to ``seat``."""
    found, rest = _seat_prefix(lines, number, text)
    if found != seat:
        raise lines.error(number, f"expected seat ({seat}), found ({found})")
    return rest


def _card(lines: _Lines, number: int, token: str) -> Card:
    card = _CARD_BY_TOKEN.get(token)
    if card is not None:
        return card
    try:
        hint = f" (BSW writes {parse_bsw_card(token).bsw!r})"
    except ParseError:
        hint = ""
    raise lines.error(number, f"unknown card token {token!r}{hint}")


def _cards(lines: _Lines, number: int, tokens: list[str]) -> tuple[Card, ...]:
    cards = tuple(_card(lines, number, token) for token in tokens)
    for position, card in enumerate(cards):
        if card in cards[:position]:
            raise lines.error(number, f"card {card.bsw!r} is listed twice")
    return cards


def _read_card_block(lines: _Lines, size: int, block: str):
    """The four ``(s)name cards`` lines of a card block: (names, hands)."""
    names, hands = [], []
    for seat in SEATS:
        number, text = lines.take(f"the {block} line of seat ({seat})")
        parts = _expected_seat(lines, number, text, seat).split(" ")
        # The first word is always the name's; card tokens are counted from the end.
        run = 0
        while run < len(parts) - 1 and parts[-1 - run] in _CARD_BY_TOKEN:
            run += 1
        if run > size or (run < size and len(parts) - 1 < size):
            found = run if run > size else len(parts) - 1
            raise lines.error(number, f"{block} line of seat ({seat}) has {found} cards, "
                                      f"expected {size}")
        if run < size:
            _card(lines, number, parts[-1 - run])  # raises: names the unknown token
        names.append(" ".join(parts[:-size]))
        hands.append(_cards(lines, number, parts[-size:]))
    return tuple(names), tuple(hands)


def _read_exchange(lines: _Lines):
    """The four ``gibt:`` lines: (seat names, cards given to seats s+1, s+2, s+3)."""
    givers = []
    for seat in SEATS:
        number, text = lines.take(f"the Schupfen line of seat ({seat})")
        rest = _expected_seat(lines, number, text, seat)
        name, gives, gifts = rest.partition(GIVES.rstrip())
        if not gives:
            raise lines.error(number, f"expected '(s)name{GIVES}...', found {text!r}")
        givers.append((number, name, gifts))
    names = tuple(name for _, name, _ in givers)
    exchanges = tuple(_read_gifts(lines, number, seat, gifts, names)
                      for seat, (number, _, gifts) in enumerate(givers))
    return names, exchanges


def _read_gifts(lines: _Lines, number: int, seat: int, gifts: str, names) -> tuple[Card, ...]:
    """Parse `` A: c - B: c - C: c -`` whose recipients must be seats s+1, s+2, s+3."""
    tokens = []
    rest = gifts
    for k in range(1, EXCHANGE_SIZE + 1):
        recipient = (seat + k) % 4
        if not rest.startswith(" " + names[recipient] + ": "):
            written = rest[1:].split(": ", 1)[0]
            owners = [s for s in SEATS if names[s] == written]
            who = f"seat ({owners[0]})" if owners else "no seat's name"
            raise lines.error(number, (
                f"the {_ORDINALS[k - 1]} card goes to {written!r} ({who}); "
                f"BSW lists seat ({recipient}) {names[recipient]!r} there"))
        rest = rest[len(names[recipient]) + 3:]
        token, dash, rest = rest.partition(" -")
        if not dash:
            raise lines.error(number, f"expected ' - ' after the card given to seat ({recipient})")
        tokens.append(token)
    if rest:
        raise lines.error(number, f"unexpected text after the third card: {rest!r}")
    return _cards(lines, number, tokens)


def _read_bomb_line(lines: _Lines, names) -> tuple[int, ...]:
    """``BOMBE: (s)name (t)name`` - the names must be the seats' names."""
    number, text = lines.take("the BOMBE line")
    rest = text[len(BOMB_PREFIX.rstrip()):]
    holders = []
    while rest:
        if not rest.startswith(" "):
            raise lines.error(number, f"expected ' (s)name' in the BOMBE line, found {rest!r}")
        seat, rest = _seat_prefix(lines, number, rest[1:])
        if not rest.startswith(names[seat]) or rest[len(names[seat]):][:1] not in ("", " "):
            raise lines.error(number, f"seat ({seat}) in the BOMBE line is not named "
                                      f"{names[seat]!r} as in the Schupfen block")
        rest = rest[len(names[seat]):]
        holders.append(seat)
    if not holders:
        raise lines.error(number, "the BOMBE line names no seat")
    return tuple(holders)


def _as_written(name: str, seat_name: str) -> Optional[str]:
    """A line's own name, kept only when it differs from the seat's name."""
    return None if name == seat_name else name


def _read_play_section(lines: _Lines, names, round_number: int) -> tuple[Entry, ...]:
    """Entries up to and including ``Ergebnis``, or to the end of an unfinished game."""
    entries: list[Entry] = []
    while not lines.at_end():
        if lines.peek() == GRAND_HEADER:
            raise lines.error(lines.number, f"round {round_number} has no Ergebnis line "
                                            f"before the next round begins")
        number, text = lines.take("a Rundenverlauf line")
        entry = _read_entry(lines, number, text, names, round_number)
        entries.append(entry)
        if isinstance(entry, Result):
            break
    return tuple(entries)


def _read_entry(lines: _Lines, number: int, text: str, names, round_number: int) -> Entry:
    if text.startswith(TICHU_PREFIX):
        seat, name = _seat_prefix(lines, number, text[len(TICHU_PREFIX):])
        return TichuCall(seat, _as_written(name, names[seat]), line=number)
    if text.startswith(DRAGON_PREFIX):
        seat, name = _seat_prefix(lines, number, text[len(DRAGON_PREFIX):])
        return DragonGift(seat, _as_written(name, names[seat]), line=number)
    if text.startswith(WISH_PREFIX):
        written = text[len(WISH_PREFIX):]
        try:
            rank = parse_bsw_rank(written)
        except ParseError:
            rank = None
        if rank is None or bsw_rank_text(rank) != written:
            raise lines.error(number, f"unknown wish rank {written!r} (BSW writes 2-10, B, D, K, A)")
        return Wish(rank, line=number)
    if text.startswith(RESULT_PREFIX):
        match = _RESULT.fullmatch(text)
        if match is None:
            raise lines.error(number, f"expected 'Ergebnis: a - b' with whole numbers, found {text!r}")
        return Result(int(match.group(1)), int(match.group(2)), line=number)
    if text.startswith("("):
        seat, rest = _seat_prefix(lines, number, text)
        if rest.endswith(PASSES):
            return Pass(seat, _as_written(rest[:-len(PASSES)], names[seat]), line=number)
        name, colon, played = rest.rpartition(": ")
        if not colon:
            raise lines.error(number, f"expected a play '(s)name: cards' or a pass "
                                      f"'(s)name passt.', found {text!r}")
        cards = _cards(lines, number, played.split(" "))
        return Play(seat, cards, _as_written(name, names[seat]), line=number)
    if text in _HEADERS:
        raise lines.error(number, f"block out of order: the {_HEADERS[text]} header inside "
                                  f"the Rundenverlauf of round {round_number}")
    raise lines.error(number, f"unknown line in the Rundenverlauf of round {round_number}: {text!r}")
