"""A session's name: what the commands that need one read (`Session.name`)."""

from __future__ import annotations

import pytest

from bswtichu.server.session import Session


class Silent:
    """A connection nothing is asked of here."""


def test_name_is_the_chosen_nick():
    session = Session(Silent(), "test")
    session.nick = "Ann"
    assert session.name == "Ann"


def test_name_of_an_unnamed_session_is_a_bug_said_at_once():
    session = Session(Silent(), "test")
    with pytest.raises(RuntimeError, match="only a named client gets here"):
        session.name
