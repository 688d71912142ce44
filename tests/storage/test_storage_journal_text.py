"""The journal's stored text of a play is written directly; it must be the very text
``json.dumps(encode_action(action))`` gives (old and new rows are read by one decoder, and
stored text is compared), for any cards, seat and Phoenix reading."""

import json
from random import Random

from hypothesis import given, strategies as st

from bswtichu.engine import Pass, Play, Round
from bswtichu.engine.cards import DECK
from bswtichu.play.journal import ACT, BOT, JournalEntry, _action_entry
from bswtichu.storage.games import decode_entry, encode_action, encode_entry

plays = st.builds(Play, st.integers(0, 3), st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True),
                  st.one_of(st.none(), st.integers(1, 15)))


@given(plays)
def test_a_plays_row_text_is_json_dumps_of_its_encoding(action):
    text = encode_entry(JournalEntry(ACT, "ann", action))
    assert text == json.dumps(encode_action(action))
    assert decode_entry(ACT, "ann", text).action == action


@given(st.integers(0, 2 ** 32))
def test_the_engines_listed_plays_and_phoenix_readings_too(seed):
    """Plays as the engine records them (carrying their combination, the Phoenix's reading resolved)."""
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=False)
    while rnd.phase != "over":
        legal = [a for seat in range(4) for a in rnd.legal_actions(seat)]
        for action in legal:
            if isinstance(action, Play):
                assert encode_entry(JournalEntry(BOT, "bob", action)) == json.dumps(encode_action(action))
        rnd.apply(rng.choice(legal))
    for action in rnd.history:
        assert encode_entry(JournalEntry(ACT, "cid", action)) == json.dumps(encode_action(action))


@given(st.one_of(st.floats(allow_nan=False), st.booleans()), st.sampled_from([0, 3, True]))
def test_an_unusual_seat_or_reading_falls_back_to_json_dumps(phoenix_as, seat):
    action = Play(seat, DECK[50:55], phoenix_as)
    assert encode_entry(JournalEntry(ACT, "dan", action)) == json.dumps(encode_action(action))


def test_a_journal_entry_made_fast_equals_the_one_made_plainly():
    for kind, player, action in [(ACT, "ann", Pass(0)), (BOT, "Bot 2", Play(1, DECK[:2]))]:
        fast, plain = _action_entry(kind, player, action), JournalEntry(kind, player=player, action=action)
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
        assert (fast.round, fast.deal) == (None, None)
