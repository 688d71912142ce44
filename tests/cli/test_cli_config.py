"""Configuration file and the command line (no server is started here)."""

from __future__ import annotations

import json
import contextlib
import re
import sys
import types
from pathlib import Path

import pytest

from bswtichu import cli
from twisted.internet.task import Clock

from bswtichu.bots import BotSettings
from bswtichu.config import ConfigError, Listener, ServerConfig, load_config, parse_config
from bswtichu.service import makeService

REPO = Path(__file__).resolve().parents[2]


def test_shipped_config_equals_the_builtin_defaults():
    assert load_config(REPO / "config" / "bswtichu.ini") == ServerConfig()


def test_config_values_are_read_and_typed():
    config = parse_config("[listen]\ntelnet = tcp:5000\n[limits]\nflood_rate = 2.5\nmax_line_length = 100\n")
    assert config.endpoints_of("telnet") == ("tcp:5000",)
    assert config.flood_rate == 2.5
    assert config.max_line_length == 100
    assert config.endpoints_of("line") == ServerConfig().endpoints_of("line")


#: the default WebSocket listeners, plain and over TLS (kept by a file that sets only the others)
DEFAULT_WEB = (Listener("websocket", "tcp:4280:interface=127.0.0.1"),
               Listener("websocket", "ssl:4281:interface=127.0.0.1"))


def test_the_old_two_port_keys_still_set_the_two_listeners():
    config = parse_config("[listen]\ntelnet = tcp:5000:interface=127.0.0.1\nline = unix:/tmp/bots.sock\n")
    assert config.listeners == (Listener("telnet", "tcp:5000:interface=127.0.0.1"),
                                Listener("line", "unix:/tmp/bots.sock"), *DEFAULT_WEB)


def test_a_kind_may_listen_on_several_endpoints_or_none():
    config = parse_config("[listen]\ntelnet =\n    tcp:5000:interface=127.0.0.1\n"
                          "    ssl:5001:privateKey=k.pem:certKey=c.pem:interface=127.0.0.1\nline =\n")
    assert config.listeners == (Listener("telnet", "tcp:5000:interface=127.0.0.1"),
                                Listener("telnet", "ssl:5001:privateKey=k.pem:certKey=c.pem:interface=127.0.0.1"),
                                *DEFAULT_WEB)
    with pytest.raises(ConfigError, match="at least one listener"):
        parse_config("[listen]\ntelnet =\nline =\nwebsocket =\n")


def test_listen_adds_listeners_and_the_shortcuts_replace_their_kind():
    args = cli.build_parser().parse_args([
        "--listen", "line=tcp:0:interface=127.0.0.1", "--telnet", "tcp:6000:interface=127.0.0.1",
        "serve", "--listen", "telnet=unix:/tmp/t.sock"])
    assert cli.config_from(args).listeners == (
        Listener("telnet", "tcp:6000:interface=127.0.0.1"), Listener("line", "tcp:4243:interface=127.0.0.1"),
        Listener("line", "ssl:4245:interface=127.0.0.1"), *DEFAULT_WEB, Listener("line", "tcp:0:interface=127.0.0.1"),
        Listener("telnet", "unix:/tmp/t.sock"))
    args = cli.build_parser().parse_args(["--set", "listen.line=tcp:7000 tcp:7001"])
    assert cli.config_from(args).endpoints_of("line") == ("tcp:7000", "tcp:7001")


@pytest.mark.parametrize("argv, complaint", [
    (["--listen", "telnet"], "write KIND=ENDPOINT"),
    (["--listen", "=tcp:5000"], "write KIND=ENDPOINT"),
    (["--set", "listen.Tel-net=tcp:5000"], "is not a listener kind"),
])
def test_a_bad_listener_flag_says_what_is_wrong(capsys, argv, complaint):
    with pytest.raises(SystemExit) if argv[0] == "--listen" else contextlib.nullcontext():
        assert cli.main(argv) == 2
    assert complaint in capsys.readouterr().err


def test_an_unknown_kind_is_refused_in_one_line_before_anything_starts(capsys):
    assert cli.main(["--listen", "gopher=tcp:0:interface=127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert err == "bswtichu: unknown listener kind 'gopher'; known: telnet, line, websocket, metrics\n"


def test_an_unknown_kind_is_refused_when_the_service_is_made():
    config = ServerConfig(listeners=(Listener("gopher", "tcp:0:interface=127.0.0.1"),), database=":memory:")
    with pytest.raises(ConfigError, match="unknown listener kind 'gopher'; known: telnet, line, websocket, metrics"):
        makeService(config, Clock())


def test_the_help_example_says_which_interface_it_listens_on(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--telnet tcp:4000:interface=127.0.0.1" in out and "--telnet tcp:4000 " not in out
    assert "every interface" in out


def test_the_expert_budget_is_read_from_the_bots_section():
    assert parse_config("[bots]\nexpert_budget = 50\n").expert_budget == 50


def test_unset_the_expert_budget_is_the_bots_own_and_set_it_reaches_the_bots():
    """The settings leave the default to the bots (config imports nothing below it)."""
    unset = makeService(ServerConfig(database=":memory:"), Clock())
    assert ServerConfig().expert_budget is None
    assert unset.games.bot_settings == BotSettings()
    configured = makeService(parse_config("[bots]\nexpert_budget = 50\n").replace(database=":memory:"), Clock())
    assert configured.games.bot_settings.expert_budget == 50


@pytest.mark.parametrize(
    "text, complaint",
    [
        ("[limits]\nflood_rat = 2\n", "unknown setting [limits] flood_rat"),
        ("[limits]\nmax_line_length = many\n", "is not a whole number"),
        ("[limits]\nflood_burst = 0\n", "flood_burst must be at least 1"),
        ("[bots]\nexpert_budget = 0\n", "expert_budget must be at least 1"),
        ("[storage]\nlease = 2\nrenew = 2\n", "storage renew must be above 0 and below storage lease"),
        ("no section\n", "File contains no section headers"),
    ],
)
def test_bad_config_says_what_is_wrong(text, complaint):
    with pytest.raises(ConfigError, match=re.escape(complaint)):
        parse_config(text)


def test_missing_config_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "absent.ini")


def test_help_lists_subcommands_and_flags(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for word in ("serve", "replay", "match", "--config", "--telnet", "--line", "--idle-timeout"):
        assert word in out


def test_flags_override_the_config_file(tmp_path):
    ini = tmp_path / "my.ini"
    ini.write_text("[limits]\nflood_burst = 7\nflood_rate = 3\n")
    args = cli.build_parser().parse_args(["--config", str(ini), "serve", "--telnet", "tcp:6000", "--flood-rate", "9"])
    config = cli.config_from(args)
    assert (config.endpoints_of("telnet"), config.flood_rate, config.flood_burst) == (("tcp:6000",), 9.0, 7)


def test_any_setting_can_be_set_on_the_command_line(tmp_path):
    ini = tmp_path / "my.ini"
    ini.write_text("[limits]\nmax_tables = 7\n")
    args = cli.build_parser().parse_args(["--config", str(ini), "--set", "limits.max_tables=100",
                                          "--set", "storage.synchronous=full", "--max-line-length", "300"])
    config = cli.config_from(args)
    assert (config.max_tables, config.synchronous, config.max_line_length) == (100, "full", 300)
    args = cli.build_parser().parse_args(["--set", "limits.max_tables=9", "serve",
                                          "--set", "limits.tables_per_person=3"])
    assert (cli.config_from(args).max_tables, cli.config_from(args).tables_per_person) == (9, 3)


@pytest.mark.parametrize("value, complaint", [
    ("limits.max_tables", "write SECTION.KEY=VALUE"),
    ("max_tables=3", "write SECTION.KEY=VALUE"),
    ("limits.max_tabels=3", "unknown setting [limits] max_tabels"),
    ("limits.max_tables=many", "[limits] max_tables = 'many' is not a whole number (e.g. 100)"),
    ("limits.max_tables=0", "max_tables must be at least 1"),
    ("irc.tokens_file=x.json", "[irc] is read by another tool, not the server"),
])
def test_a_bad_set_says_what_is_wrong(capsys, value, complaint):
    assert cli.main(["--set", value]) == 2
    err = capsys.readouterr().err
    assert complaint in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--config", "x.ini", "replay", "game.tch"], ["--telnet", "tcp:1", "irc"]])
def test_options_before_another_tool_are_refused_in_one_line(capsys, argv):
    assert cli.main(argv) == 2  # not the game server started instead of the tool
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"bswtichu {argv[2]} --help" in err and "go after it" in err


def test_flag_before_subcommand_survives():
    args = cli.build_parser().parse_args(["--line", "tcp:7000", "serve"])
    assert cli.config_from(args).endpoints_of("line") == ("tcp:7000",)


def test_bad_flag_value_exits_2(capsys):
    assert cli.main(["--flood-burst", "0"]) == 2
    assert "flood_burst must be at least 1" in capsys.readouterr().err


def test_missing_subcommand_module_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "bswtichu.tch.replay", None)  # makes the import fail
    assert cli.main(["replay", "game.tch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bswtichu replay: not available" in err


def test_subcommand_gets_the_remaining_arguments(monkeypatch):
    seen = []
    fake = types.ModuleType("bswtichu.play.match")
    fake.main = lambda argv: seen.append(argv) or 3
    monkeypatch.setitem(sys.modules, "bswtichu.play.match", fake)
    assert cli.main(["match", "--games", "5", "--help"]) == 3
    assert seen == [["--games", "5", "--help"]]


def test_the_server_says_in_one_line_where_people_and_bots_connect(tmp_path):
    import subprocess
    import threading

    command = [sys.executable, "-c", "from bswtichu.cli import main; main()",
               "--telnet", "tcp:0:interface=127.0.0.1", "--line", "tcp:0:interface=127.0.0.1",
               "--set", "listen.websocket=tcp:0:interface=127.0.0.1", "--log-folder", str(tmp_path / "logs")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd=tmp_path)
    watchdog = threading.Timer(30, server.kill)  # a server that never speaks fails, not hangs
    watchdog.start()
    try:
        first = server.stdout.readline()
    finally:
        watchdog.cancel()
        server.terminate()
        rest = server.communicate(timeout=10)[0]
    assert re.fullmatch(r"\d\d:\d\d:\d\d bswtichu [\d.]+: people: telnet 127\.0\.0\.1:\d+,"
                        r" web http://127\.0\.0\.1:\d+/;"
                        r" bots: 127\.0\.0\.1:\d+; logs in .*/logs/\. Ctrl-C stops it\.\n", first), first
    assert "Starting factory" not in rest and "starting on" not in rest
    assert "Traceback" not in rest


def test_the_json_log_is_one_event_a_line_with_its_fields_and_sentence():
    from io import StringIO

    from twisted.logger import Logger

    stream = StringIO()
    observer = cli.log_observer(ServerConfig(log_format="json", log_level="warn"), stream)
    logger = Logger(namespace="test", observer=observer)
    logger.info("not written: below the level", event="quiet")
    logger.warn("table {table} starts", table=3, event="table_start")
    logger.error("broken {what}", what="storage", event="internal_error")
    events = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(e["event"], e["message"]) for e in events] == [
        ("table_start", "table 3 starts"), ("internal_error", "broken storage")]
    assert events[0]["table"] == 3 and events[0]["log_level"]["name"] == "warn"
    with pytest.raises(ConfigError, match="log_format must be text or json"):
        ServerConfig(log_format="xml")
    args = cli.build_parser().parse_args(["--log-format", "json", "--set", "log.level=error"])
    assert (cli.config_from(args).log_format, cli.config_from(args).log_level) == ("json", "error")
