"""The answers to a card table's questions: `/check` (CHECK), `/suggest` (SUGGEST) and
`/layout` (LAYOUT), docs/PROTOCOL.md §6 "Questions for a card table".

The engine decides (`engine.selection`, the variant's seats and exchange); this module words
it, and spells each play as the command that makes it, exactly as `LEGAL` lists it (with the
second hand's word before it where the question was about a second hand).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bswtichu.engine import Play, SelectionCheck, Suggestions, Variant, combo_name, format_cards, rank_text
from bswtichu.server.text.i18n import N_, Joined, Text, Wordable, _, _n
from bswtichu.server.text.messages import Message

#: How people call the seat a card goes to in the exchange, by the variant's seats and the step.
EXCHANGE_LABELS = {(4, 1): N_("right opponent"), (4, 2): N_("partner"), (4, 3): N_("left opponent"),
                   (6, 2): N_("partner two seats on"), (6, 4): N_("partner four seats on")}
#: The variants' titles as people read them in LAYOUT.
TITLES = {"nanjing": N_("the 4-player game"), "tientsin": N_("Tientsin"), "trichu": N_("Trichu"), "duo": N_("Duo")}
#: What to do when the round waits for something that is no play (SUGGEST's sentence).
NOT_A_PLAY = {"wish": N_("Nothing to suggest: make the wish: /wish RANK or /wish none."),
              "give": N_("Nothing to suggest: give the Dragon trick: /give NAME|SEAT."),
              "dog": N_("Nothing to suggest: choose the partner who leads after your Dog: /dog NAME|SEAT.")}


def play_command(play: Play, prefix: str) -> str:
    """The command that makes ``play`` (a play the engine listed), as LEGAL spells it."""
    return f"/{prefix}{play.notation()}"


def _entry(play: Play, prefix: str) -> dict[str, Any]:
    return {"name": combo_name(play.combo), "command": play_command(play, prefix), "combo": play.combo.to_dict()}


def check(table: int, seat: int, found: SelectionCheck, wish: int | None, prefix: str = "",
          title: str = "") -> Message:
    """CHECK: whether the selection may be played now (``seat`` 0-based; ``wish`` the rank in
    force; ``prefix`` ``"second "`` for a second hand, whose sentences start with ``title``)."""
    plays = [_entry(play, prefix) for play in found.plays]
    fields = {"table": table, "seat": seat + 1, "cards": [c.text for c in found.cards], "name": found.name,
              "playable": found.playable, "how": found.how, "plays": plays, "wish": found.wish,
              "why": found.why, "reason": found.reason}

    def text() -> Wordable:
        said = found.name or format_cards(found.cards)
        if not plays:
            if not said:
                return _titled(title, _("You cannot play nothing now: %(reason)s.", reason=found.reason))
            return _titled(title, _("You cannot play %(cards)s now: %(reason)s.", cards=said, reason=found.reason))
        turn = found.how == "turn"
        sentence: Wordable
        if len(plays) == 1:
            values: dict[str, Any] = {"cards": said or _("nothing"), "command": plays[0]["command"]}
            sentence = (_("You may play %(cards)s now: %(command)s.", **values) if turn
                        else _("You may play %(cards)s out of turn: %(command)s.", **values))
        else:
            ways = _alternatives([_("%(name)s (%(command)s)", name=p["name"], command=p["command"]) for p in plays])
            cards, count = format_cards(found.cards), len(plays)
            sentence = (_n("You may play %(cards)s now, read %(count)s way: %(ways)s.",
                           "You may play %(cards)s now, read %(count)s ways: %(ways)s.", count, cards=cards, ways=ways)
                        if turn else
                        _n("You may play %(cards)s out of turn, read %(count)s way: %(ways)s.",
                           "You may play %(cards)s out of turn, read %(count)s ways: %(ways)s.", count, cards=cards,
                           ways=ways))
        if found.wish == "make":
            sentence = Joined(" ", [sentence, _("With the Mahjong you make a wish: add wish RANK to the command"
                                                " (or /wish after it).")])
        elif found.wish == "fulfil" and wish is not None:
            sentence = Joined(" ", [sentence, _("It fulfils the wish for %(rank)s.", rank=rank_text(wish))])
        return _titled(title, sentence)

    return Message("CHECK", fields, text)


def _alternatives(choices: list[Text]) -> Wordable:
    """``a or b or c``, each ``or`` in the reader's language."""
    said: Wordable = choices[0]
    for choice in choices[1:]:
        said = _("%(first)s or %(second)s", first=said, second=choice)
    return said


def _listed(entries: list[dict[str, Any]]) -> Joined:
    return Joined(" | ", [_("%(name)s (%(command)s)", name=e["name"], command=e["command"]) for e in entries])


def suggest(table: int, seat: int, found: Suggestions, prefix: str = "", title: str = "") -> Message:
    """SUGGEST: a few plays for the hand now (one per kind), the bombs apart, the pass."""
    plays = [_entry(play, prefix) for play in found.plays]
    bombs = [_entry(play, prefix) for play in found.bombs]
    passing = f"/{prefix}pass" if found.can_pass else None
    fields = {"table": table, "seat": seat + 1, "need": found.need, "plays": plays, "bombs": bombs,
              "pass": passing}

    def text() -> Wordable:
        parts: list[Wordable] = []
        if plays:
            parts.append(_("Suggested: %(plays)s.", plays=_listed(plays)))
        if bombs:
            parts.append(_("Bombs: %(bombs)s.", bombs=_listed(bombs)))
        if passing:
            parts.append(_("Or %(command)s.", command=passing))
        if not parts:
            doing = NOT_A_PLAY.get(found.need or "")
            parts.append(Text(doing, None, 1, {}) if doing else _("Nothing to suggest now (/legal lists what you"
                                                                  " may do)."))
        return _titled(title, Joined(" ", parts))

    return Message("SUGGEST", fields, text)


def _titled(title: str, sentence: Wordable) -> Wordable:
    return Joined(" ", [title, sentence]) if title else sentence


def exchange_steps(variant: Variant) -> list[dict[str, Any]]:
    """The exchange's steps in `/schupf`'s order, each with how people call where it goes."""
    return [{"step": step, "label": EXCHANGE_LABELS[(variant.seats, step)]} for step in variant.exchange_steps]


def layout(table: int, variant: Variant, options: dict[str, Any], hand_commands: Iterable[str],
           second: str | None, seat: int | None, plays: Sequence[tuple[int, str]]) -> Message:
    """LAYOUT: the table's form as its reader sees it; ``seat`` his round seat (0-based, None:
    none), ``plays`` the round seats he plays with each one's command prefix, his own first."""
    steps = exchange_steps(variant)
    hands = [{"seat": hand + 1, "prefix": prefix,
              "exchange": [{"to": target + 1, "label": step["label"]}
                           for target, step in zip(variant.exchange_targets[hand], steps)]}
             for hand, prefix in plays]
    teams = [[s + 1 for s in variant.team_seats(team)] for team in (0, 1)]
    fields = {"table": table, "variant": variant.name, "title": TITLES.get(variant.name, variant.name),
              "people": variant.players, "hands": variant.seats, "teams": teams, "exchange": steps,
              "dummy": None if variant.dummy is None else variant.dummy + 1, "second": second,
              "hand_commands": sorted(hand_commands), "seat": None if seat is None else seat + 1,
              "plays": hands, "options": options}

    def text() -> Wordable:
        sides = _("seats %(first)s against seats %(second)s", first="+".join(map(str, teams[0])),
                  second="+".join(map(str, teams[1])))
        form = (_("%(people)s people playing %(hands)s hands", people=variant.players, hands=variant.seats)
                if variant.further_seats else _n("%(count)s player", "%(count)s players", variant.seats))
        order = Joined(", ", [Text(step["label"], None, 1, {}) for step in steps])
        title = TITLES.get(variant.name)
        sentence: Wordable = _n("Table %(table)s: %(title)s, %(form)s; teams: %(sides)s. The exchange passes"
                                " %(count)s card, in this order: %(order)s.",
                                "Table %(table)s: %(title)s, %(form)s; teams: %(sides)s. The exchange passes"
                                " %(count)s cards, in this order: %(order)s.", len(steps), table=table,
                                title=Text(title, None, 1, {}) if title else variant.name, form=form,
                                sides=sides, order=order)
        if hands:
            seats: list[Wordable] = [_("seat %(seat)s (%(prefix)s)", seat=hand + 1, prefix=prefix.strip()) if prefix
                                     else _("seat %(seat)s", seat=hand + 1) for hand, prefix in plays]
            mine = seats[0]
            for more in seats[1:]:
                mine = _("%(first)s and %(second)s", first=mine, second=more)
            sentence = Joined(" ", [sentence, _("You play %(seats)s.", seats=mine)])
        return sentence

    return Message("LAYOUT", fields, text)


__all__ = ["check", "suggest", "layout", "exchange_steps", "play_command", "EXCHANGE_LABELS"]
