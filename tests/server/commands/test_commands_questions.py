"""/check, /suggest and /layout (docs/PROTOCOL.md §6 "Questions for a card table"), in process.

Whole games of every variant are played by people who choose only among /suggest's entries
(and /legal's for what is no play: Grand Tichu, the exchange, the wish, the Dragon, the Dog),
every suggested command first checked with /check: so each answer is held against the
game that then accepts it.
"""

from __future__ import annotations

import pytest

from lobby_clients import Client
from test_tables_game import seeded_lobby

NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay")
PEOPLE = {"nanjing": 4, "tientsin": 6, "trichu": 3, "duo": 2}
ROUNDS = {"nanjing": 1, "tientsin": 1, "trichu": 3, "duo": 1}


def ask(client: Client, line: str) -> tuple[str, dict]:
    """The one answer to ``line``."""
    client.clear()
    client.say(line)
    received = client.received()
    assert len(received) == 1, (line, client.connection.lines)
    return received[0]


def seat_people(lobby, variant: str) -> list[Client]:
    people = [Client(lobby, name) for name in NAMES[:PEOPLE[variant]]]
    people[0].say("/join")
    people[0].say(f"/variant {variant}")
    people[0].say(f"/round {ROUNDS[variant]}")
    for person in people[1:]:
        person.say("/join 1")
    for person in people:
        person.clear()
    return people


def cards_of(command: str) -> str:
    """The cards of a /play command (after /second), Phoenix reading and all."""
    return command.split(" play ", 1)[1] if " play " in command else command.split(" ", 1)[1]


def suggested_move(person: Client, prefix: str) -> str | None:
    """A move for the hand ``prefix`` names from /suggest (each entry checked), or None."""
    keyword, found = ask(person, f"{prefix}suggest")
    if keyword == "ERROR":
        assert found["code"] == "no_second_hand"
        return None
    assert keyword == "SUGGEST"
    entries = found["plays"] + found["bombs"]
    assert len(found["plays"]) <= 6 and len(found["bombs"]) <= 3
    for entry in entries:
        keyword, check = ask(person, f"{prefix}check {cards_of(entry['command'])}")
        assert keyword == "CHECK" and check["playable"], (entry, check)
        assert entry["command"] in [play["command"] for play in check["plays"]]
        assert check["why"] is None and check["reason"] is None
        assert entry["command"].startswith(("/play ",) if prefix == "/" else ("/second play ", "/dummy play "))
    if found["need"] in ("lead", "follow"):
        assert found["plays"] or found["bombs"] or found["pass"]
        return (found["plays"] + found["bombs"])[0]["command"] if found["plays"] or found["bombs"] \
            else found["pass"]
    keyword, legal = ask(person, f"{prefix}legal")
    moves = [c for c in legal["commands"] if c.split()[-1] not in ("tichu", "grand") and not c.endswith(("/tichu", "/grand"))]
    if found["need"] in ("wish", "give", "dog"):
        return moves[0]
    waiting = [c for c in moves if "nogrand" in c or "schupf" in c]
    return waiting[0] if waiting else None


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "trichu", "duo"])
def test_whole_games_played_from_suggestions_and_checks(tmp_path, variant):
    lobby = seeded_lobby(tmp_path, 7)
    people = seat_people(lobby, variant)
    people[0].say("/start")
    for step in range(3000):
        if any(k == "GAME_OVER" for person in people for k, _ in person.received()):
            break
        moved = False
        for person in people:
            for prefix in ("/", "/second "):
                move = suggested_move(person, prefix)
                if move is None:
                    continue
                person.clear()
                person.say(move)
                errors = [f for k, f in person.received() if k == "ERROR"]
                assert not errors, (move, errors)
                moved = True
                break
            if moved:
                break
        assert moved, "nobody had a move and the game is not over"
    else:
        raise AssertionError("the game did not end")


def test_check_answers_and_reasons(tmp_path):
    lobby = seeded_lobby(tmp_path, 3)
    people = seat_people(lobby, "nanjing")
    people[0].say("/start")
    ann = people[0]
    keyword, hand = ask(ann, "/hand")
    card = hand["cards"][0]
    keyword, check = ask(ann, f"/check {card}")
    assert keyword == "CHECK"
    assert (check["why"], check["reason"], check["playable"]) == ("phase", "Grand Tichu is decided first", False)
    assert check["seat"] == 1 and check["table"] == 1 and check["cards"] == [card]
    assert ask(ann, "/check")[1]["code"] == "usage"
    assert ask(ann, "/check 1x")[1]["code"] == "bad_cards"
    assert ask(ann, "/second check 2j")[1]["code"] == "no_second_hand"
    eve = Client(lobby, "Eve")
    eve.say("/watch 1")
    assert ask(eve, "/check 2j")[1]["code"] == "not_seated"
    assert ask(eve, "/suggest")[1]["code"] == "not_seated"
    keyword, suggested = ask(ann, "/suggest")
    assert suggested == {"table": 1, "seat": 1, "need": None, "plays": [], "bombs": [], "pass": None}
    human = Client(lobby, "Hal", machine=False)
    human.say("/check 2j")  # in the lobby: refused, one line
    assert human.connection.lines == ["error: you are not at a table; /tables lists them, /join sits you down"]


def test_check_in_human_mode_names_the_play_or_says_why(tmp_path):
    lobby = seeded_lobby(tmp_path, 5)
    people = seat_people(lobby, "nanjing")
    people[0].say("/start")
    for person in people:
        person.say("/nogrand")
    for person in people:
        person.say(ask(person, "/legal")[1]["commands"][0])
    leader = next(p for p in people if ask(p, "/table")[1]["turn"] == ask(p, "/table")[1]["seat"])
    single = ask(leader, "/hand")[1]["cards"][-1]
    leader.say("/mode human")
    leader.clear()
    leader.say(f"/check {single}")
    assert leader.connection.lines[0].startswith("You may play ")
    assert leader.connection.lines[0].endswith(f"now: /play {single}.")
    other = next(p for p in people if p is not leader)
    mine = ask(other, "/hand")[1]["cards"][0]
    other.say("/mode human")
    other.clear()
    other.say(f"/check {mine}")
    assert other.connection.lines == [f"You cannot play single {mine} now: not your turn."] or \
        other.connection.lines[0].startswith("You cannot play the Dog now: not your turn")


@pytest.mark.parametrize("variant, people, hands, second, exchange", [
    ("nanjing", 4, 4, None, ["right opponent", "partner", "left opponent"]),
    ("tientsin", 6, 6, None, ["partner two seats on", "partner four seats on"]),
    ("trichu", 3, 4, "dummy", ["right opponent", "left opponent"]),
    ("duo", 2, 4, "second", ["right opponent", "partner", "left opponent"]),
])
def test_layout_before_and_during_the_game(tmp_path, variant, people, hands, second, exchange):
    lobby = seeded_lobby(tmp_path, 1)
    seated = seat_people(lobby, variant)
    keyword, layout = ask(seated[0], "/layout")
    assert keyword == "LAYOUT"
    assert (layout["variant"], layout["people"], layout["hands"], layout["second"]) == (variant, people, hands, second)
    assert [step["label"] for step in layout["exchange"]] == exchange
    assert layout["seat"] is None and layout["plays"] == []
    assert {"play", "spielen", "check", "suggest", "legal", "schupf"} <= set(layout["hand_commands"])
    assert "layout" not in layout["hand_commands"] and layout["hand_commands"] == sorted(layout["hand_commands"])
    assert layout["options"]["round"] == ROUNDS[variant]
    seated[0].say("/start")
    for person in seated:
        keyword, layout = ask(person, "/layout")
        table = ask(person, "/table")[1]
        assert layout["seat"] == table["seat"]
        assert [hand["seat"] for hand in layout["plays"]] == (table.get("plays") or [table["seat"]])
        assert layout["plays"][0]["prefix"] == ""
        for hand in layout["plays"][1:]:
            assert hand["prefix"] == f"/{second} "
        for hand in layout["plays"]:
            steps = [(hand["seat"] - 1 + step["step"]) % hands + 1 for step in layout["exchange"]]
            assert [target["to"] for target in hand["exchange"]] == steps
            assert [target["label"] for target in hand["exchange"]] == exchange
    watcher = Client(lobby, "Zed")
    watcher.say("/watch 1")
    keyword, layout = ask(watcher, "/layout")
    assert layout["seat"] is None and layout["plays"] == []
    assert ask(Client(lobby, "Yul"), "/layout")[1]["code"] == "not_at_table"


def test_duo_second_hand_questions_are_spelled_for_it(tmp_path):
    lobby = seeded_lobby(tmp_path, 2)
    ann, bob = seat_people(lobby, "duo")
    ann.say("/start")
    keyword, hand = ask(ann, "/second hand")
    keyword, check = ask(ann, f"/second check {hand['cards'][0]}")
    assert keyword == "CHECK" and check["seat"] == 3
    assert ask(ann, f"/check {hand['cards'][0]}")[1]["why"] in ("phase",)
    ann.say("/mode human")
    ann.clear()
    ann.say(f"/second check {hand['cards'][0]}")
    assert ann.connection.lines[0].startswith("[your second hand, seat 3, /second] You cannot play")


def test_the_table_list_has_each_tables_variant_options_and_seats_and_rounds_apply_when_sent(tmp_path):
    """Issue 34, bugs 1 and 5, the server's side: `/round 1` sent right after `/join` (as a new-table
    form would) is applied, and TABLES carries every table's options (its variant where it is
    not the 4-player game) and as many seats as the variant has people."""
    lobby = seeded_lobby(tmp_path, 4)
    ann, bob, cy = (Client(lobby, name) for name in ("Ann", "Bob", "Cy"))
    ann.say("/join")
    assert ask(ann, "/round 1")[1]["options"]["round"] == 1
    bob.say("/join")
    bob.say("/variant duo")
    cy.say("/join")
    cy.say("/variant trichu")
    keyword, refused = ask(cy, "/round 1")
    assert (keyword, refused["code"]) == ("ERROR", "bad_option")
    tables = ask(ann, "/tables")[1]["tables"]
    assert [(t["seats"], t["options"].get("variant"), t["options"]["round"]) for t in tables] == [
        (["Ann", None, None, None], None, 1), (["Bob", None], "duo", None), (["Cy", None, None], "trichu", None)]


@pytest.mark.parametrize("code, words", [("de", ("Tisch 1: das Spiel zu viert, 4 Spieler", "rechter Gegner",
                                                 "Du spielst Platz 2.")),
                                         ("fr", ("Table 1 : la partie à quatre, 4 joueurs", "adversaire de droite",
                                                 "Vous jouez place 2.")),
                                         ("es", ("Mesa 1: la partida a cuatro, 4 jugadores", "rival de la derecha",
                                                 "Juegas asiento 2.")),
                                         ("ro", ("Masa 1: jocul în patru, 4 jucători", "adversarul din dreapta",
                                                 "Joci locul 2."))])
def test_layout_in_each_language(code, words):
    """LAYOUT's sentence in the reader's language, its fields and its English unchanged."""
    from bswtichu.engine.variant import variant_named
    from bswtichu.server.text import questions
    from bswtichu.server.text.i18n import language

    message = questions.layout(1, variant_named("nanjing"), {}, (), None, 1, [(1, "")])
    assert message.text_in(None).startswith("Table 1: the 4-player game, 4 players; teams: seats 1+3 against")
    assert message.fields["exchange"][0]["label"] == "right opponent"
    worded = message.text_in(language(code))
    assert all(word in worded for word in words), worded
