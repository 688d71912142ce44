"""/width and /color as methods of `DisplayCommands`: a session on a recording connection, no lobby."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.display import DisplayCommands
from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.session import Session
from bswtichu.server.text.messages import Refusal

from command_parts import lines, lone_session, only


@pytest.fixture
def session() -> Session:
    return lone_session()


@pytest.fixture
def display() -> DisplayCommands:
    return DisplayCommands()


def test_width_sets_the_columns_and_says_so(display, session):
    display.width(session, "100")
    assert session.width == 100
    assert only(session, "DISPLAY")["width"] == 100


def test_width_off_and_auto(display, session):
    session.default_width = 72
    display.width(session, "off")
    assert session.width == 0
    assert only(session, "DISPLAY")["width"] is None  # not wrapped, though the client said 72
    display.width(session, "AUTO")
    assert session.width is None
    assert only(session, "DISPLAY")["width"] == 72  # the client's own report again


@pytest.mark.parametrize("args, detail", [("5", "N must be 20 to 250, not 5"),
                                          ("wide", "N must be a number, off or auto, not 'wide'"),
                                          ("²", "N must be a number, off or auto, not '²'")])
def test_a_wrong_width_is_refused_and_changes_nothing(display, session, args, detail):
    session.width = 60
    with pytest.raises(UsageRefusal) as refused:
        display.width(session, args)
    assert refused.value.detail == detail
    assert session.width == 60
    assert lines(session) == []


def test_the_command_adds_its_usage_to_a_wrong_use(display, session):
    [width, _] = display.commands()
    with pytest.raises(Refusal) as refused:
        width.run(session, "5")
    assert refused.value.message == "N must be 20 to 250, not 5; usage: /width [N|off|auto]"


def test_color_on_off_and_back_to_the_client_default(display, session):
    session.default_colour = True
    display.color(session, "off")
    assert session.colour is False
    assert only(session, "DISPLAY")["color"] is False
    display.color(session, "auto")
    assert session.colour is None
    assert only(session, "DISPLAY")["color"] is True


def test_color_without_an_argument_only_tells(display, session):
    display.color(session, "")
    assert session.colour is None
    assert only(session, "DISPLAY")["color"] is False


def test_a_wrong_color_is_refused(display, session):
    with pytest.raises(UsageRefusal) as refused:
        display.color(session, "rainbow")
    assert refused.value.detail == "no choice 'rainbow'"
    assert session.colour is None


def test_the_group_lists_width_then_color():
    assert [(c.key, c.names, c.needs_nick) for c in DisplayCommands().commands()] == [
        ("width", ("width", "breite"), False), ("color", ("color", "farbe", "colour"), False)]
