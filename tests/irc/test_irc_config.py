"""The [irc] section and the `bswtichu irc` command line."""

from __future__ import annotations

import re

import pytest

from bswtichu.config import ConfigError, parse_config
from bswtichu.irc.cli import build_parser, config_from
from bswtichu.irc.config import IrcConfig, parse_irc_config

INI = """
[listen]
line = tcp:4243:interface=127.0.0.1

[irc]
server = irc.example.org:6697
channel = #tichu-de
nick = tichu
game = 127.0.0.1:4343
burst = 3
line_interval = 1.5
"""


def test_the_irc_section_is_read():
    config = parse_irc_config(INI)
    assert config == IrcConfig(server="irc.example.org:6697", channel="#tichu-de", nick="tichu",
                               game="127.0.0.1:4343", burst=3, line_interval=1.5)
    assert config.server_address == ("irc.example.org", 6697)


def test_the_server_reads_the_same_file_and_skips_the_irc_section():
    assert parse_config(INI).endpoints_of("line") == ("tcp:4243:interface=127.0.0.1",)


def test_no_irc_section_gives_the_defaults():
    assert parse_irc_config("[listen]\nline = tcp:1\n") == IrcConfig()


@pytest.mark.parametrize("text, complaint", [
    ("[irc]\nchanel = #x\n", "unknown setting [irc] chanel"),
    ("[irc]\nburst = many\n", "is not a whole number"),
    ("[irc]\nserver = nohostport\n", "server must be HOST:PORT"),
    ("[irc]\ngame = host:99999\n", "game must be HOST:PORT"),
    ("[irc]\ngame = host:6²\n", "game must be HOST:PORT"),
    ("[irc]\nchannel = tichu\n", "channel must start with #"),
    ("[irc]\nnick = two words\n", "nick must be one word"),
    ("[irc]\nburst = 0\n", "burst must be at least 1"),
    ("[irc\n", "source"),
])
def test_bad_settings_are_refused_with_the_reason(text, complaint):
    with pytest.raises(ConfigError, match=re.escape(complaint if complaint != "source" else "<config>")):
        parse_irc_config(text)


def test_flags_override_the_file(tmp_path):
    path = tmp_path / "my.ini"
    path.write_text(INI)
    args = build_parser().parse_args(["--config", str(path), "--nick", "tb", "--line-interval", "0.5"])
    assert config_from(args) == parse_irc_config(INI).replace(nick="tb", line_interval=0.5)


def test_the_bswtichu_command_hands_irc_to_the_bridge(capsys):
    from bswtichu.cli import main

    assert main(["irc", "--channel", "nochannel"]) == 2
    assert "channel must start with #" in capsys.readouterr().err


def test_the_shipped_ini_holds_the_defaults_and_keeps_tokens_in_a_file():
    from pathlib import Path

    from bswtichu.irc.config import load_irc_config

    shipped = load_irc_config(Path(__file__).parents[2] / "config" / "bswtichu.ini")
    assert shipped == IrcConfig(tokens_file="data/irc-tokens.json")  # beside the server's database


def test_the_tls_flags_override_the_file():
    from bswtichu.irc import cli as irc_cli

    args = irc_cli.build_parser().parse_args(["--game-tls", "yes", "--game-ca", "data/tls-certificate.pem",
                                              "--server-tls", "no"])
    config = irc_cli.config_from(args)
    assert config.game_tls is True and config.game_ca == "data/tls-certificate.pem"
    assert config.server_tls is False
