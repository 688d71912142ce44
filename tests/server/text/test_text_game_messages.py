"""How engine events and views read, for people and in machine mode."""

from hypothesis import given
from hypothesis import strategies as st

from bswtichu.engine import (
    DECK, CallGrand, CallTichu, DeclineGrand, Pass, Play, card, parse_cards, plays,
)
from bswtichu.engine import events as ev
from bswtichu.engine.combos import classify
from bswtichu.server.text.game_messages import GameTexts

NAMES = ["Ann", "Bob", "Cy", "Dan"]


def play_actions(text: str, top=None) -> list:
    return [Play(0, combo.cards, combo.phoenix_as) for combo in plays(parse_cards(text), top)]


def test_machines_get_every_command_plays_first_and_the_calls_last():
    hand = [c for c in DECK if c.rank in (7, 8, 9, 10)]  # 16 cards: hundreds of plays
    actions = [CallTichu(0)] + play_actions(" ".join(c.text for c in hand))
    message = GameTexts(1, NAMES).legal(0, actions, ())
    commands = message.fields["commands"]
    assert len(commands) == len(actions)
    assert commands[-1] == "/tichu" and all(c.startswith("/play ") for c in commands[:-1])
    grand = GameTexts(1, NAMES).legal(0, [CallTichu(0), CallGrand(0), DeclineGrand(0)], ())
    assert grand.fields["commands"] == ["/nogrand", "/tichu", "/grand"]


def test_people_read_the_plays_grouped_by_kind_and_rank():
    actions = play_actions("3j 5j 5s 9p 9r Kj DR") + [Pass(0), CallTichu(0)]
    text = GameTexts(1, NAMES).legal(0, actions, ()).text
    assert text == ("Legal now: singles: 3 5 9 K DR | pairs: 5 9 | /pass | /tichu. Play with /play and"
                    " the cards (rank-only like /play 7 7 picks suits); /legal all lists every play")


def test_straights_stairs_full_houses_and_bombs_read_as_ranges_and_ranks():
    actions = play_actions("5j 6j 7j 8j 9j 6s 7s 7p 7r")
    text = GameTexts(1, NAMES).legal(0, actions, ()).text
    assert "straights: 5-9" in text and "6-T" not in text
    assert "stairs: 66-77" in text and "full houses: 7" in text
    assert "bombs: 7777" in text and "straight flushes: 5-9j" in text


def test_a_straight_from_the_mahjong_starts_at_mj():
    text = GameTexts(1, NAMES).legal(0, play_actions("MJ 2j 3s 4p 5r"), ()).text
    assert "straights: MJ-5 |" in text or "straights: MJ-5." in text


def test_legal_all_lists_every_command_for_people():
    hand = [c for c in DECK if c.rank == 7]
    actions = [Play(0, combo.cards) for combo in plays(hand) if combo.length == 1]
    message = GameTexts(1, NAMES).legal(0, actions, (), full=True)
    assert message.text == "Legal now (4): /play 7j | /play 7s | /play 7p | /play 7r"


def test_one_card_left_is_singular_and_a_won_trick_does_not_name_the_leader_twice():
    texts = GameTexts(1, NAMES)
    combo = classify([card("7j")])
    assert "(1 card left)" in texts.event(ev.Played(1, combo, False, 1), 0).text
    assert "(2 cards left)" in texts.event(ev.Played(1, combo, False, 2), 0).text
    won = texts.event(ev.TrickWon(1, 1), 0).text
    assert won == "Bob (seat 2) won the trick (bombs may still come)."


def random_game_events(seed: int) -> list:
    """Every event of a random one-round game (random legal actions, one exchange each)."""
    import random

    from bswtichu.engine import Exchange, Game, GameOptions

    rng = random.Random(seed)
    game = Game(NAMES, GameOptions(round_limit=1), rng)
    events = list(game.start_round())
    while not game.over:
        seat = rng.choice([s for s in range(4) if game.legal_actions(s)])
        actions = game.legal_actions(seat)
        action = rng.choice([a for a in actions if not isinstance(a, Exchange)] or actions)
        events += game.apply(action)
    return events


def test_an_events_fields_do_not_depend_on_its_reader_and_its_sentences_are_made_when_read():
    """The table sends each event's fields to everyone (encoded once) and rewords only the
    sentence: that holds only if no event's fields differ by reader. Sentences are made
    lazily, once, and read as if made at once."""
    texts = GameTexts(1, NAMES)
    seen = set()
    for seed in range(20):
        for event in random_game_events(seed):
            common = texts.event(event, None)
            if common is None:
                continue
            seen.add(common.keyword)
            for viewer in range(4):
                own = texts.event(event, viewer)
                assert own.fields == common.fields, (event, viewer)
                assert own.text == own.text and isinstance(own.text, str) and own.text
            assert common.reworded(lambda: "said").text == "said"
    assert {"PLAYED", "PASSED", "TURN", "TRICK_WON", "TRICK_TAKEN", "OUT"} <= seen


def test_a_lazy_sentence_is_made_once():
    made = []

    def sentence() -> str:
        made.append(1)
        return "Ann passed."

    from bswtichu.server.text.messages import Message

    message = Message("PASSED", {"seat": 1}, sentence)
    assert made == []
    assert message.text == "Ann passed." and message.text == "Ann passed." and made == [1]
    assert message == Message("PASSED", {"seat": 1}, "Ann passed.")


def floats_in(value) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [f for item in value for f in floats_in(item)] if isinstance(value, list) else []


def test_the_game_messages_orjson_encodes_read_byte_for_byte_as_the_json_module_writes_them():
    """Machine lines of the game's step messages go through orjson (render.ORJSON_KEYWORDS):
    every such message of 20 random games, for every reader, and every seat's LEGAL at every
    step, is the line the json module writes; their only floats are the Phoenix's halves."""
    import json
    import random

    from bswtichu.engine import Exchange, Game, GameOptions
    from bswtichu.server.text.render import ORJSON_KEYWORDS, machine_line

    slow = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    names = ["Ann", "Bö ☃", 'q"\\uote', "tab\tname"]
    texts = GameTexts(7, names)
    checked = set()

    def check(message) -> None:
        if message is None or message.keyword not in ORJSON_KEYWORDS:
            return
        checked.add(message.keyword)
        assert machine_line(message) == f"{message.keyword} {slow.encode(message.fields)}"
        assert all(2 * f == int(2 * f) for f in floats_in(message.fields)), message

    for seed in range(20):
        rng = random.Random(seed)
        game = Game(names, GameOptions(round_limit=1), rng)
        events = list(game.start_round())
        while not game.over:
            for event in events:
                for viewer in (None, 0, 1, 2, 3):
                    check(texts.event(event, viewer))
            for seat in range(4):
                check(texts.legal(seat, game.legal_actions(seat)[:40], game.round.hands[seat]))
            seat = rng.choice([s for s in range(4) if game.legal_actions(s)])
            actions = game.legal_actions(seat)
            events = game.apply(rng.choice([a for a in actions if not isinstance(a, Exchange)] or actions))
    assert {"PLAYED", "PASSED", "TURN", "LEGAL", "DEALT", "PHASE", "TRICK_TAKEN", "OUT"} <= checked


@given(st.dictionaries(st.text(), st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=12)))
def test_orjson_writes_any_text_ints_and_nesting_as_the_json_module_does(fields):
    import json

    from bswtichu.server.text.messages import Message
    from bswtichu.server.text.render import machine_line

    slow = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert machine_line(Message("PLAYED", fields)) == "PLAYED " + slow.encode(fields)


def test_listed_plays_commands_are_the_same_when_remembered_from_an_earlier_legal(monkeypatch):
    """Each listed play's command is remembered (for every table): every LEGAL of 10 random
    games reads as one made with nothing remembered, also when the memory fills up and is emptied."""
    import random

    from bswtichu.engine import Exchange, Game, GameOptions
    from bswtichu.server.text import game_messages

    monkeypatch.setattr(game_messages, "_PLAY_COMMANDS", {})
    monkeypatch.setattr(game_messages, "_PLAY_COMMANDS_CAP", 50)
    remembered = emptied = 0
    for seed in range(10):
        rng = random.Random(seed)
        game = Game(NAMES, GameOptions(round_limit=1), rng)
        game.start_round()
        texts = GameTexts(1, NAMES)
        while not game.over:
            for seat in range(4):
                actions = game.legal_actions(seat)
                before = len(game_messages._PLAY_COMMANDS)
                again = texts.legal(seat, actions, game.round.hands[seat], full=True)
                after = len(game_messages._PLAY_COMMANDS)
                remembered += len(actions) > 0 and after == before
                emptied += after < before
                memory = game_messages._PLAY_COMMANDS
                game_messages._PLAY_COMMANDS = {}
                assert again == GameTexts(1, NAMES).legal(seat, actions, game.round.hands[seat], full=True)
                game_messages._PLAY_COMMANDS = memory
                assert len(memory) <= 50
            seat = rng.choice([s for s in range(4) if game.legal_actions(s)])
            actions = game.legal_actions(seat)
            game.apply(rng.choice([a for a in actions if not isinstance(a, Exchange)] or actions))
    assert remembered > 0 and emptied > 0
