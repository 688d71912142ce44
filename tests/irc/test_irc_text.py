"""Fitting text into IRC lines, and IRC nicks as server names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bswtichu.irc.text import IRC_LINE_BYTES, name_candidates, server_name, split_text, text_budget
from bswtichu import names

IRC_NICK = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=" \r\n\0"),
                   min_size=1, max_size=30)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=600), st.integers(4, 400))
def test_pieces_fit_the_budget_and_keep_every_word(text, budget):
    pieces = split_text(text, budget)
    assert all(0 < len(piece.encode()) <= budget for piece in pieces)
    assert "".join("".join(pieces).split()) == "".join(text.split())


@given(st.lists(st.text(alphabet="abcdéü€", min_size=1, max_size=8), max_size=80), st.integers(8, 100))
def test_words_that_fit_are_never_cut(words, budget):
    words = [w for w in words if len(w.encode()) <= budget]
    pieces = split_text(" ".join(words), budget)
    assert " ".join(pieces).split() == words
    # and a piece is only ended when the next word would not fit
    for piece, following in zip(pieces, pieces[1:]):
        assert len(f"{piece} {following.split()[0]}".encode()) > budget


def test_a_cut_never_halves_a_character():
    assert split_text("ü" * 5, 5) == ["üü", "üü", "ü"]


def test_a_relayed_line_with_the_longest_prefix_stays_within_512_bytes():
    nick, command, target = "tichubot", "PRIVMSG", "#tichu"
    budget = text_budget(nick, command, target)
    longest_prefix = f":{'n' * 30}!{'u' * 10}@{'h' * 63} "
    line = f"{longest_prefix}{command} {target} :{'x' * budget}\r\n"
    assert len(line.encode()) == IRC_LINE_BYTES


def test_too_small_a_budget_is_refused():
    with pytest.raises(ValueError):
        split_text("hello", 3)


@pytest.mark.parametrize("nick, name", [
    ("Ann", "Ann"), ("[Ann]", "Ann"), ("_bob", "bob"), ("42x", "ircx"), ("^^", "irc"),
    ("x|y", "xy"), ("Jürgen", "Jürgen"), ("Ju\u0308rgen", "Jürgen"), ("李明", "李明"),
    ("bot-x", "irc-bot-x"), ("BOT-X", "irc-BOT-X"), ("-_9Zed", "Zed"),
    ("averyveryverylongnickname", "averyveryverylon"),
])
def test_nicks_map_to_names(nick, name):
    assert server_name(nick) == name


@given(IRC_NICK)
def test_every_nick_maps_to_a_valid_name_that_is_no_bot_name(nick):
    name = server_name(nick)
    assert names.is_valid(names.normalize(name))
    assert not names.looks_like_bot(name)


@given(st.one_of(st.from_regex(r"\A[A-Za-zäöüßéŁ李][A-Za-z0-9_äöü-]{1,15}\Z"), st.text(min_size=2, max_size=16)))
def test_valid_names_stay_as_they_are(name):
    name = names.normalize(name)
    if names.is_valid(name) and not names.looks_like_bot(name):
        assert server_name(name) == name


@pytest.mark.parametrize("nick", ["abcdefghijklmno2", "x" * 14 + "23", "Ann"])
def test_a_long_name_ending_in_a_digit_gives_distinct_candidates(nick):
    candidates = name_candidates(server_name(nick))
    assert len({names.key(c) for c in candidates}) == 9 and candidates[0] == nick


@given(IRC_NICK)
def test_candidates_are_distinct_valid_names(nick):
    candidates = name_candidates(server_name(nick))
    assert len({names.key(c) for c in candidates}) == len(candidates) == 9
    assert all(names.is_valid(names.normalize(c)) for c in candidates)
