"""What the server tells clients, as values: a keyword, plain-data fields, a sentence.

The domain (lobby, tables, later the game) builds these; ``render`` turns them into
text for people or into one ``KEYWORD {json}`` line for machines. Nothing here
knows about bytes or connections. Every keyword and field is documented in
docs/PROTOCOL.md; keep the two in step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Callable

from bswtichu.engine import NANJING, Variant
from bswtichu.realm import SECOND_HAND_WORDS
from bswtichu.server.text.i18n import Joined, Language, Text, Wordable, _, _n, word

KEYWORD_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]*$")
_CHECKED_KEYWORDS: set[str] = set()  # the few keywords there are, each checked once


class Message:
    """One thing to tell a client.

    ``fields`` must be JSON-serialisable plain data; ``text`` is the sentence a
    person reads (it may span several lines, e.g. a help listing). ``text`` may
    be given as a function that makes it: the sentence is then made once, when
    the first reader that shows sentences asks for it, and never for a table
    whose readers are all programs (machine mode shows fields only).
    A value: not changed once made.
    """

    __slots__ = ("keyword", "fields", "_text", "rendered", "_source", "_worded")
    __hash__ = None  # type: ignore[assignment]  # unhashable: fields are a dict

    def __init__(self, keyword: str, fields: dict[str, Any] | None = None,
                 text: str | Text | Joined | Callable[[], str | Text | Joined] = "",
                 rendered: dict[str, str] | None = None) -> None:
        if keyword not in _CHECKED_KEYWORDS:
            if not KEYWORD_PATTERN.match(keyword):
                raise ValueError(f"message keyword must be upper case: {keyword!r}")
            _CHECKED_KEYWORDS.add(keyword)
        self.keyword = keyword
        self.fields = {} if fields is None else fields
        self._text = text
        #: what ``render`` made of keyword and fields (the machine line), kept so a message
        #: told to many readers, or reworded for one of them, is encoded once
        self.rendered = {} if rendered is None else rendered
        #: the sentence before wording (a `Text` or `Joined`), once known; None: not translatable
        self._source: Text | Joined | None = None
        #: the sentence in each further language a reader asked for (made once per language)
        self._worded: dict[str, str] | None = None

    @property
    def text(self) -> str:
        """The sentence in English (the source language)."""
        text = self._text
        if not isinstance(text, str):
            made = text if isinstance(text, (Text, Joined)) else text()
            if isinstance(made, (Text, Joined)):
                self._source = made
                made = made.english()
            text = self._text = made
        return text

    @property
    def source(self) -> Wordable:
        """The sentence before wording (a `Text` to reword into another message), else `text`."""
        text = self.text
        return text if self._source is None else self._source

    def text_in(self, language: Language | None) -> str:
        """The sentence in ``language`` (None or English: `text`), worded once per language."""
        text = self.text
        if language is None or language.translations is None or self._source is None:
            return text
        worded = self._worded
        if worded is None:
            worded = self._worded = {}
        line = worded.get(language.code)
        if line is None:
            line = worded[language.code] = self._source.worded(language)
        return line

    def reworded(self, text: str | Text | Joined | Callable[[], str | Text | Joined]) -> Message:
        """The same keyword and fields (and their rendering) with another sentence for people
        (made without `__init__`: the keyword was checked, and a game step makes two of these)."""
        message = _new_message(Message)
        message.keyword, message.fields, message._text, message.rendered = (
            self.keyword, self.fields, text, self.rendered)
        message._source = message._worded = None
        return message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.keyword, self.fields, self.text) == (other.keyword, other.fields, other.text)

    def __repr__(self) -> str:
        return f"Message(keyword={self.keyword!r}, fields={self.fields!r}, text={self.text!r})"


_new_message = object.__new__


class Refusal(Exception):
    """A request that cannot be done, with a stable code and a sentence saying why.

    Raised by command handlers and domain objects before they change anything;
    the dispatcher turns it into exactly one ERROR message to the requester.
    """

    def __init__(self, code: str, message: Wordable) -> None:
        super().__init__(str(message))
        self.code = code
        #: the sentence, English in machine mode's field, the reader's language for people
        self.sentence = message
        self.message = str(message)


def error(code: str, message: Wordable) -> Message:
    """An ERROR: its field ``message`` is always English (bots read it); people read it in theirs."""
    english = str(message)
    if isinstance(message, str):
        return Message("ERROR", {"code": code, "message": english}, _('error: %(english)s', english=english))
    return Message("ERROR", {"code": code, "message": english}, _("error: %(reason)s", reason=message))


def refused(refusal: Refusal) -> Message:
    return error(refusal.code, refusal.sentence)


# -- connection and lobby ---------------------------------------------------


def welcome(
    server: str,
    version: str,
    max_line_length: int,
    flood_rate: float,
    flood_burst: int,
    idle_timeout: float,
    for_people: bool = False,
) -> Message:
    """The greeting; ``for_people`` (a connection only people use, a browser's): without the
    lines for bots (`/mode machine`, the limits in bytes)."""
    lines: list[Wordable] = [
        _("Welcome to %(server)s %(version)s, a Tichu server in the style of BrettspielWelt.",
          server=server, version=version),
        _("Choose a name first: /nick NAME. Then /tables shows the tables, /join sits you down, /start"
          " begins once every seat of the table is taken (four; a /variant table has six, three or"
          " two). /help lists all commands."),
    ]
    if not for_people:
        values = {"length": max_line_length, "rate": _number(flood_rate), "burst": flood_burst}
        lines += [
            _("Bots: /mode machine makes every message one line KEYWORD {json}."),
            _("Limits: lines up to %(length)s bytes; %(rate)s lines per second (bursts of %(burst)s);"
              " you are disconnected after %(idle)s without input.", idle=_duration_worded(idle_timeout), **values)
            if idle_timeout else
            _("Limits: lines up to %(length)s bytes; %(rate)s lines per second (bursts of %(burst)s);"
              " no idle timeout.", **values),
        ]
    text = Joined("\n", lines)
    return Message(
        "WELCOME",
        {
            "server": server,
            "version": version,
            "max_line_length": max_line_length,
            "flood_rate": flood_rate,
            "flood_burst": flood_burst,
            "idle_timeout": idle_timeout,
        },
        text,
    )


def mode(name: str) -> Message:
    if name == "machine":
        text = _("Mode: machine. Every message is now one line: KEYWORD {json}.")
    elif name == "relay":
        text = _("Mode: relay. Every message is now one line: KEYWORD {json} with its sentence in human.")
    else:
        text = _("Mode: human. Messages are now plain sentences.")
    return Message("MODE", {"mode": name}, text)


def nick(name: str, previous: str | None) -> Message:
    text = (_("You are now %(name)s.", name=name) if previous is None
            else _("You are now %(name)s (was %(previous)s).", name=name, previous=previous))
    return Message("NICK", {"nick": name, "previous": previous}, text)


def bye(reason: str, text: Wordable) -> Message:
    return Message("BYE", {"reason": reason}, text)


def _in_words(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 60 and seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def shutdown_soon(seconds: float, reason: str, by: str) -> Message:
    """The server stops in ``seconds`` (an admin's /shutdown), told to everyone online."""
    when = "now" if seconds <= 0 else f"in {_in_words(seconds)}"
    return Message("SHUTDOWN", {"seconds": int(seconds), "reason": reason, "by": by},
                   _('The server stops %(when)s (%(by)s: %(reason)s). No new game starts; games in play are '
                     'kept and come back after the restart.', when=when, by=by, reason=reason))


def shutdown_cancelled(by: str) -> Message:
    return Message("SHUTDOWN_CANCELLED", {"by": by}, _('%(by)s called off the shutdown; games may start again.', by=by))


def chat(table: int | None, sender: str, text: str, action: bool = False) -> Message:
    """A chat line, or (``action``) a /me: EMOTE, ``[lobby] * Ann waves``."""
    room = "lobby" if table is None else f"table {table}"
    if action:
        return Message("EMOTE", {"table": table, "from": sender, "text": text}, _('[%(room)s] * %(sender)s %(text)s', room=room, sender=sender, text=text))
    return Message(
        "CHAT", {"table": table, "from": sender, "text": text}, _('[%(room)s] %(sender)s: %(text)s', room=room, sender=sender, text=text)
    )


def kibitz(table: int, sender: str, text: str, action: bool = False) -> Message:
    """Spectators' chat (``/kibitz``, or a spectator's line at a started table): no player sees it."""
    shown = f"* {sender} {text}" if action else f"{sender}: {text}"
    return Message("KIBITZ", {"table": table, "from": sender, "text": text, "action": action},
                   _('[table %(table)s spectators] %(shown)s', table=table, shown=shown))


def away_notice(nick: str, text: str) -> Message:
    """Told to whoever sends a /msg to one who is away."""
    return Message("AWAY_NOTICE", {"nick": nick, "text": text}, _('%(nick)s is away: %(text)s', nick=nick, text=text))


def back(nick: str) -> Message:
    """An away player typed something: he is back."""
    return Message("BACK", {"nick": nick}, _('You are back (no longer away).'))


def private(sender: str, recipient: str, text: str, echo: bool) -> Message:
    """A /msg: the recipient sees it from the sender; the sender gets an echo."""
    shown = f"-> *{recipient}* {text}" if echo else f"*{sender}* {text}"
    return Message("MSG", {"from": sender, "to": recipient, "text": text}, shown)


def who(users: list[dict[str, Any]], page: int = 1, pages: int = 1, total: int | None = None,
        observers: Sequence[dict[str, Any]] = ()) -> Message:
    """One page of ``users``: dicts with nick, table (or None), seat (or None), watching;
    ``observers`` (dicts with nick, table) are connections that only watch, no people."""
    total = len(users) if total is None else total
    observers = list(observers)
    fields = {"users": users, "page": page, "pages": pages, "total": total, "observers": observers}
    watching: list[Wordable] = ["; ", _("observers (no people): %(observers)s", observers=Joined(", ", [
        _("%(nick)s (watching table %(table)s)", nick=o["nick"], table=o["table"]) if o["table"] is not None
        else o["nick"] for o in observers]))] if observers else []
    if not total:
        return Message("WHO", fields, Joined("", [_("Nobody has chosen a name yet."), *watching]))
    parts: list[Wordable] = []
    for user in users:
        where: Wordable
        if user["table"] is None:
            where = _("lobby")
        elif user["watching"]:
            where = _("watching table %(table)s", table=user["table"])
        else:
            where = _("table %(table)s seat %(seat)s", table=user["table"], seat=user["seat"])
        if user.get("away"):
            where = _("%(place)s, away: %(reason)s", place=where, reason=user["away"])
        parts.append(Joined("", [user["nick"], " (", where, ")"]))
    heading = _("Online (%(total)s)", total=total) if pages == 1 else _(
        "Online (%(total)s, page %(page)s of %(pages)s)", total=total, page=page, pages=pages)
    more: list[Wordable] = ["; ", _("/who %(page)s shows more", page=page + 1)] if page < pages else []
    return Message("WHO", fields, Joined("", [heading, ": ", Joined(", ", parts), *more, *watching]))


def output_skipped() -> Message:
    """Told once when lobby chat to a client that does not read is being skipped."""
    return Message("SKIPPED", {"what": "lobby_chat"},
                   _('You are not reading fast enough: lobby chat to you is skipped until you catch up.'))


def help_index(entries: list[dict[str, Any]], groups: list[dict[str, Any]],
               abouts: Sequence[Wordable] = ()) -> Message:
    """``entries``: dicts with name, usage, summary, aliases, group; ``groups``: dicts
    with name, about, commands (their names), in the order /help shows them; ``abouts``: each
    group's description, to be worded (else its field)."""
    abouts = list(abouts) or [g["about"] for g in groups]
    lines: list[Wordable] = [_("Commands by group (/help GROUP lists one, /help COMMAND explains one;"
                               " lines without / are chat):")]
    lines += [Joined("", [f"  {g['name']} (", about, f"): {' '.join('/' + n for n in g['commands'])}"])
              for g, about in zip(groups, abouts)]
    return Message("HELP", {"commands": entries, "groups": groups}, Joined("\n", lines))


def help_group(group: str, about: Wordable, entries: list[dict[str, Any]],
               summaries: Sequence[Wordable] = ()) -> Message:
    width = max((len(e["usage"]) for e in entries), default=0)
    summaries = list(summaries) or [e["summary"] for e in entries]
    lines: list[Wordable] = [_("%(group)s commands (%(about)s; /help COMMAND for details):",
                               group=group.capitalize(), about=about)]
    lines += [Joined("", [f"  {e['usage']:<{width}}  ", summary]) for e, summary in zip(entries, summaries)]
    return Message("HELP", {"group": group, "commands": entries}, Joined("\n", lines))


def help_entry(name: str, usage: str, help_text: Wordable, aliases: list[str], group: str) -> Message:
    """Every name the command answers to, the English one first."""
    names = ", ".join("/" + n for n in (name, *aliases))
    return Message(
        "HELP",
        {"command": name, "usage": usage, "help": str(help_text), "aliases": aliases,
         "names": [name, *aliases], "group": group},
        Joined("\n", [usage, help_text, _("Names: %(names)s (group %(group)s)", names=names, group=group)]),
    )


def seat_held(table: int, seat: int) -> Message:
    return Message(
        "SEAT_HELD",
        {"table": table, "seat": seat},
        _('Your seat %(seat)s at table %(table)s was held for you; you sit in it again.', seat=seat, table=table),
    )


# -- tables ----------------------------------------------------------------


def tables(views: list[dict[str, Any]]) -> Message:
    if not views:
        return Message("TABLES", {"tables": []}, _('No tables yet. /join opens one.'))
    return Message("TABLES", {"tables": views}, Joined("\n", [describe_table(v) for v in views]))


def describe_table(view: dict[str, Any]) -> Wordable:
    """One line about a table for people, from its plain-data view."""
    seats = Joined(", ", [
        _("%(number)s %(nick)s (away)", number=number, nick=nick or "-") if number in view["away"]
        else f"{number} {nick or '-'}" for number, nick in enumerate(view["seats"], start=1)])
    values = {"table": view["table"], "state": view["state"], "seats": seats,
              "options": describe_options(view["options"])}
    line: Wordable = (_("Table %(table)s [%(state)s, private] seats: %(seats)s | options: %(options)s", **values)
                      if view.get("private") else
                      _("Table %(table)s [%(state)s] seats: %(seats)s | options: %(options)s", **values))
    if view["spectators"]:
        line = Joined(" | ", [line, _("watching: %(spectators)s", spectators=", ".join(view["spectators"]))])
    return line


def describe_options(options: dict[str, Any]) -> str:
    rounds = options["round"]
    parts = [f"variant {options['variant']}"] if "variant" in options else []  # not the 4-player game
    parts += [
        f"round {rounds}" if rounds else "round off",
        "tichujoin " + ("on" if options["tichujoin"] else "off"),
        "turnier " + ("on" if options["turnier"] else "off"),
    ]
    if options.get("clock"):  # shown only when on: most tables are untimed
        parts.append(f"clock {options['clock']}")
    return ", ".join(parts)


def joined(view: dict[str, Any], seat: int, player: str) -> Message:
    number = view["table"]
    return Message(
        "JOINED",
        {"table": number, "seat": seat, "nick": player, "seats": view["seats"]},
        _('%(player)s sits down at table %(number)s, seat %(seat)s.', player=player, number=number, seat=seat),
    )


def left(view: dict[str, Any], seat: int, player: str, reason: str) -> Message:
    """A seat became free: ``reason`` is "left", "timeout" (did not come back in time) or "kicked"."""
    number = view["table"]
    why = {"timeout": " (did not come back in time)", "kicked": " (removed)"}.get(reason, "")
    return Message(
        "LEFT",
        {"table": number, "seat": seat, "nick": player, "reason": reason, "seats": view["seats"]},
        _('%(player)s leaves seat %(seat)s at table %(number)s%(why)s.', player=player, seat=seat, number=number, why=why),
    )


def away(number: int, seat: int, player: str, grace: float | None) -> Message:
    """A seated player is gone but keeps the seat; ``grace`` is None if held until he returns."""
    held = (
        f"held for {_duration(grace)}" if grace is not None else "held until the player returns"
    )
    return Message(
        "AWAY",
        {"table": number, "seat": seat, "nick": player, "grace": grace},
        _('%(player)s (seat %(seat)s) is away; the seat is %(held)s: /join %(number)s %(seat)s '
          'returns.', player=player, seat=seat, held=held, number=number),
    )


def returned(view: dict[str, Any], seat: int, player: str) -> Message:
    number = view["table"]
    return Message(
        "RETURNED",
        {"table": number, "seat": seat, "nick": player, "seats": view["seats"]},
        _('%(player)s is back at table %(number)s, seat %(seat)s.', player=player, number=number, seat=seat),
    )


def bot_joined(view: dict[str, Any], seat: int, name: str, level: str, by: str | None) -> Message:
    """A bot sat down: seated by the player ``by``, or (None) by the server for quick play."""
    number = view["table"]
    seated = f"{by} seats" if by is not None else "The server seats"
    return Message(
        "JOINED",
        {"table": number, "seat": seat, "nick": name, "seats": view["seats"], "bot": level, "by": by},
        f"{seated} {'an' if level[:1] in 'aeiou' else 'a'} {level} bot, {name}, at table {number},"
        f" seat {seat}{'' if by is not None else ' (quick play)'}.",
    )


def table_closed(number: int, by: str, reason: str) -> Message:
    """An admin closed the table: its game ends unfinished, everyone there is back in the lobby."""
    return Message("TABLE_CLOSED", {"table": number, "by": by, "reason": reason},
                   _('Table %(number)s is closed by the admin %(by)s: %(reason)s. Its game ends unfinished; '
                     'you are back in the lobby.', number=number, by=by, reason=reason))


def table_reopened(view: dict[str, Any]) -> Message:
    number = view["table"]
    return Message(
        "TABLE_OPEN",
        {"table": number, "seats": view["seats"], "options": view["options"]},
        _('Table %(number)s is open again: change options, or /start a new game with the same '
          'seats.', number=number),
    )


def spectator_joined(view: dict[str, Any], spectator: str) -> Message:
    number = view["table"]
    return Message(
        "SPECTATOR_JOINED",
        {"table": number, "nick": spectator, "seats": view["seats"]},
        _('%(spectator)s is watching table %(number)s.', spectator=spectator, number=number),
    )


def spectator_left(number: int, spectator: str) -> Message:
    return Message(
        "SPECTATOR_LEFT",
        {"table": number, "nick": spectator},
        _('%(spectator)s stops watching table %(number)s.', spectator=spectator, number=number),
    )


def private_table(number: int, private: bool, by: str) -> Message:
    """``/private on|off`` at a table."""
    state = "private: only invited players may sit down or watch" if private else "open to everyone"
    return Message("PRIVATE", {"table": number, "private": private, "by": by},
                   _('%(by)s makes table %(number)s %(state)s.', by=by, number=number, state=state))


def invited(number: int, guest: str, by: str) -> Message:
    """To the table: ``guest`` may sit down or watch, private or not."""
    return Message("INVITED", {"table": number, "nick": guest, "by": by}, _('%(by)s invites %(guest)s to table %(number)s.', by=by, guest=guest, number=number))


def invitation(number: int, by: str) -> Message:
    """To the one invited."""
    return Message("INVITATION", {"table": number, "by": by},
                   _('%(by)s invites you to table %(number)s: /join %(number)s sits you down, /watch '
                     '%(number)s lets you watch.', by=by, number=number))


def option_set(number: int, name: str, value: Any, by: str, options: dict[str, Any]) -> Message:
    shown = "off" if value in (None, False) else "on" if value is True else value
    note = ""
    if name == "round" and options["turnier"] and value is not None:
        note = " (ignored while turnier is on: a tournament is 9 hands)"
    return Message(
        "OPTION",
        {"table": number, "name": name, "value": value, "by": by, "options": options},
        _('%(by)s sets %(name)s %(shown)s at table %(number)s%(note)s. Options: '
          '%(describe_options)s.', by=by, name=name, shown=shown, number=number, note=note, describe_options=describe_options(options)),
    )


def options(number: int, values: dict[str, Any]) -> Message:
    return Message(
        "OPTIONS",
        {"table": number, "options": values},
        _('Table %(number)s options: %(describe_options)s.', number=number, describe_options=describe_options(values)),
    )


_SECOND, _DUMMY = SECOND_HAND_WORDS


def second_hand_word(variant: Variant) -> str:
    """The word a variant's messages use for the command that marks a person's actions for a
    further hand he plays (`SECOND_HAND_WORDS`): Trichu's dealer plays the dummy's hand
    (/dummy), a Duo player the second hand of his team (/second)."""
    return _DUMMY if variant.dummy is not None else _SECOND


def hand_command_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """What `for_second_hand` marks as a second hand's: ``/NAME`` for each of ``names``, the
    commands a person also gives for a second hand he plays (the game commands marked ``hand``;
    the wiring reads them from the flags). No names: nothing is marked."""
    alternatives = "|".join(sorted(names))
    return re.compile(r"(?<![\w/])/(" + alternatives + r")\b" if alternatives else r"(?!)")


def for_second_hand(variant: Variant, name: str, seat: int, text: str, commands: re.Pattern[str]) -> str:
    """A sentence said of a further hand, as its person reads it: marked with the hand, and the
    ``commands`` it names (`hand_command_pattern`) are that hand's ("[dummy, seat 3, your /dummy]
    Your turn: lead: /dummy play CARDS.")."""
    prefixed = commands.sub(lambda command: f"/{second_hand_word(variant)} {command[1]}", text)
    return f"{second_hand_title(variant, name, seat)} {prefixed}"


def second_hand_title(variant: Variant, name: str, seat: int) -> str:
    """How a person is told which further hand a sentence is about: "[dummy, seat 3, your
    /dummy]" in Trichu, "[your second hand, seat 3, /second]" in Duo (``seat`` counted 1..N)."""
    word = second_hand_word(variant)
    if variant.dummy is not None:
        return f"[{name}, seat {seat}, your /{word}]"
    return f"[your second hand, seat {seat}, /{word}]"


def started(view: dict[str, Any], swapped: bool, seat: int | None, variant: Variant = NANJING) -> Message:
    """The table starts, as told to the player in ``seat`` (None: a spectator).

    ``teams`` are the variant's teams in table seats; Trichu's people have no fixed
    partner (each round the dealer plays the dummy's hand opposite him), so its
    ``teams`` is empty."""
    number, seats = view["table"], view["seats"]
    teams: list[list[int]] = []
    if variant.dummy is not None:  # the game's seats move round by round: the people first
        text = _trichu_started(number, seats, seat, variant)
    elif variant.further_seats:  # Duo: each person plays every hand of his team
        teams, text = _duo_started(number, seats, seat, variant)
    else:
        teams, text = _partners_started(number, seats, seat, variant, swapped)
    return Message(
        "STARTED",
        {
            "table": number,
            "seats": seats,
            "teams": teams,
            "swapped": swapped,
            "options": view["options"],
            "seat": seat,
        },
        text,
    )


def _trichu_started(number: int, seats: list[str], seat: int | None, variant: Variant) -> str:
    """Trichu's start: the people at their table seats, and how the deal moves their game seats."""
    people = ", ".join(f"{nick} (table seat {i})" for i, nick in enumerate(seats, start=1))
    text = (f"Table {number} starts a game of {variant.title}: {people}. Each round the dealer"
            " plays with the dummy's hand opposite him; the deal passes on round by round, and"
            " with it everyone's seat in the game, as each round's seating says.")
    return text if seat is None else text + f" You sit at table seat {seat}."


def _duo_started(number: int, seats: list[str], seat: int | None, variant: Variant) -> tuple[list[list[int]], str]:
    """Duo's start: the two teams, each person with both hands of his."""
    firsts = variant.person_seats  # table seat k's person sits first at engine seat firsts[k - 1]
    teams = [[k for k, s in enumerate(firsts, start=1) if variant.teams[s] == team] for team in (0, 1)]
    sides = " against ".join(" + ".join(f"{seats[k - 1]} (seats "
                                        + " and ".join(str(h + 1) for h in variant.hands_with[firsts[k - 1]])
                                        + ")" for k in team) for team in teams)
    text = (f"Table {number} starts a game of {variant.title}: {_seating(seats)}. Each of you plays"
            f" both hands of a team: {sides}.")
    if seat is not None:
        hands = variant.hands_with[firsts[seat - 1]]
        text += (f" You sit in seat {seat} and play the hands of seats {hands[0] + 1} and {hands[1] + 1};"
                 f" /{second_hand_word(variant)} COMMAND plays seat {hands[1] + 1}'s.")
    return teams, text


def _partners_started(number: int, seats: list[str], seat: int | None, variant: Variant,
                      swapped: bool) -> tuple[list[list[int]], str]:
    """The start of a game with fixed partners (the 4-player game, Tientsin): who plays with whom."""
    teams = [[s + 1 for s in variant.team_seats(team)] for team in (0, 1)]
    sides = " against ".join(" + ".join(seats[s - 1] for s in team) + " (seats "
                             + "+".join(map(str, team)) + ")" for team in teams)
    game = "" if variant is NANJING else f" a game of {variant.title}"
    swap = " (tichujoin: seats 2 and 3 swapped)" if swapped else ""
    text = f"Table {number} starts{game}{swap}: {_seating(seats)}. Partners: {sides}."
    if seat is not None:
        partners = [seats[s] for s in variant.partners[seat - 1]]
        if len(partners) == 1:
            text += f" You sit in seat {seat}; your partner is {partners[0]}."
        else:
            text += f" You sit in seat {seat}; your partners are {' and '.join(partners)}."
    return teams, text


def _seating(seats: list[str]) -> str:
    return ", ".join(f"seat {i} {nick}" for i, nick in enumerate(seats, start=1))


def counted(count: int, noun: str) -> str:
    """``1 game``, ``2 games``: a count with its noun, singular for one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _number(value: float) -> str:
    return f"{value:g}"


def _duration_worded(seconds: float) -> Text:
    """`_duration` in the reader's language."""
    if seconds >= 60 and seconds % 60 == 0:
        return _n("%(count)s minute", "%(count)s minutes", int(seconds // 60))
    return _("%(seconds)s seconds", seconds=_number(seconds))


def _duration(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{_number(seconds)} seconds"


def password_wanted(nick: str, question: str, again: bool = False) -> Message:
    """A person at a terminal is asked for a password; the next line is it, not shown."""
    return Message("PASSWORD_WANTED", {"nick": nick, "again": again}, question)


def unencrypted(tls_port: int | None) -> Message:
    """A password came over a plain connection from another machine (said once per connection)."""
    where = (f" Port {tls_port} is the same over TLS: use it next time." if tls_port
             else " This server has no TLS port for it.")
    return Message("UNENCRYPTED", {"tls_port": tls_port},
                   _('Your password travelled unencrypted over this connection: anyone on the way could read '
                     'it.%(where)s', where=where))


def gave_up() -> Message:
    """An empty line answered PASSWORD_WANTED."""
    return Message("GAVE_UP", {}, _('No password given; nothing changed.'))


def legal_push(on: bool) -> Message:
    """The reply to /legal push: whether the client's LEGAL comes by itself when it is his move."""
    text = ("Your legal actions now come by themselves whenever it is your move (/legal push off"
            " stops it)." if on else "Your legal actions come when you ask: /legal.")
    return Message("LEGAL_PUSH", {"push": on}, text)


def display(width: int | None, width_auto: bool, colour: bool, colour_auto: bool) -> Message:
    """The reply to /width and /color: the connection's wrapping and colour in force."""
    wrap = f"text wraps at {width} columns" if width else "text is not wrapped"
    shown = "cards in colour" if colour else "no colour"
    text = (f"Display: {wrap}{' (auto)' if width_auto else ''};"
            f" {shown}{' (auto)' if colour_auto else ''}.")
    return Message("DISPLAY", {"width": width, "width_auto": width_auto,
                               "color": colour, "color_auto": colour_auto}, text)


def language(code: str) -> Message:
    """The reply to /lang: the language in force and the choices."""
    from bswtichu.server.text.i18n import LANGUAGES
    choices = ", ".join(f"{each} ({name})" for each, name in LANGUAGES.items())
    return Message("LANGUAGE", {"language": code, "choices": list(LANGUAGES)},
                   _("Language: %(name)s. Choices: %(choices)s; /lang CODE changes it.",
                     name=LANGUAGES[code], choices=choices))


def vote_opened(number: int, vote: dict[str, Any], what: str, seconds: float) -> Message:
    """A vote opens at a table: ``what`` says what it asks for, in a few words."""
    needed, count = vote["needed"], len(vote["voters"])
    return Message("VOTE", {"table": number, **vote, "seconds": seconds},
                   f"{vote['by']} asks to {what}: /accept or /refuse. {needed} of {count}"
                   f" decide{'s' if needed == 1 else ''} ({', '.join(vote['voters'])});"
                   f" no answer within {_duration(seconds)} counts as refused.")


def vote_answered(number: int, vote: dict[str, Any], nick: str, yes: bool) -> Message:
    return Message("VOTE_ANSWER", {"table": number, **vote, "nick": nick, "accepted": yes},
                   f"{nick} {'accepts' if yes else 'refuses'} ({len(vote['yes'])} yes,"
                   f" {len(vote['no'])} no, {vote['needed']} needed).")


def vote_ended(number: int, vote: dict[str, Any], passed: bool, reason: str) -> Message:
    """``reason``: "majority" (passed), "refused" (a majority can no longer say yes), "timeout"."""
    why = {"majority": "accepted", "refused": "refused",
           "timeout": "refused: not enough answers in time"}[reason]
    return Message("VOTE_END", {"table": number, **vote, "passed": passed, "reason": reason},
                   f"The vote at table {number} ({vote['vote']}) is {why}.")


def paused(number: int, seconds: float) -> Message:
    """The game at a table stops by vote, for at most ``seconds``."""
    return Message("PAUSED", {"table": number, "paused": True, "seconds": seconds},
                   _('The game at table %(number)s is paused: no bot moves, no clock runs, for at most '
                     '%(seconds)g seconds; /continue asks to go on.', number=number, seconds=seconds))


def pause_ended(number: int, reason: str, by: str | None = None, seconds: float | None = None) -> Message:
    """A voted pause is over: by a vote (``vote``), at its limit of ``seconds`` (``limit``), or
    ended by ``by``, who did not vote for it, once everyone is present (``ended``)."""
    if reason == "limit":
        text = f"The pause at table {number} reached its limit of {seconds:g} seconds: the game goes on."
    elif reason == "ended":
        text = (f"{by} ends the pause at table {number} (he did not vote for it, and everyone is"
                " here): the game goes on.")
    else:
        text = f"The game at table {number} goes on."
    return Message("PAUSED", {"table": number, "paused": False, "reason": reason, "by": by}, text)


def handed_over(view: dict[str, Any], seat: int, player: str, to: str) -> Message:
    """By vote a waiting person plays the seat, as its player, to the end of the game."""
    number = view["table"]
    return Message("REPLACED", {"table": number, "seat": seat, "nick": player, "to": to, "level": None,
                                "seats": view["seats"]},
                   _('By vote %(to)s plays seat %(seat)s for %(player)s to the end of the game, with '
                     "%(player)s's cards and points; %(player)s may /watch %(number)s.", to=to, seat=seat, player=player, number=number))


def replaced(view: dict[str, Any], seat: int, player: str, level: str) -> Message:
    """By vote, a bot plays the seat for the rest of the game; the player may watch."""
    number = view["table"]
    return Message("REPLACED", {"table": number, "seat": seat, "nick": player, "to": None, "level": level,
                                "seats": view["seats"]},
                   _('By vote a %(level)s bot plays seat %(seat)s for %(player)s to the end of the game; '
                     '%(player)s may /watch %(number)s.', level=level, seat=seat, player=player, number=number))


def quick(number: int, seat: int, level: str | None, wait: float | None) -> Message:
    """Where /quick seated you; for a table it opened, the bots' level and when they come."""
    if level is None:
        text = f"Quick play: table {number} waited longest for a player; you sit in seat {seat}."
    else:
        text = (f"Quick play: no table was waiting, so you opened table {number} (seat {seat});"
                f" in {_duration(wait)} {level} bots take the free seats and it starts, unless"  # type: ignore[arg-type]  # given with a level
                " people fill it first.")
    return Message("QUICK", {"table": number, "seat": seat, "level": level, "wait": wait}, text)
