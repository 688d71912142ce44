"""The six real BSW logs in /work/shared/bsw-logs: they parse, add up and round-trip."""

from collections import Counter
from pathlib import Path

import pytest

from bswtichu.engine.cards import DECK
from bswtichu.tch import (DragonGift, Pass, Play, Result, TichuCall, Wish, read_tch,
                          read_tch_file, write_tch)

# The repo is /work/main; the shared logs are ../shared/bsw-logs from its root.
SHARED_LOGS = Path(__file__).resolve().parents[2].parent / "shared" / "bsw-logs"
LOG_PATHS = sorted(SHARED_LOGS.glob("*.tch"))
GRAND_HEADER = "---------------Gr.Tichukarten------------------"
PLAY_HEADER = "---------------Rundenverlauf------------------"

pytestmark = pytest.mark.skipif(
    len(LOG_PATHS) != 6, reason=f"the six shared BSW logs are not present at {SHARED_LOGS}")


@pytest.fixture(scope="module")
def logs():
    return [(path, path.read_text(encoding="utf-8"), read_tch_file(path)) for path in LOG_PATHS]


def test_every_file_parses_to_its_rounds(logs):
    for path, text, log in logs:
        assert log.source == path.name
        assert len(log.rounds) == text.count(GRAND_HEADER) == text.count("\nErgebnis: ")
        assert all(r.is_complete for r in log.rounds)
    assert sum(len(log.rounds) for _, _, log in logs) == 50


@pytest.mark.parametrize("path", LOG_PATHS, ids=lambda p: p.name)
def test_write_gives_back_the_file_byte_for_byte(path):
    text = path.read_text(encoding="utf-8")
    assert write_tch(read_tch(text, source=path.name)) == text


def test_the_deal_adds_up(logs):
    for _, _, log in logs:
        for r in log.rounds:
            dealt = [c for hand in r.start_hands for c in hand]
            assert len(dealt) == 56 and set(dealt) == set(DECK)
            for seat in range(4):
                assert len(r.grand_hands[seat]) == 8
                assert set(r.grand_hands[seat]) <= set(r.start_hands[seat])
                assert set(r.exchanges[seat]) <= set(r.start_hands[seat])


def _hands_after_exchange(r):
    hands = [set(hand) - set(r.exchanges[seat]) for seat, hand in enumerate(r.start_hands)]
    for giver, given in enumerate(r.exchanges):
        for k, card in enumerate(given, start=1):
            hands[(giver + k) % 4].add(card)
    return hands


def test_every_played_card_was_in_the_players_hand_after_the_exchange(logs):
    """Checks the exchange's direction: cards[k] goes to seat+k+1."""
    for _, _, log in logs:
        for r in log.rounds:
            hands = _hands_after_exchange(r)
            played = [c for e in r.entries if isinstance(e, Play) for c in e.cards]
            assert len(played) == len(set(played))
            for e in r.entries:
                if isinstance(e, Play):
                    assert set(e.cards) <= hands[e.seat], (r.seat_names, e)


def _has_bomb(hand):
    ranks = Counter(c.rank for c in hand if c.is_natural)
    if max(ranks.values()) == 4:
        return True
    for suit in "jspr":
        suited = {c.rank for c in hand if c.suit == suit}
        if any(all(rank + i in suited for i in range(5)) for rank in suited):
            return True
    return False


def test_bombe_line_lists_exactly_the_seats_holding_a_bomb_after_the_exchange(logs):
    rounds_with_line = 0
    for _, _, log in logs:
        for r in log.rounds:
            hands = _hands_after_exchange(r)
            assert set(r.bomb_holders) == {s for s in range(4) if _has_bomb(hands[s])}
            rounds_with_line += bool(r.bomb_holders)
    assert rounds_with_line == 19  # grep -c '^BOMBE' over the six files


def test_entries_carry_their_line_numbers(logs):
    for _, text, log in logs:
        lines = text.split("\n")
        for r in log.rounds:
            for e in r.entries:
                line = lines[e.line - 1]
                if isinstance(e, Play):
                    assert line.startswith(f"({e.seat}){r.seat_names[e.seat]}: ")
                    assert line.split(": ", 1)[1].split() == [c.bsw for c in e.cards]
                elif isinstance(e, Pass):
                    assert line == f"({e.seat}){r.seat_names[e.seat]} passt."
                elif isinstance(e, TichuCall):
                    assert line == f"Tichu: ({e.seat}){r.seat_names[e.seat]}"
                elif isinstance(e, Wish):
                    assert line.startswith("Wunsch:")
                elif isinstance(e, DragonGift):
                    assert line.startswith(f"Drache an: ({e.seat})")
                else:
                    assert isinstance(e, Result)
                    assert line == f"Ergebnis: {e.team_0_2} - {e.team_1_3}"
            # every line between the play header and the Ergebnis is one entry
            assert lines[r.entries[0].line - 2] == PLAY_HEADER
            assert [e.line for e in r.entries] == list(
                range(r.entries[0].line, r.entries[-1].line + 1))


def test_names_are_consistent_in_these_files(logs):
    """These six files have no stale names: nothing needs a per-line name."""
    for _, _, log in logs:
        for r in log.rounds:
            assert r.card_block_names is None
            assert all(getattr(e, "name", None) is None for e in r.entries)
            assert all(call.name is None for call in r.grand_tichu_calls)


def test_first_round_of_game_2417500_reads_as_the_file_says(logs):
    """Values checked by eye against lines 1-19 and 94 of ainze_tichu_2417500.tch."""
    log = next(log for path, _, log in logs if path.name == "ainze_tichu_2417500.tch")
    r = log.rounds[0]
    assert r.seat_names == ("evi_sea", "1David", "evdokia!!", "Lisaaaaaaa")
    assert [c.bsw for c in r.grand_hands[3]] == "BA SA BD RB B5 G4 S2 Ma".split()
    assert [c.bsw for c in r.start_hands[0]][:3] == ["GA", "BB", "SB"]
    assert r.grand_tichu_callers == {1}
    assert [c.bsw for c in r.exchanges[1]] == ["R5", "SD", "R3"]
    assert r.entries[0] == Play(3, [DECK[52]]) and r.entries[0].line == 18
    assert r.entries[1] == Wish(2) and r.entries[1].line == 19
    assert r.result == Result(0, 400) and r.result.line == 94


def test_grand_tichu_calls_are_a_set():
    text = (SHARED_LOGS / "ainze_tichu_2417500.tch").read_text(encoding="utf-8")
    doubled = text.replace("Grosses Tichu: (1)1David\n", "Grosses Tichu: (1)1David\n" * 2, 1)
    log = read_tch(doubled)
    assert len(log.rounds[0].grand_tichu_calls) == 2
    assert log.rounds[0].grand_tichu_callers == {1}
    assert write_tch(log) == doubled
