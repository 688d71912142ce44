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
from bswtichu.server.text.messages import Message

#: How people call the seat a card goes to in the exchange, by the variant's seats and the step.
EXCHANGE_LABELS = {(4, 1): "right opponent", (4, 2): "partner", (4, 3): "left opponent",
                   (6, 2): "partner two seats on", (6, 4): "partner four seats on"}
#: The variants' titles as people read them in LAYOUT.
TITLES = {"nanjing": "the 4-player game", "tientsin": "Tientsin", "trichu": "Trichu", "duo": "Duo"}
#: What to do when the round waits for something that is no play (SUGGEST's sentence).
NOT_A_PLAY = {"wish": "make the wish: /wish RANK or /wish none",
              "give": "give the Dragon trick: /give NAME|SEAT",
              "dog": "choose the partner who leads after your Dog: /dog NAME|SEAT"}


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

    def text() -> str:
        said = found.name or format_cards(found.cards) or "nothing"
        if not plays:
            return _titled(title, f"You cannot play {said} now: {found.reason}.")
        when = "now" if found.how == "turn" else "out of turn"
        if len(plays) == 1:
            sentence = f"You may play {said} {when}: {plays[0]['command']}."
        else:
            ways = " or ".join(f"{p['name']} ({p['command']})" for p in plays)
            sentence = f"You may play {format_cards(found.cards)} {when}, read {len(plays)} ways: {ways}."
        if found.wish == "make":
            sentence += " With the Mahjong you make a wish: add wish RANK to the command (or /wish after it)."
        elif found.wish == "fulfil" and wish is not None:
            sentence += f" It fulfils the wish for {rank_text(wish)}."
        return _titled(title, sentence)

    return Message("CHECK", fields, text)


def suggest(table: int, seat: int, found: Suggestions, prefix: str = "", title: str = "") -> Message:
    """SUGGEST: a few plays for the hand now (one per kind), the bombs apart, the pass."""
    plays = [_entry(play, prefix) for play in found.plays]
    bombs = [_entry(play, prefix) for play in found.bombs]
    passing = f"/{prefix}pass" if found.can_pass else None
    fields = {"table": table, "seat": seat + 1, "need": found.need, "plays": plays, "bombs": bombs,
              "pass": passing}

    def text() -> str:
        parts = []
        if plays:
            parts.append("Suggested: " + " | ".join(f"{p['name']} ({p['command']})" for p in plays) + ".")
        if bombs:
            parts.append("Bombs: " + " | ".join(f"{b['name']} ({b['command']})" for b in bombs) + ".")
        if passing:
            parts.append(f"Or {passing}.")
        if not parts:
            doing = NOT_A_PLAY.get(found.need or "")
            parts.append(f"Nothing to suggest: {doing}." if doing else "Nothing to suggest now (/legal lists"
                         " what you may do).")
        return _titled(title, " ".join(parts))

    return Message("SUGGEST", fields, text)


def _titled(title: str, sentence: str) -> str:
    return f"{title} {sentence}" if title else sentence


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

    def text() -> str:
        sides = " against ".join("seats " + "+".join(map(str, team)) for team in teams)
        form = f"{variant.players} people playing {variant.seats} hands" if variant.further_seats else \
            f"{variant.seats} players"
        count = len(steps)
        where = ", ".join(step["label"] for step in steps)
        sentence = (f"Table {table}: {fields['title']}, {form}; teams: {sides}. The exchange passes {count}"
                    f" cards, in this order: {where}.")
        if hands:
            mine = " and ".join(f"seat {hand + 1}" + (f" ({prefix.strip()})" if prefix else "")
                                for hand, prefix in plays)
            sentence += f" You play {mine}."
        return sentence

    return Message("LAYOUT", fields, text)


__all__ = ["check", "suggest", "layout", "exchange_steps", "play_command", "EXCHANGE_LABELS"]
