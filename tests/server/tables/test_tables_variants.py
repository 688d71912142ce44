"""Tables that play Tientsin (6 seats) and Trichu (3 people and the dummy): the `variant`
option, seats, refusals, the dealer's /dummy command, the turn clock, messages, restarts.

People are lobby clients in machine mode on a fake clock; bots move as the clock advances.
"""

from __future__ import annotations

from random import Random

import pytest
from twisted.internet.task import Clock

from bswtichu.engine import TIENTSIN, TRICHU
from bswtichu.engine.events import SeatingChanged
from bswtichu.server.text.game_messages import GameTexts
from bswtichu.server.text.messages import started

from lobby_clients import Client
from test_games_durable import durable_lobby, gone
from test_tables_game import seeded_lobby

DELAY = 1.0


def seated(connect, count: int, variant: str | None = None) -> list[Client]:
    """``count`` people at table 1 (Ann first), the variant set before the others sit down."""
    names = ["Ann", "Bob", "Cy", "Dan", "Eli", "Fay"][:count]
    people = [connect(name) for name in names]
    people[0].say("/join")
    if variant is not None:
        people[0].say(f"/variant {variant}")
    for person in people[1:]:
        person.say("/join 1")
    for person in people:
        person.clear()
    return people


# ---------------------------------------------------------------------- the option


def test_the_variant_sets_the_seats_and_shows_in_the_table_list(connect):
    ann = connect("Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/variant Tientsin")
    option = ann.only("OPTION")
    assert option["name"] == "variant" and option["value"] == "tientsin"
    assert option["options"]["variant"] == "tientsin"
    ann.clear()
    ann.say("/tables")
    view = ann.only("TABLES")["tables"][0]
    assert view["seats"] == ["Ann"] + [None] * 5 and view["options"]["variant"] == "tientsin"
    ann.say("/option variant trichu")
    ann.clear()
    ann.say("/tables")
    assert ann.only("TABLES")["tables"][0]["seats"] == ["Ann", None, None]
    ann.say("/variant nanjing")
    ann.clear()
    ann.say("/tables")
    view = ann.only("TABLES")["tables"][0]
    assert view["seats"] == ["Ann", None, None, None] and "variant" not in view["options"]


def test_people_read_the_variant_in_the_table_list(connect):
    ann = connect("Ann", machine=False)
    ann.say("/join")
    ann.say("/variant trichu")
    ann.clear()
    ann.say("/tables")
    text = "\n".join(ann.connection.lines)
    assert "options: variant trichu, round off" in text and "seats: 1 Ann, 2 -, 3 -" in text


def test_an_unknown_variant_is_refused_with_the_known_ones(connect):
    ann = connect("Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/variant chess")
    assert ann.error_code() == "bad_option"
    assert "nanjing, trichu, tientsin" in ann.received()[0][1]["message"]


def test_fewer_seats_are_refused_while_a_seat_beyond_them_is_taken(connect):
    people = seated(connect, 5, "tientsin")
    ann = people[0]
    ann.say("/variant nanjing")
    assert ann.error_code() == "seats_taken"
    assert "seat 5 (Eli)" in ann.received()[0][1]["message"]
    ann.clear()
    ann.say("/tables")
    assert len(ann.only("TABLES")["tables"][0]["seats"]) == 6


def test_the_bsw_options_are_for_the_four_player_game_only(connect):
    ann = connect("Ann")
    ann.say("/join")
    ann.say("/tichujoin on")
    ann.clear()
    ann.say("/variant tientsin")
    assert ann.error_code() == "bad_option"
    ann.say("/tichujoin off")
    ann.say("/variant trichu")
    ann.clear()
    for line in ("/turnier on", "/tichujoin on", "/round 4"):
        ann.say(line)
        assert ann.error_code() == "bad_option", line
        ann.clear()
    ann.say("/round 6")
    assert ann.only("OPTION")["value"] == 6
    ann.say("/variant nanjing")
    ann.say("/round 4")
    ann.say("/variant trichu")
    ann.clear()
    ann.say("/round 4")  # 4-player round 4 stays as it was: Trichu is refused
    ann.clear()
    ann.say("/variant trichu")
    assert ann.error_code() == "bad_option"


def test_start_bot_and_join_use_the_tables_seat_count(connect):
    people = seated(connect, 2, "trichu")
    ann = people[0]
    ann.say("/start")
    assert ann.error_code() == "not_enough_players"
    assert "needs three" in ann.received()[0][1]["message"]
    ann.clear()
    ann.say("/bot 4")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say("/bot 3")
    assert ann.only("JOINED")["seats"][2].startswith("bot-")
    eve = connect("Eve")
    eve.say("/join 1 4")
    assert eve.error_code() == "usage"


def test_options_are_fixed_once_the_game_runs(tmp_path):
    lobby = seeded_lobby(tmp_path, 5, bot_delay=DELAY)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    ann.say("/variant tientsin")
    for _ in range(5):
        ann.say("/bot")
    ann.say("/start")
    ann.clear()
    ann.say("/variant nanjing")
    assert ann.error_code() == "table_started"


# ---------------------------------------------------------------------- texts for 6 and 3


def test_the_start_names_the_teams_of_three():
    view = {"table": 1, "seats": ["A", "B", "C", "D", "E", "F"], "options": {"variant": "tientsin"}}
    message = started(view, False, 2, TIENTSIN)
    assert message.fields["teams"] == [[1, 3, 5], [2, 4, 6]]
    assert "A + C + E (seats 1+3+5) against B + D + F (seats 2+4+6)" in message.text
    assert "your partners are D and F" in message.text
    trichu = started({"table": 1, "seats": ["A", "B", "C"], "options": {}}, False, None, TRICHU)
    assert trichu.fields["teams"] == [] and "dummy" in trichu.text


def test_seating_and_turns_in_trichu_name_the_dummy():
    from bswtichu.engine import DUMMY
    texts = GameTexts(1, ["Ann", "Bob", DUMMY, "Cy"], variant=TRICHU)
    seating = texts.event(SeatingChanged(("Ann", "Bob", DUMMY, "Cy")), None)
    assert seating.fields["seats"] == ["Ann", "Bob", "dummy", "Cy"]
    assert "Ann + dummy against Bob + Cy" in seating.text


# ---------------------------------------------------------------------- playing


def legal(client: Client, second: bool = False) -> list[str]:
    """The client's legal commands (``second``: for the second hand he plays, if any)."""
    client.clear()
    client.say("/second legal" if second else "/legal")  # /second: /dummy's other name
    got = client.received()
    return got[-1][1]["commands"] if got and got[-1][0] == "LEGAL" else []


def spelled(client: Client, command: str) -> str:
    """An exchange command with cards from the hand it is for."""
    words = command.split()
    cards = [w for w in words if w.startswith("C") and w[1:].isdigit()]
    if not cards:
        return command
    marker = words[:len(words) - len(cards)]
    count = len(cards)
    client.clear()
    client.say(f"{words[0]} hand" if words[0] in ("/dummy", "/second") else "/hand")
    hands = [f for k, f in client.received() if k == "HAND"]
    return " ".join(marker + hands[0]["cards"][:count])


def play_on(people: list[Client], clock: Clock, rng: Random, moves: int) -> bool:
    """People take random legal actions (their own and a second hand's), bots move on the
    clock; True once the game is over."""
    for _ in range(moves):
        options = [(p, c) for p in people for second in (False, True) for c in legal(p, second)
                   if not c.endswith(("/tichu", "/grand", " tichu", " grand"))]
        if options:
            person, command = rng.choice(options)
            person.clear()
            person.say(spelled(person, command))
            if any(k == "GAME_OVER" for k in person.keywords()):
                return True
            assert "ERROR" not in person.keywords(), (command, person.received())
        else:
            clock.advance(DELAY)
        if all(p.session.table is None or p.session.table.game is None for p in people):
            return True
    return False


def test_trichus_dealer_plays_the_dummy_with_a_marked_command(tmp_path):
    clock = Clock()
    lobby = seeded_lobby(tmp_path, 11, clock, bot_delay=DELAY)
    ann, bob, cy, eve = (Client(lobby, n) for n in ("Ann", "Bob", "Cy", "Eve"))
    ann.say("/join")
    ann.say("/variant trichu")
    bob.say("/join 1")
    cy.say("/join 1")
    eve.say("/watch 1")
    for c in (ann, bob, cy, eve):
        c.clear()
    ann.say("/start")
    # Ann deals the first round: she is told her cards and the dummy's (seat 3), nobody else is
    dealt = [f["seat"] for k, f in ann.received() if k == "DEALT"]
    assert 1 in dealt and 3 in dealt
    assert all(f["seat"] != 3 for c in (bob, cy, eve) for k, f in c.received() if k == "DEALT")
    ann.clear()
    ann.say("/hand")
    assert [f["seat"] for f in (f for k, f in ann.received() if k == "HAND")] == [1, 3]
    bob.clear()
    bob.say("/dummy hand")
    assert bob.error_code() == "no_second_hand"
    ann.clear()
    ann.say("/dummy schupf 2 3")  # Bob and Cy still decide about Grand Tichu
    assert ann.error_code() == "illegal"
    ann.clear()
    ann.say("/dummy juggle")
    assert ann.error_code() == "usage"
    commands = legal(ann, second=True)
    assert commands and all(c.startswith("/dummy ") for c in commands)
    ann.clear()
    ann.say("/table")
    table = ann.only("TABLE")
    assert table["plays"] == [1, 3] and table["names"][2] == "dummy" and table["open_hand"]
    eve.clear()
    eve.say("/table")
    assert eve.only("TABLE")["open_hand"] is None  # the dummy's cards open only in play
    assert play_on([ann, bob, cy], clock, Random(2), 60) is False
    eve.clear()
    eve.say("/table")
    watched = eve.only("TABLE")
    assert watched["phase"] == "play" and len(watched["open_hand"]) == watched["hand_counts"][2]


def test_a_whole_game_of_each_variant_with_people_and_bots(tmp_path):
    for variant, people, bots, rounds in (("tientsin", 2, 4, 1), ("trichu", 2, 1, 3), ("duo", 1, 1, 2)):
        clock = Clock()
        lobby = seeded_lobby(tmp_path / variant, 13, clock, bot_delay=DELAY)
        clients = [Client(lobby, n) for n in ("Ann", "Bob")[:people]]
        clients[0].say("/join")
        clients[0].say(f"/variant {variant}")
        clients[0].say(f"/round {rounds}")
        for client in clients[1:]:
            client.say("/join 1")
        for _ in range(bots):
            clients[0].say("/bot")
        clients[0].say("/start")
        assert play_on(clients, clock, Random(4), 5000), variant
        over = [f for k, f in clients[0].received() if k == "GAME_OVER"]
        assert len(over) == 1 and len(over[0]["standings"]) == people + bots
        clients[0].clear()
        clients[0].say(f"/log {over[0]['log']}")  # the variant's own log format
        assert f"variant {variant}" in clients[0].only("LOG")["text"].lower()


def timed_game_without_the_person(tmp_path, variant: str, rounds: int, bots: int):
    """Ann alone with ``bots`` bots at a ``clock 20`` table of ``variant`` who never acts: run the
    clock until the game ends; the table and every CLOCK_OUT she was told."""
    clock = Clock()
    lobby = seeded_lobby(tmp_path, 17, clock, bot_delay=DELAY)
    ann = Client(lobby, "Ann")
    for command in ("/join", f"/variant {variant}", f"/round {rounds}", "/clock 20", *["/bot"] * bots, "/start"):
        ann.say(command)
    table = lobby.tables.get(1)
    driver = table.game.driver
    outs = []
    for _ in range(3000):
        if table.game is None:
            break
        clock.advance(1)
        outs += [f for k, f in ann.received() if k == "CLOCK_OUT"]
        ann.clear()
        assert all(repr(p) != "DUMMY" for p in driver.turn_clock.running)  # the dummy is no one with a clock
    assert table.game is None and table.last_game.driver.game.over
    assert outs and all(f["player"] == "Ann" for f in outs)
    return table, outs


def test_the_turn_clock_times_the_dealers_dummy_decisions_and_never_stalls(tmp_path):
    """A person dealer who never acts: his clock runs out for his own and the dummy's decisions
    (one stand-in decision each), then his stand-in plays both hands; the game ends."""
    timed_game_without_the_person(tmp_path, "trichu", 3, 2)


# ---------------------------------------------------------------------- restart


def views(lobby) -> list:
    game = lobby.tables.get(1).game.game
    return [game.round.view(seat) for seat in range(game.variant.seats)] + [game.round.view(None)]


@pytest.mark.parametrize("variant, bots", [("tientsin", 5), ("trichu", 2), ("duo", 1)])
def test_a_restart_restores_a_variant_game_mid_round(tmp_path, variant, bots):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    ann.say(f"/variant {variant}")
    for _ in range(bots):
        ann.say("/bot")
    ann.say("/start")
    assert not play_on([ann], clock, Random(5), 40)
    before = views(lobby)
    seating = lobby.tables.get(1).game.game.seating
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, Clock(), seed=99)
    table = lobby2.tables.get(1)
    assert table is not None and table.started and table.variant.name == variant
    assert len(table.seats) == {"tientsin": 6, "trichu": 3, "duo": 2}[variant]
    assert table.game.game.seating == seating and views(lobby2) == before
    ann2 = Client(lobby2)
    ann2.say(f"/resume {ann.token}")  # back in her seat, the game plays on to its end
    assert ann2.only("RETURNED")["seat"] == 1 and ann2.session.table is table
    clock2 = table.game.driver.clock
    assert play_on([ann2], clock2, Random(6), 8000)
    assert table.game is None or table.game.game.over


def test_the_dummys_turn_names_and_prompts_the_dealer_who_plays_it():
    from bswtichu.engine import DUMMY
    from bswtichu.engine.events import TurnStarted
    from bswtichu.net.mud import prompt_text
    texts = GameTexts(1, ["Ann", "Bob", DUMMY, "Cy"], variant=TRICHU, played_by={2: "Ann"})
    turn = texts.event(TurnStarted(2, "lead"), None)
    assert turn.fields["by"] == "Ann" and turn.fields["player"] == "dummy"
    assert prompt_text(turn, "Ann", True) == "dummy lead> "
    assert prompt_text(turn, "Bob", True) is None
    own = texts.event(TurnStarted(0, "lead"), None)
    assert "by" not in own.fields and prompt_text(own, "Ann", True) == "lead> "


def test_trichus_dealer_gets_no_grand_prompt_and_the_players_who_decide_do():
    """The dealer and the dummy call no Grand Tichu (rules.md item 23): the phase's message
    says he is not asked, so a MUD client shows him no ``grand> `` to answer."""
    from bswtichu.engine import DUMMY
    from bswtichu.engine.events import PhaseStarted
    from bswtichu.net.mud import prompt_text
    texts = GameTexts(1, ["Ann", "Bob", DUMMY, "Cy"], variant=TRICHU, played_by={2: "Ann"})
    dealer, decider = texts.event(PhaseStarted("grand"), 0), texts.event(PhaseStarted("grand"), 1)
    assert dealer.fields["asked"] is False and prompt_text(dealer, "Ann", True) is None
    assert "asked" not in decider.fields and prompt_text(decider, "Bob", True) == "grand> "


def test_tientsins_exchange_dog_and_gift_take_the_variants_seats(tmp_path):
    clock = Clock()
    lobby = seeded_lobby(tmp_path, 23, clock, bot_delay=DELAY)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    ann.say("/variant tientsin")
    for _ in range(5):
        ann.say("/bot")
    ann.say("/start")
    ann.say("/nogrand")
    for _ in range(30):  # the bots decide about Grand Tichu
        clock.advance(1)
    [suggested] = [command for command in legal(ann) if command.startswith("/schupf ")]
    ann.clear()
    ann.say("/hand")
    assert len(suggested.split()) == 3 and set(suggested.split()[1:]) <= set(ann.only("HAND")["cards"])
    ann.clear()
    ann.say("/schupf 2 3 4")
    assert ann.error_code() == "usage"
    assert "pass exactly 2 cards" in ann.received()[0][1]["message"]
    ann.clear()
    ann.say("/hand")
    cards = ann.only("HAND")["cards"]
    ann.clear()
    ann.say(f"/schupf {cards[0]} {cards[1]}")
    assert "ERROR" not in ann.keywords()
    for _ in range(30):  # the bots pass their cards
        clock.advance(1)
    ann.clear()
    ann.say("/dog Zed")
    refusal = ann.received()[0][1]["message"]
    assert ann.error_code() == "no_such_player" and refusal.count(" and ") == 1  # two partners
    ann.clear()
    ann.say("/give Zed")
    assert ann.error_code() == "no_such_player"
    assert ann.received()[0][1]["message"].count(",") == 0  # "opponents are X and Y and Z"
    ann.clear()
    ann.say("/dog 7")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say("/table")
    table = ann.only("TABLE")
    assert len(table["names"]) == 6 and table["variant"] == "tientsin" and table["plays"] == [1]


def test_trichus_dealer_reading_sentences_is_asked_for_both_exchanges(tmp_path):
    clock = Clock()
    lobby = seeded_lobby(tmp_path, 29, clock, bot_delay=DELAY)
    ann = Client(lobby, "Ann", machine=False)
    ann.say("/join")
    ann.say("/variant trichu")
    ann.say("/bot")
    ann.say("/bot")
    ann.say("/start")
    for _ in range(30):  # the bots decide about Grand Tichu
        clock.advance(1)
    asked = [line for line in ann.connection.lines if "Exchange: /schupf" in line]
    assert len(asked) == 1 and "[dummy, seat 3, your /dummy] Exchange: /dummy schupf C1 C2" in asked[0]


def test_a_dealer_who_drops_has_a_stand_in_for_his_hand_and_the_dummys(tmp_path):
    clock = Clock()
    lobby = seeded_lobby(tmp_path, 37, clock, bot_delay=DELAY, grace=5.0)
    ann, bob = Client(lobby, "Ann"), Client(lobby, "Bob")
    ann.say("/join")
    ann.say("/variant trichu")
    ann.say("/round 3")
    bob.say("/join 1")
    ann.say("/bot")
    ann.say("/start")
    game = lobby.tables.get(1).game
    assert game.game.seats_played_by("Ann") == (0, 2)  # she deals the first round
    ann.hang_up()
    assert play_on([bob], clock, Random(9), 5000)  # Bob plays on; nothing waits for Ann
    assert game.driver.game.over and len(game.driver.game.rounds) == 3
    assert "Ann" in game.driver.substitutes
