"""Our own log format for a game of any variant (docs/variant-log.md): its values, writer and reader.

BrettspielWelt's `.tch` knows four seats and nothing else, so a Tientsin or
Trichu game is logged here instead, in lines a person reads at a terminal and
a program splits at spaces: a header (format, variant, players, options), then
per round its seating, dealer, deal and every action in the engine's own
notation (``3: play 7j 7s``, `Action.notation`), then its result; ``end`` when
the game is over.  This module is the text level only (layout, tokens, line
numbers); `variant_replay` checks a log against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Optional, Union

from ..engine import Action, Variant, action_text, variant_named
from ..engine.cards import Card, format_cards, parse_card, split_tokens
from ..engine.errors import ParseError
from ..engine.notation import parse_action
from .errors import TchFormatError, read_log_text

#: The file name's ending: "Tichu variant log", beside BSW's ``.tch``, never mistaken for one.
EXTENSION = ".tvl"
#: The first line, with the format's version.
MAGIC = "bswtichu log 1"
#: The name the seating shows for the dummy hand's seat (no person's name can be "-").
DUMMY_NAME = "-"
_HAND_SPLIT = "/"


class VariantLogError(TchFormatError):
    """The text is not a variant log as docs/variant-log.md defines it; ``line`` is where."""


def is_variant_log(text: str) -> bool:
    """Whether ``text`` begins as a variant log (its first line is `MAGIC`)."""
    return text.removeprefix("\ufeff").split("\n", 1)[0].rstrip() == MAGIC


@dataclass(frozen=True)
class LoggedAction:
    """One action line: the engine's action, and where it stands."""

    action: Action
    line: Optional[int] = field(default=None, compare=False)


@dataclass(frozen=True)
class Outcome:
    """A round's ``out`` and ``score`` lines: seats 0-based; points per team (team of seat 1 first)."""

    finish_order: tuple[int, ...]
    sweep: bool
    score: tuple[int, int]
    card_points: tuple[int, int]
    call_points: tuple[int, int]
    line: Optional[int] = field(default=None, compare=False)
    score_line: Optional[int] = field(default=None, compare=False)


@dataclass(frozen=True)
class VariantRound:
    """One round: names in seat order (`DUMMY_NAME` for the dummy), the dealer's seat (0-based),
    each seat's cards before its Grand Tichu decision and after it, the actions in order,
    the outcome and the game's totals after it (both None in an unfinished round).
    ``lines`` says where the round's own lines stand (``round``, ``seats``, ``dealer``,
    ``hand N``, ``totals``), for the checker's messages."""

    number: int
    seats: tuple[str, ...]
    dealer: int
    first_cards: tuple[tuple[Card, ...], ...]
    last_cards: tuple[tuple[Card, ...], ...]
    actions: tuple[LoggedAction, ...]
    outcome: Optional[Outcome] = None
    totals: Optional[tuple[int, ...]] = None
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_complete(self) -> bool:
        return self.outcome is not None


@dataclass(frozen=True)
class GameEnd:
    """The ``end`` line: the winners' names (empty for a draw)."""

    winners: tuple[str, ...]
    line: Optional[int] = field(default=None, compare=False)


@dataclass(frozen=True)
class VariantGameLog:
    """A whole log: the variant, the players in their order at the start, the options
    (a round limit, the tournament), the rounds, and the end if the game is over."""

    variant: Variant
    players: tuple[str, ...]
    rounds: tuple[VariantRound, ...]
    round_limit: Optional[int] = None
    turnier: bool = False
    end: Optional[GameEnd] = None
    source: str = ""
    lines: dict = field(default_factory=dict, compare=False, repr=False)


# ---------------------------------------------------------------------- writing

def check_name(name: str) -> str:
    """A name as a log line can hold it: one token, not the dummy's mark."""
    if not name or name != "".join(name.split()) or name == DUMMY_NAME or name.startswith("#"):
        raise ValueError(f"name {name!r} cannot stand in a log: one word, not '-' or starting with '#'")
    return name


def header_text(variant: Variant, players, round_limit: Optional[int], turnier: bool) -> str:
    """The lines before the first round."""
    options = ([f"round={round_limit}"] if round_limit is not None else []) + (["turnier"] if turnier else [])
    return (f"{MAGIC}\n# format: docs/variant-log.md\nvariant {variant.name}\n"
            f"players {' '.join(check_name(p) for p in players)}\n"
            f"options {' '.join(options)}".rstrip() + "\n")


def round_text(r: VariantRound) -> str:
    """One round's lines, a blank line first."""
    lines = ["", f"round {r.number}",
             "seats " + " ".join(n if n == DUMMY_NAME else check_name(n) for n in r.seats),
             f"dealer {r.dealer + 1}"]
    lines += [f"hand {s + 1}: {format_cards(first)} {_HAND_SPLIT} {format_cards(last)}".rstrip()
              for s, (first, last) in enumerate(zip(r.first_cards, r.last_cards))]
    lines += [action_text(a.action) for a in r.actions]
    if r.outcome is not None:
        o = r.outcome
        lines.append("out " + " ".join(str(s + 1) for s in o.finish_order) + (" sweep" if o.sweep else ""))
        lines.append(f"score {o.score[0]} {o.score[1]} cards {o.card_points[0]} {o.card_points[1]}"
                     f" calls {o.call_points[0]} {o.call_points[1]}")
    if r.totals is not None:
        lines.append("totals " + " ".join(map(str, r.totals)))
    return "\n".join(lines) + "\n"


def end_text(end: GameEnd) -> str:
    return "\nend " + (("winners " + " ".join(end.winners)) if end.winners else "draw") + "\n"


def write_variant_log(log: VariantGameLog) -> str:
    """The log's text, as `read_variant_log` reads it back."""
    text = header_text(log.variant, log.players, log.round_limit, log.turnier)
    text += "".join(round_text(r) for r in log.rounds)
    return text + (end_text(log.end) if log.end is not None else "")


# ---------------------------------------------------------------------- reading

def is_variant_log_file(path: Union[str, PathLike]) -> bool:
    """Whether a file is a variant log: by its ending, or by its first line (`MAGIC`)."""
    path = Path(path)
    if path.suffix == EXTENSION:
        return True
    with open(path, "rb") as file:
        first = file.readline(64)
    return is_variant_log(first.decode("utf-8", "replace"))


def read_variant_log_file(path: Union[str, PathLike]) -> VariantGameLog:
    """Read a variant log file (UTF-8); the log's ``source`` is the file's name."""
    text, name = read_log_text(path, VariantLogError)
    return read_variant_log(text, name)


def read_variant_log(text: str, source: str = "") -> VariantGameLog:
    """Parse a whole variant log; raise `VariantLogError` naming the line at the first fault."""
    return _Reader(text, source).game()


class _Reader:
    """The log's lines without blanks and comments, read front to back."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.lines = [(number, line.strip(" \t\r"))
                      for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1)]
        self.lines = [(n, line) for n, line in self.lines if line and not line.startswith("#")]
        self.at = 0

    def error(self, line: int, reason: str) -> VariantLogError:
        return VariantLogError(line, reason, self.source)

    def peek(self) -> tuple[int, str, str]:
        """The next line's number, keyword and the rest; keyword "" at the end."""
        if self.at == len(self.lines):
            last = self.lines[-1][0] if self.lines else 1
            return last, "", ""
        number, line = self.lines[self.at]
        keyword, _, rest = line.partition(" ")
        return number, keyword, rest.strip()

    def take(self, keyword: str, what: str) -> tuple[int, str]:
        number, found, rest = self.peek()
        if found != keyword:
            shown = f"'{self.lines[self.at][1]}'" if found else "the end of the file"
            raise self.error(number, f"expected {what} ('{keyword} ...'), found {shown}")
        self.at += 1
        return number, rest

    def game(self) -> VariantGameLog:
        number, line = self.lines[0] if self.lines else (1, "")
        if line != MAGIC:
            raise self.error(number, f"a variant log begins with the line '{MAGIC}'")
        self.at = 1
        lines = {}
        lines["variant"], name = self.take("variant", "the variant")
        try:
            variant = variant_named(name)
        except ValueError as exc:
            raise self.error(lines["variant"], str(exc)) from None
        lines["players"], names = self.take("players", "the players")
        players = tuple(names.split())
        if len(players) != variant.players or len(set(players)) != len(players):
            raise self.error(lines["players"], f"{variant.title} has {variant.players} players,"
                                               " each named once")
        lines["options"], options = self.take("options", "the options")
        round_limit, turnier = self.options(lines["options"], options)
        rounds: list[VariantRound] = []
        while self.peek()[1] == "round":
            rounds.append(self.round(variant, len(rounds) + 1))
            if not rounds[-1].is_complete:
                break
        end = None
        number, keyword, rest = self.peek()
        if keyword == "round":
            raise self.error(number, f"round {len(rounds)} has no result ('out', 'score', 'totals'),"
                                     " but another round follows")
        if keyword == "end":
            end = self.end(number, rest)
            self.at += 1
            number, keyword, rest = self.peek()
        if keyword:
            raise self.error(number, f"unexpected line '{self.lines[self.at][1]}'"
                             + (" after the end" if end else " (expected a round or the end)"))
        return VariantGameLog(variant, players, tuple(rounds), round_limit, turnier, end, self.source, lines)

    def options(self, number: int, text: str) -> tuple[Optional[int], bool]:
        round_limit, turnier = None, False
        for word in text.split():
            if word == "turnier":
                turnier = True
            elif word.startswith("round=") and word[6:].isdigit() and int(word[6:]) > 0:
                round_limit = int(word[6:])
            else:
                raise self.error(number, f"unknown option '{word}'; options are round=N and turnier")
        return round_limit, turnier

    def round(self, variant: Variant, expected: int) -> VariantRound:
        n = variant.seats
        lines = {}
        lines["round"], text = self.take("round", "a round")
        if text != str(expected):
            raise self.error(lines["round"], f"round {expected} comes next, not '{text}'")
        lines["seats"], text = self.take("seats", "the seating")
        seats = tuple(text.split())
        if len(seats) != n:
            raise self.error(lines["seats"], f"{variant.title} has {n} seats; name each one"
                                             + (f" ('{DUMMY_NAME}' for the dummy)" if variant.dummy is not None else ""))
        lines["dealer"], text = self.take("dealer", "the dealer's seat")
        dealer = self.seat(lines["dealer"], text, n)
        first, last = [], []
        for seat in range(n):
            number, text = self.take("hand", f"seat {seat + 1}'s hand")
            lines[f"hand {seat + 1}"] = number
            label, colon, cards = text.partition(":")
            if not colon or label.strip() != str(seat + 1):
                raise self.error(number, f"expected 'hand {seat + 1}: FIRST CARDS / LAST CARDS'")
            head, split, tail = cards.partition(_HAND_SPLIT)
            if not split:
                raise self.error(number, f"a hand is its cards before Grand Tichu '{_HAND_SPLIT}' the rest")
            first.append(self.cards(number, head))
            last.append(self.cards(number, tail))
        actions = []
        while True:
            number, keyword, rest = self.peek()
            if not keyword.endswith(":"):
                break
            seat = self.seat(number, keyword[:-1], n)
            try:
                action = parse_action(seat, rest)
            except ParseError as exc:
                raise self.error(number, str(exc)) from None
            actions.append(LoggedAction(action, number))
            self.at += 1
        outcome = totals = None
        if self.peek()[1] == "out":
            outcome = self.outcome(n)
            lines["totals"], text = self.take("totals", "the game's totals after the round")
            totals = self.numbers(lines["totals"], text, None)
        return VariantRound(expected, seats, dealer, tuple(first), tuple(last), tuple(actions),
                            outcome, totals, lines)

    def outcome(self, n: int) -> Outcome:
        number, text = self.take("out", "the order going out")
        words = text.split()
        sweep = bool(words) and words[-1] == "sweep"
        order = tuple(self.seat(number, w, n) for w in (words[:-1] if sweep else words))
        if not order or len(set(order)) != len(order):
            raise self.error(number, "'out' lists the seats in the order they went out, each once")
        score_line, text = self.take("score", "the round's score")
        words = text.split()
        if len(words) != 8 or words[2] != "cards" or words[5] != "calls":
            raise self.error(score_line, "expected 'score A B cards A B calls A B'")
        score, cards, calls = (self.pair(score_line, " ".join(words[i:i + 2])) for i in (0, 3, 6))
        return Outcome(order, sweep, score, cards, calls, number, score_line)

    def end(self, number: int, text: str) -> GameEnd:
        words = text.split()
        if words == ["draw"]:
            return GameEnd((), number)
        if len(words) < 2 or words[0] != "winners":
            raise self.error(number, "expected 'end winners NAME...' or 'end draw'")
        return GameEnd(tuple(words[1:]), number)

    def seat(self, number: int, text: str, n: int) -> int:
        if not text.isdigit() or not 1 <= int(text) <= n:
            raise self.error(number, f"'{text}' is no seat; seats are 1-{n}")
        return int(text) - 1

    def pair(self, number: int, text: str) -> tuple[int, int]:
        """Two whole numbers: one per team."""
        first, second = self.numbers(number, text, 2)
        return first, second

    def numbers(self, number: int, text: str, count: Optional[int]) -> tuple[int, ...]:
        try:
            values = tuple(int(w) for w in text.split())
        except ValueError:
            raise self.error(number, f"'{text}' should be whole numbers") from None
        if count is not None and len(values) != count:
            raise self.error(number, f"expected {count} numbers, found '{text}'")
        return values

    def cards(self, number: int, text: str) -> tuple[Card, ...]:
        try:
            cards = tuple(parse_card(t) for t in split_tokens(text))
        except ParseError as exc:
            raise self.error(number, str(exc)) from None
        if len(set(cards)) != len(cards):
            raise self.error(number, "a card is named twice")
        return cards
