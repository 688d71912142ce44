"""Messages to text lines, in the mode the connection asked for.

Human mode gives the message's sentence (possibly several lines). Machine mode
gives exactly one line, ``KEYWORD {json}``: compact JSON with sorted keys, UTF-8
characters left as they are, so a bot can split at the first space and parse.
Relay mode is machine mode plus the human sentence in the field ``human``, for
programs that show people what happened (the IRC bridge) and still need to know
what each message is.

Human text may also be wrapped to the client's width and its cards coloured
(ANSI) for one connection: rendering choices only, never in machine or relay
mode, and never in the domain.
"""

from __future__ import annotations

import json
import re
import textwrap

import orjson

from bswtichu.server.text.i18n import Language
from bswtichu.server.text.messages import Message

HUMAN = "human"
MACHINE = "machine"
RELAY = "relay"
MODES = (HUMAN, MACHINE, RELAY)
#: one encoder for every machine line (json.dumps with options builds a new one each call)
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
#: The game's messages told on every step. Their fields hold only strings, ints, booleans,
#: None, lists, dicts with string keys and, as the Phoenix's rank, halves (10.5): for these
#: orjson writes byte for byte what ``_ENCODER`` writes, about ten times faster. Any other
#: message (floats such as limits or ratings, which orjson would write otherwise: 1e-05 as
#: 1e-5, NaN as null) goes through ``_ENCODER``, and so does anything orjson refuses.
ORJSON_KEYWORDS = frozenset({
    "DEALT", "PHASE", "GRAND_DECIDED", "TICHU", "EXCHANGE_SUBMITTED", "RECEIVED", "TURN", "PLAYED",
    "PASSED", "WISH", "WISH_FULFILLED", "TRICK_WON", "TRICK_TAKEN", "DRAGON_GIVEN", "OUT", "LEGAL",
})
_SORTED = orjson.OPT_SORT_KEYS


def machine_line(message: Message, fields: dict | None = None) -> str:
    """``KEYWORD {json}`` of the message's fields (or of ``fields``); the former encoded once per message."""
    if fields is None:
        line = message.rendered.get(MACHINE)
        if line is None:
            line = message.rendered[MACHINE] = f"{message.keyword} {_encode(message.keyword, message.fields)}"
        return line
    return f"{message.keyword} {_ENCODER.encode(fields)}"


def _encode(keyword: str, fields: dict) -> str:
    if keyword in ORJSON_KEYWORDS:
        try:
            return orjson.dumps(fields, option=_SORTED).decode()
        except TypeError:  # orjson.JSONEncodeError: e.g. an int past 64 bits
            pass
    return _ENCODER.encode(fields)


def relay_line(message: Message, language: Language | None = None) -> str:
    return machine_line(message, {**message.fields, "human": "\n".join(human_lines(message, language))})


def human_lines(message: Message, language: Language | None = None) -> list[str]:
    text = message.text if language is None else message.text_in(language)
    return text.splitlines() or [message.keyword.lower()]


def render(message: Message, mode: str, width: int | None = None, colour: bool = False,
           language: Language | None = None) -> list[str]:
    """The lines (without line ends) that show ``message`` in ``mode``.

    ``width`` wraps human lines, ``colour`` colours the cards in them, ``language`` (None:
    English) words them; machine lines are the same in every language.
    """
    if mode == MACHINE:
        return [machine_line(message)]
    if mode == RELAY:
        return [relay_line(message, language)]
    lines = human_lines(message, language)
    if width:
        lines = wrap(lines, width)
    if colour:
        lines = coloured(lines, cards_in(message.fields))
    return lines


# The widths human text may be wrapped to (from the client's NAWS or /width).
MIN_WIDTH, MAX_WIDTH = 20, 250


def wrap(lines: list[str], width: int) -> list[str]:
    """Each line cut between words to at most ``width`` characters (a longer word stays whole);
    continuation lines keep the line's indentation."""
    wrapped = []
    for line in lines:
        if len(line) <= width:
            wrapped.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        wrapped += textwrap.wrap(line, width, subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False) or [line]
    return wrapped


# ANSI colours: Jade green, Sword dark grey, Pagoda blue, Star red; the specials
# each their own (Mah Jong yellow, Dog cyan, Phoenix magenta, Dragon bold red).
SUIT_COLOURS = {"j": "32", "s": "90", "p": "34", "r": "31"}
SPECIAL_COLOURS = {"MJ": "33", "DG": "36", "PH": "35", "DR": "1;31"}
RESET = "\x1b[0m"
CARD_TEXT = re.compile(r"^(?:[2-9TJQKA][jspr]|MJ|DG|PH|DR)$")
CARD_WORD = re.compile(r"(?<![\w=])(?:[2-9TJQKA][jspr]|MJ|DG|PH|DR)(?![\w=])")


def card_colour(card: str) -> str:
    """The ANSI SGR code for a card in its canonical text (``7j``, ``DR``)."""
    return SPECIAL_COLOURS.get(card) or SUIT_COLOURS[card[-1]]


def cards_in(value: object) -> set[str]:
    """The card texts anywhere in a message's fields (strings that are exactly a card)."""
    if isinstance(value, str):
        return {value} if CARD_TEXT.match(value) else set()
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list):
        return set()
    found: set[str] = set()
    for item in value:
        found |= cards_in(item)
    return found


def coloured(lines: list[str], cards: set[str]) -> list[str]:
    """``cards`` coloured where they stand as words in ``lines``."""
    if not cards:
        return lines

    def paint(found: re.Match) -> str:
        card = found.group()
        return f"\x1b[{card_colour(card)}m{card}{RESET}" if card in cards else card

    return [CARD_WORD.sub(paint, line) for line in lines]
