"""Duo at a server table: 2 seats, each person playing both hands of his team (his own seat's,
and with /second the hand two seats on); what each is told, the clock, a restart, whole games.

People are lobby clients on a fake clock; bots move as the clock advances.  The helpers are
test_tables_variants.py's (its whole-game and restart tests run Duo too).
"""

from __future__ import annotations

import json
from random import Random

from twisted.internet.task import Clock

from bswtichu.net.mud import prompt_text
from bswtichu.server.text.messages import Message

from lobby_clients import Client
from test_games_durable import durable_lobby, gone
from test_tables_game import seeded_lobby
from test_tables_variants import DELAY, play_on, seated, timed_game_without_the_person, views


def recorded(client: Client) -> list[str]:
    """Every line the client is sent from now on, kept past its `clear` calls."""
    kept: list[str] = []
    send = client.connection.send_lines

    def both(lines: list[str], droppable: bool = False) -> None:
        kept.extend(lines)
        send(lines, droppable)

    client.connection.send_lines = both
    return kept


def duo_pair(tmp_path, seed: int, clock: Clock, machine: bool = True, **settings) -> tuple[Client, Client]:
    lobby = seeded_lobby(tmp_path, seed, clock, bot_delay=DELAY, **settings)
    ann, bob = Client(lobby, "Ann", machine=machine), Client(lobby, "Bob")
    ann.say("/join")
    ann.say("/variant duo")
    bob.say("/join 1")
    return ann, bob


# ---------------------------------------------------------------------- the table


def test_a_duo_table_has_two_seats_and_starts_with_two_people_or_one_and_a_bot(connect):
    ann, bob = seated(connect, 2, "duo")
    ann.say("/tables")
    view = ann.only("TABLES")["tables"][0]
    assert view["seats"] == ["Ann", "Bob"] and view["options"]["variant"] == "duo"
    cy = connect("Cy")
    cy.say("/join 1")
    assert cy.error_code() == "table_full"
    bob.say("/leave")
    ann.clear()
    ann.say("/start")
    assert ann.error_code() == "not_enough_players" and "needs two" in ann.received()[0][1]["message"]
    ann.clear()
    ann.say("/bot 3")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say("/bot")
    ann.say("/start")
    started = ann.only("STARTED")
    assert started["teams"] == [[1], [2]] and len(started["seats"]) == 2
    ann.clear()
    ann.say("/variant nanjing")
    assert ann.error_code() == "table_started"


def test_the_start_tells_each_person_the_two_hands_he_plays(tmp_path):
    ann, bob = duo_pair(tmp_path, 3, Clock(), machine=False)
    ann.clear()
    ann.say("/start")
    text = "\n".join(ann.connection.lines)
    assert "Ann (seats 1 and 3) against Bob (seats 2 and 4)" in text
    assert "play the hands of seats 1 and 3; /second COMMAND plays seat 3's" in text
    assert "Ann + Ann" not in text
    ann.connection.lines.clear()
    ann.say("/score")
    assert ann.connection.lines[-1].startswith("Score after 0 rounds: Ann 0, Bob 0.")


# ---------------------------------------------------------------------- the second hand


def test_each_person_plays_his_second_hand_with_second_or_dummy(tmp_path):
    clock = Clock()
    ann, bob = duo_pair(tmp_path, 5, clock)
    for c in (ann, bob):
        c.clear()
    ann.say("/start")
    assert {f["seat"] for k, f in ann.received() if k == "DEALT"} == {1, 3}
    assert {f["seat"] for k, f in bob.received() if k == "DEALT"} == {2, 4}
    ann.clear()
    ann.say("/hand")
    assert [f["seat"] for k, f in ann.received() if k == "HAND"] == [1, 3]
    for word in ("second", "dummy"):  # both names work; the messages say Duo's word
        ann.clear()
        ann.say(f"/{word} legal")
        commands = ann.only("LEGAL")["commands"]
        assert commands == ["/second nogrand", "/second grand"], word
    ann.clear()
    ann.say("/second juggle")
    assert ann.error_code() == "usage" and "usage: /second COMMAND" in ann.received()[0][1]["message"]
    ann.clear()
    ann.say("/dummy nogrand now")  # a command's wrong use names its usage, in Duo's word
    assert ann.error_code() == "usage"
    assert ann.received()[0][1]["message"] == "it takes no arguments; usage: /second nogrand"
    ann.say("/second nogrand")
    ann.say("/nogrand")
    bob.say("/nogrand")
    bob.say("/second nogrand")
    ann.clear()
    ann.say("/second hand")
    hand = ann.only("HAND")
    assert hand["seat"] == 3 and len(hand["cards"]) == 14
    ann.clear()
    ann.say(f"/second schupf {' '.join(hand['cards'][:3])}")
    assert "ERROR" not in ann.keywords()
    ann.clear()
    ann.say("/second schupf " + " ".join(hand["cards"][3:6]))
    assert ann.error_code() == "illegal"  # sent once: the second hand's exchange is final


def test_sentences_and_prompts_mark_the_second_hand_with_its_command(tmp_path):
    clock = Clock()
    ann, bob = duo_pair(tmp_path, 7, clock, machine=False)
    ann.say("/start")
    asked = [line for line in ann.connection.lines if "Grand Tichu?" in line]
    assert asked and "[your second hand, seat 3, /second] Grand Tichu?" in asked[-1]
    # the commands a second hand's sentence names are that hand's; his own hand's stay plain
    assert "/second grand calls it" in asked[-1] and "/second nogrand declines" in asked[-1]
    own = asked[-1].split("[your second hand")[0]
    assert own.startswith("Grand Tichu?") and "/grand calls it" in own and "/second" not in own
    ann.connection.lines.clear()
    ann.say("/second legal")
    assert "Legal now for your second hand (seat 3): /second before each command" in ann.connection.lines[-1]
    ann.connection.lines.clear()
    ann.say("/second hand")
    assert ann.connection.lines[-1].startswith("Your second hand (seat 3), which you play (8):")
    ann.connection.lines.clear()
    ann.say("/table")
    table = "\n".join(ann.connection.lines)
    assert "seat 3 Ann (yours to play)" in table and "seat 1 Ann (you)" in table
    turn = Message("TURN", {"table": 1, "seat": 3, "player": "Ann", "need": "lead", "by": "Ann",
                            "command": "second"}, "")
    assert prompt_text(turn, "Ann", True) == "second lead> " and prompt_text(turn, "Bob", True) is None


# ---------------------------------------------------------------------- hidden hands


def hidden_cards_leaked(lines: list[str], hidden: list[set[str]]) -> list[str]:
    """The lines a person was sent that name a card of the opponent's hands (``hidden``, by
    round) before it was played or passed to him: every string in the machine fields counts."""
    leaks, round_number, shown = [], 0, set()
    for line in lines:
        keyword, _, payload = line.partition(" ")
        fields = json.loads(payload)
        if keyword == "ROUND_END":
            round_number, shown = round_number + 1, set()
            continue
        if keyword == "PLAYED":
            shown |= set(fields["combo"]["cards"])
        if keyword == "RECEIVED":
            shown |= set(fields["cards"].values())
        strings = set()
        stack = [fields]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str):
                strings.add(item)
        if keyword != "LOG" and round_number < len(hidden) and (strings & hidden[round_number]) - shown:
            leaks.append(line)
    return leaks


def test_no_message_to_a_person_names_a_card_of_the_opponents_hands(tmp_path):
    clock = Clock()
    ann, bob = duo_pair(tmp_path, 11, clock)
    ann.say("/round 2")
    kept = {c: recorded(c) for c in (ann, bob)}
    ann.say("/start")
    assert play_on([ann, bob], clock, Random(12), 5000)
    dealt = {}
    for client, other in ((ann, bob), (bob, ann)):
        rounds: list[set[str]] = [set()]  # by round, as `hidden_cards_leaked` counts them
        for line in kept[client]:
            keyword, _, payload = line.partition(" ")
            if keyword == "ROUND_END":
                rounds.append(set())
            if keyword == "DEALT":
                rounds[-1] |= set(json.loads(payload)["cards"])
        dealt[client] = rounds[:-1]
    assert len(dealt[ann]) == 2 and all(len(cards) == 28 for cards in dealt[ann] + dealt[bob])
    assert not hidden_cards_leaked(kept[ann], dealt[bob])
    assert not hidden_cards_leaked(kept[bob], dealt[ann])
    assert hidden_cards_leaked(kept[ann], dealt[ann])  # the check does see a person's own cards
    assert sum(line.startswith("PLAYED ") for line in kept[ann]) > 20  # the check saw play


# ---------------------------------------------------------------------- clock, restart, games


def test_the_clock_is_one_per_person_and_times_both_his_hands(tmp_path):
    table, outs = timed_game_without_the_person(tmp_path, "duo", 1, 1)
    assert set(table.last_game.driver.turn_clock.running) <= {"Ann", table.seats[1]}
    assert {f["seat"] for f in outs} == {1, 3}
    assert "Ann" in table.last_game.driver.substitutes  # three strikes: her stand-in played both


def test_a_restart_restores_a_duo_game_of_two_people_mid_round(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann, bob = Client(lobby, "Ann"), Client(lobby, "Bob")
    ann.say("/join")
    ann.say("/variant duo")
    bob.say("/join 1")
    ann.say("/start")
    assert not play_on([ann, bob], clock, Random(5), 60)
    before = views(lobby)
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, Clock(), seed=99)
    table = lobby2.tables.get(1)
    assert table.started and table.variant.name == "duo" and table.seats == ["Ann", "Bob"]
    assert views(lobby2) == before
    ann2, bob2 = Client(lobby2), Client(lobby2)
    ann2.say(f"/resume {ann.token}")
    assert ann2.only("RETURNED")["seat"] == 1
    assert [f["seat"] for k, f in ann2.received() if k == "HAND"] == [1, 3]  # both her hands again
    bob2.say(f"/resume {bob.token}")
    assert bob2.only("RETURNED")["seat"] == 2
    assert play_on([ann2, bob2], table.game.driver.clock, Random(6), 8000)


def test_a_whole_game_of_two_people_ends_with_standings_per_person(tmp_path):
    clock = Clock()
    ann, bob = duo_pair(tmp_path, 19, clock)
    ann.say("/round 2")
    kept = recorded(ann)
    ann.say("/start")
    assert play_on([ann, bob], clock, Random(20), 5000)
    over = [json.loads(line.partition(" ")[2]) for line in kept if line.startswith("GAME_OVER ")]
    assert len(over) == 1 and sorted(s["player"] for s in over[0]["standings"]) == ["Ann", "Bob"]
    scores = [json.loads(line.partition(" ")[2]) for line in kept if line.startswith("SCORE ")]
    assert scores[-1]["rounds"] == 2 and len(scores[-1]["totals"]) == 2
    by_player = {s["player"]: s["points"] for s in scores[-1]["standings"]}
    assert by_player == {"Ann": scores[-1]["totals"][0], "Bob": scores[-1]["totals"][1]}
