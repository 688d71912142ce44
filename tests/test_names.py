"""What a name looks like (`names.look`): a name and its look-alikes (fullwidth, case, small
capitals, Cyrillic and Greek letters) have one look; distinct ordinary names keep theirs.

Over real loopback TCP, each look-alike issue 30 named is refused with one line naming the
name it looks like.
"""

from __future__ import annotations

import unicodedata

import pytest
import pytest_twisted
from hypothesis import given
from hypothesis import strategies as st

from bswtichu import names

from test_people_community_tcp import CommunityServer, refused

# Letters of other scripts that look like a Latin letter, in the case given or in the other
# case (Cyrillic т and к look like small capitals; their capitals are T and K).
HOMOGLYPHS = {
    "a": "аα", "b": "Ьβ", "c": "с", "e": "еε", "h": "һн", "i": "іι", "j": "ј", "k": "кκ", "m": "мμ",
    "o": "оο", "p": "рρ", "s": "ѕ", "t": "тτ", "u": "υ", "v": "ν", "x": "хχ", "y": "уγ",
    "A": "АΑ", "B": "ВΒ", "C": "С", "E": "ЕΕ", "H": "НΗ", "I": "ІΙ", "J": "Ј", "K": "КΚ",
    "M": "МΜ", "N": "Ν", "O": "ОΟ", "P": "РΡ", "S": "Ѕ", "T": "ТΤ", "X": "ХΧ", "Y": "ҮΥ", "Z": "Ζ",
}
ORDINARY = "abcefghjkpqstuxyz"  # Latin letters no two of which (nor pairs: rn, cl, vv) look alike


def small_capital(c: str) -> str | None:
    try:
        return unicodedata.lookup(f"LATIN LETTER SMALL CAPITAL {c.upper()}")
    except KeyError:
        return None


def fullwidth(c: str) -> str:
    return chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c


def look_alikes(c: str) -> list[str]:
    """The ways one letter may be written without looking like another (but I, which looks
    like l, is no look-alike of i: a name's look is that of its spelling as shown)."""
    forms = [c, fullwidth(c), *HOMOGLYPHS.get(c, "")]
    if c not in "iI":
        forms.append(c.swapcase())
    if c.isalpha() and c != "I" and small_capital(c):
        forms.append(small_capital(c))
    return forms


NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_",
               min_size=2, max_size=16)


@st.composite
def name_and_look_alike(draw) -> tuple[str, str]:
    name = draw(NAME)
    return name, "".join(draw(st.sampled_from(look_alikes(c))) for c in name)


@given(name_and_look_alike())
def test_a_name_and_its_look_alikes_look_the_same(pair):
    name, look_alike = pair
    assert names.look(look_alike) == names.look(name), (name, look_alike)


@given(st.text(alphabet=ORDINARY, min_size=2, max_size=16), st.text(alphabet=ORDINARY, min_size=2, max_size=16))
def test_distinct_ordinary_names_look_distinct(one, other):
    assert (names.look(one) == names.look(other)) == (one == other)


@given(st.text(alphabet="абвгдежзклмнопрстуфцчшщэюя", min_size=2, max_size=16),
       st.text(alphabet="абвгдежзклмнопрстуфцчшщэюя", min_size=2, max_size=16))
def test_distinct_cyrillic_names_look_distinct(one, other):
    assert (names.look(one) == names.look(other)) == (one == other)


@pytest.mark.parametrize("look_alike, name", [
    ("Fuzzeｒ", "Fuzzer"), ("Ｒoot", "Root"), ("ｓｅｒｖｅｒ", "server"), ("ａｄｍｉｎ", "admin"),
    ("ʀoot", "Root"), ("rooт", "Root"), ("ᴍod10", "mod10"), ("Аnn", "Ann"), ("ANN\u0301", "Ann"),
])
def test_the_issues_look_alikes_look_like_the_name(look_alike, name):
    assert names.look(look_alike) == names.look(name)


@pytest.mark.parametrize("one, other", [("Hans", "nans"), ("Bill", "Bell"), ("Ann", "Anne"),
                                        ("Дмитрий", "Димитрий"), ("Jürgen", "Jörgen")])
def test_different_names_look_different(one, other):
    assert names.look(one) != names.look(other)


@pytest.mark.parametrize("name", ["bot-basic-Ada", "bоt-basic-Ada", "ｂot-basic-Ada", "b0t-basic-Ada",
                                  "BOT-x", "ʙot-x"])
def test_names_that_look_like_a_bots_are_known(name):
    assert names.looks_like_bot(name)


@pytest.mark.parametrize("name", ["robot-x", "botany", "bo-t", "Bott-x"])
def test_other_names_do_not_look_like_a_bots(name):
    assert not names.looks_like_bot(name)


# ---------------------------------------------------------------- over real sockets


@pytest_twisted.ensureDeferred
async def test_each_look_alike_of_the_issue_is_refused_naming_the_name_it_looks_like(tmp_path):
    async with CommunityServer(tmp_path, admins="Boss") as server:
        await server.person("Fuzzer")
        await server.person("Root", register=True)
        await server.person("mod10")
        eve = await server.person("Eve")
        for look_alike, name in (("Fuzzeｒ", "Fuzzer"), ("Ｒoot", "Root"), ("ʀoot", "Root"),
                                 ("rooт", "Root"), ("ᴍod10", "mod10")):
            error = await refused(eve, f"/nick {look_alike}", "nick_lookalike")
            assert error["message"].startswith(f"the name {look_alike} looks like {name}, which is"), error
        for look_alike, name in (("ｓｅｒｖｅｒ", "server"), ("ａｄｍｉｎ", "admin")):
            error = await refused(eve, f"/nick {look_alike}", "nick_reserved")
            assert error["message"] == (f"the name {look_alike} looks like {name}, which is reserved"
                                        " for the server; choose another")
        error = await refused(eve, "/nick ｓerver-1", "nick_reserved")
        assert "names starting with server- are reserved" in error["message"]
        for look_alike in ("bоt-basic-Ada", "ｂot-basic-Ada", "b0t-basic-Ada"):
            error = await refused(eve, f"/nick {look_alike}", "nick_invalid")
            assert error["message"] == (f"the name {look_alike} looks like a bot's: names starting"
                                        " with bot- are kept for bots")
        eve.send("/nick Eve")  # still Eve: none of it changed her name
        await eve.message("NICK", nick="Eve")


@pytest_twisted.ensureDeferred
async def test_only_an_observer_from_the_bridges_address_takes_a_reserved_name(tmp_path):
    async with CommunityServer(tmp_path, uncapped_addresses="127.0.0.2",
                               reserved_names="admin, server, tichubot") as server:
        watcher = await server.connect_from("127.0.0.2")  # the bridge's table watcher
        watcher.send("/observer")
        await watcher.message("OBSERVER", nick=None)
        watcher.send("/nick tichubot-w1")
        await watcher.message("NICK", nick="tichubot-w1")
        await refused(watcher, "/nick tichubot-w2", "observer")  # an observer does not rename
        await refused(watcher, "hello", "observer")
        person = await server.connect_from("127.0.0.2")  # someone behind the bridge
        error = await refused(person, "/nick tichubot-w2", "nick_reserved")
        assert "names starting with tichubot- are reserved" in error["message"]
        await refused(person, "/nick server", "nick_reserved")
        elsewhere = await server.connect_from("127.0.0.1")  # an observer, but not the bridge
        elsewhere.send("/observer")
        await elsewhere.message("OBSERVER")
        await refused(elsewhere, "/nick tichubot-w3", "nick_reserved")


def test_registered_names_looks_are_worked_out_once_per_change_of_the_accounts(monkeypatch):
    """/nick compares with every registered name's look; with many accounts that is worked out
    once, and again only after a registration (which the next /nick must see)."""
    from twisted.internet.task import Clock

    from bswtichu.config import ServerConfig
    from bswtichu.server.text.messages import Refusal
    from bswtichu.service import build_lobby
    from bswtichu.storage import ScryptCost, Storage

    storage = Storage.open(cost=ScryptCost(n=2 ** 8))
    for number in range(300):
        storage.accounts.add(f"Player{number}", "scrypt$x")
    guard = build_lobby(Clock(), ServerConfig(), None, None, storage=storage).names.guard
    looked: list[str] = []
    real_look = names.look
    monkeypatch.setattr(names, "look", lambda name: looked.append(name) or real_look(name))
    for _ in range(3):
        guard.check_look("Newcomer", [])
    assert len(looked) == 300 + 3  # each registered name once, then only the name asked about
    storage.accounts.add("Fuzzer", "scrypt$x")
    with pytest.raises(Refusal, match="looks like Fuzzer, which is registered"):
        guard.check_look("Fuzzeｒ", [])
