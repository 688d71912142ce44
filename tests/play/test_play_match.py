"""The ``bswtichu match`` command."""

import io

import pytest

from bswtichu.play.match import main, progress_bar


def test_match_prints_its_summary(capsys):
    assert main(["--games", "2", "--rounds", "2", "--seed", "5", "--no-progress", "basic", "random"]) == 0
    out, err = capsys.readouterr()
    assert "basic vs random: 2 games of at most 2 rounds, seed 5" in out
    for label in ("games won", "points per round", "Tichu called / made",
                  "Grand Tichu called / made", "draws:"):
        assert label in out
    assert err == ""


def test_match_counts_every_game_once(capsys):
    main(["--games", "3", "--rounds", "1", "--no-progress", "random", "random"])
    out = capsys.readouterr().out
    won = next(line for line in out.splitlines() if "games won" in line).split()[-2:]
    draws = int(out.split("draws: ")[1].split(";")[0].split(",")[0])
    assert sum(map(int, won)) + draws == 3


def test_match_prints_no_progress_when_stderr_is_not_a_terminal(capsys):
    main(["--games", "2", "--rounds", "1", "random", "basic"])
    assert capsys.readouterr().err == ""


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_shows_on_a_terminal_only():
    terminal, redirected = Terminal(), io.StringIO()
    for out in (terminal, redirected):
        with progress_bar(3, out) as bar:
            for _ in range(3):
                bar.update(1)
    assert "3/3" in terminal.getvalue() and "game" in terminal.getvalue()
    assert redirected.getvalue() == ""
    off = Terminal()
    with progress_bar(3, off, off=True) as bar:
        bar.update(3)
    assert off.getvalue() == ""


def test_turnier_match_reports_victory_points(capsys):
    main(["--games", "1", "--turnier", "--no-progress", "basic", "random"])
    out = capsys.readouterr().out
    assert "1 tournament game," in out and "victory points per game" in out


def test_match_rejects_unknown_levels(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["master", "random"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_match_plays_the_expert_with_the_budget_it_is_given(capsys):
    assert main(["--games", "1", "--rounds", "1", "--budget", "5", "--no-progress", "expert", "basic"]) == 0
    assert "expert vs basic: 1 game" in capsys.readouterr().out


def test_match_rejects_a_budget_below_one(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--budget", "0", "expert", "basic"])
    assert exit_info.value.code == 2
    assert "--budget" in capsys.readouterr().err
