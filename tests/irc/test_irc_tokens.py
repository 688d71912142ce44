"""Guests' resume tokens survive a restart of the bridge when it keeps them in a file."""

from __future__ import annotations

import json
import stat

from bswtichu.irc.config import IrcConfig
from bswtichu.irc.routing import Bridge
from bswtichu.irc.tokens import ResumeTokens
from test_irc_routing import Irc, Setup


def test_tokens_are_written_at_once_for_the_owner_only_and_read_back(tmp_path):
    path = tmp_path / "state" / "tokens.json"
    tokens = ResumeTokens(path)
    tokens["ann"] = "t-1"
    assert json.loads(path.read_text()) == {"ann": "t-1"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    tokens["bob"] = "t-2"
    del tokens["ann"]
    assert dict(ResumeTokens(path)) == {"bob": "t-2"}
    assert not (tmp_path / "state" / "tokens.json.tmp").exists()


def test_without_a_file_tokens_stay_in_memory(tmp_path):
    tokens = ResumeTokens(None)
    tokens["ann"] = "t-1"
    assert dict(tokens) == {"ann": "t-1"} and list(tmp_path.iterdir()) == []


def test_a_damaged_file_is_ignored_with_a_warning(tmp_path):
    for text in ("{not json", "[1, 2]"):
        path = tmp_path / "tokens.json"
        path.write_text(text)
        tokens = ResumeTokens(path)
        assert dict(tokens) == {}
        tokens["ann"] = "t-1"  # and is replaced by the next token
        assert json.loads(path.read_text()) == {"ann": "t-1"}


def test_a_restarted_bridge_takes_a_held_seat_back_with_the_stored_token(tmp_path):
    config = IrcConfig(tokens_file=str(tmp_path / "tokens.json"))
    first = Setup()
    first.bridge = Bridge(first.clock, config, connect=first.connect)
    first.bridge.attach(first.irc)
    first.bridge.command("Ann", "/who")
    [link] = first.links
    first.login(link, "Ann")
    first.server(link, "RESUME_TOKEN", nick="Ann", token="secret-token")

    again = Setup()  # the bridge restarted: a new process, the same file
    again.bridge = Bridge(again.clock, config, connect=again.connect)
    again.irc = Irc()
    again.bridge.attach(again.irc)
    again.bridge.command("Ann", "/join 1")
    [link] = again.links
    link.dataReceived(b"Limits: ...\r\n")
    again.server(link, "MODE", mode="relay")
    again.server(link, "ERROR", code="name_held", message="Ann's seat is held")
    assert again.sent(link)[-1] == "/resume secret-token"
