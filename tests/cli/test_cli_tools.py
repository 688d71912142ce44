"""The operator's subcommands from the command line (issue 31 items 3 and 10): every one in
``bswtichu --help``, options before a subcommand handed to it or refused saying where they go,
``bswtichu irc --set``, and a refused command that creates nothing. The real CLI: ``main(argv)``
or a child process."""

from __future__ import annotations

import io
import os
import stat
import sys

import pytest

from bswtichu import cli
from bswtichu.irc.cli import build_parser as irc_parser, config_from as irc_config_from
from bswtichu.storage import Storage

from test_cli_process import bswtichu


def test_help_lists_every_subcommand(tmp_path):
    done = bswtichu(tmp_path, "--help")
    assert done.returncode == 0
    listed = done.stdout.split("positional arguments:")[1].split("options:")[0]
    for command in ("serve", "replay", "match", "irc", "backup", "admin"):
        assert f"\n    {command} " in listed, listed


def test_the_database_given_before_backup_and_admin_is_theirs(tmp_path, capsys, monkeypatch):
    database = tmp_path / "mine.sqlite3"
    Storage.open(str(database)).close()
    assert cli.main(["--database", str(database), "backup", str(tmp_path / "copy.sqlite3")]) == 0
    assert stat.S_IMODE(os.stat(tmp_path / "copy.sqlite3").st_mode) == 0o600
    monkeypatch.setattr(sys, "stdin", io.StringIO("root-pw-1\n"))
    assert cli.main(["--database", str(database), "admin", "add", "Root"]) == 0
    assert cli.main(["--database", str(database), "admin", "list"]) == 0
    assert "Root: admin" in capsys.readouterr().out


def test_a_server_option_before_a_subcommand_says_to_put_it_after(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--telnet", "tcp:4000", "--flood-rate", "3", "backup", "out.sqlite3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--telnet, --flood-rate before backup are the server's" in err
    assert "go after it: bswtichu backup [OPTIONS]" in err
    assert list(tmp_path.iterdir()) == []


def test_irc_takes_set_for_its_own_section(capsys):
    args = irc_parser().parse_args(["--set", "irc.game=192.0.2.1:4243", "--set", "irc.burst=3"])
    assert (irc_config_from(args).game, irc_config_from(args).burst) == ("192.0.2.1:4243", 3)
    assert cli.main(["irc", "--set", "irc.game=nowhere"]) == 2  # read, and found wrong
    assert "game must be HOST:PORT" in capsys.readouterr().err
    assert cli.main(["--set", "irc.burst=many", "irc"]) == 2  # before irc: handed to it
    assert "[irc] burst = 'many' is not a whole number" in capsys.readouterr().err
    assert cli.main(["irc", "--set", "limits.max_tables=3"]) == 2
    assert "the bridge reads only [irc]; [limits] is the server's" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["backup", "copy.sqlite3"], "there is no database data/bswtichu.sqlite3"),
    (["admin", "list"], "there is no database data/bswtichu.sqlite3"),
    (["admin", "remove", "Root"], "there is no database data/bswtichu.sqlite3"),
    (["admin", "add", "bot-basic-X"], "kept for bots"),
])
def test_a_refused_command_in_a_folder_without_the_database_creates_nothing(tmp_path, argv, said):
    """``bswtichu backup X`` left data/bswtichu.sqlite3.lock (and data/) behind."""
    done = bswtichu(tmp_path, *argv)
    assert done.returncode == 1 and said in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_admin_add_at_a_terminal_asks_twice_and_two_passwords_that_differ_change_nothing(
        tmp_path, monkeypatch, capsys):
    typed = iter(["first-pw-1", "other-pw-2"])
    monkeypatch.setattr(sys, "stdin", type("Tty", (io.StringIO,), {"isatty": lambda self: True})())
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(typed))
    assert cli.main(["admin", "add", "Root", "--database", str(tmp_path / "db.sqlite3")]) == 1
    assert "the two passwords differ" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
