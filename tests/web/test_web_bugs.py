"""The five bugs issue 34 found on the old page, each in a real headless Chromium (Debian packages
chromium and chromium-driver, driven by Selenium) against a real server:

1. "Rounds 1" typed into the table's field applies at the start, without another button;
2. a player who left a started game finds "Back to my seat" in the lobby, and it takes him back;
3. Duo: coming back during the exchange shows the second hand's exchange at once;
4. after coming back, the score line counts the rounds as the server does (a round in play is
   not over);
5. the lobby names each table's variant, and the page's log has none of the bots' greeting
   lines (``/mode machine``, the line limits).
"""

from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import threads

from bswtichu.config import Listener

from browser_player import MISSING, STEP_TIMEOUT, PagePlayer, open_table, start_browser
from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


async def at_the_page(scenario, *args, server_does=None):
    """``scenario(url, *args)`` in a browser thread, against a server with the WebSocket listener
    (``server_does(server)`` first, in the reactor); what it returns."""
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.0) as server:
        if server_does is not None:
            await server_does(server)
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        return await threads.deferToThread(scenario, url, *args).addTimeout(20 * STEP_TIMEOUT, reactor())


def in_browser(scenario):
    """``scenario(person)`` with a logged-in Ann at a fresh page; the browser closed after."""
    def run(url, *args):
        driver = start_browser()
        try:
            person = PagePlayer(driver)
            person.open(url)
            person.log_in("Ann")
            return scenario(person, *args)
        finally:
            driver.quit()
    return run


def come_back(person: PagePlayer) -> None:
    """The connection drops (/quit); the page's "Connect again", then "Come back as Ann"."""
    person.command("/quit")
    person.wait("the connection's end", lambda d: person.shown("#reconnect"))
    person.click("#reconnect")
    person.wait("the offer to come back", lambda d: person.shown("#resume") and person.text("#connection") == "Connected.")
    person.click("#resume")
    person.wait("the table again", lambda d: person.shown("#table") and person.all("#hand [role=option]"))


@in_browser
def rounds_typed_then_start(person):
    open_table(person, "nanjing")  # to 1000
    person.find("#rounds").send_keys("1")
    person.click("#start")  # nothing else: no "Set rounds"
    person.wait("the deal", lambda d: person.all("#hand [role=option]"))
    return person.log_text()


@pytest_twisted.ensureDeferred
async def test_bug_1_the_rounds_typed_apply_at_the_start():
    log = await at_the_page(rounds_typed_then_start)
    assert "Ann sets round 1 at table 1" in log
    assert log.index("Ann sets round 1 at table 1") < log.index("Table 1 starts")
    assert log.count("sets round 1") == 1  # asked once (the field's change, and not again at the start)


@in_browser
def leave_and_come_back(person):
    open_table(person, "nanjing", "1")
    person.click("#start")
    person.wait("the deal", lambda d: len(person.all("#hand [role=option]")) >= 8)
    person.click("#leave")
    person.wait("the lobby", lambda d: person.shown("#lobby") and person.all("#tables button"))
    # read and click within waits: the lobby draws its list anew at every TABLES
    offered = person.wait("the seat offered", lambda d: person.all("#tables button.primary")
                          and [button.text for button in person.all("#tables button")])
    person.wait("the click on it", lambda d: person.find("#tables button.primary").click() or True)
    person.wait("the table again", lambda d: person.shown("#table") and len(person.all("#hand [role=option]")) >= 8)
    return {"offered": offered, "console": person.console_errors(), "log": person.log_text()}


@pytest_twisted.ensureDeferred
async def test_bug_2_a_player_who_left_a_started_game_gets_back_to_his_seat():
    seen = await at_the_page(leave_and_come_back)
    assert seen["offered"] == ["Back to my seat at table 1"]  # not "Watch table 1", which is refused
    assert "> /join 1" in seen["log"]  # the button's command: the held seat taken back
    assert seen["console"] == []


@in_browser
def duo_back_in_the_exchange(person):
    open_table(person, "duo", "1")
    person.click("#start")
    person.play_until("both exchanges", lambda: person.shown("#second-exchange") and person.shown("#exchange"))
    come_back(person)
    person.wait("the second hand's exchange", lambda d: person.shown("#second-exchange"))
    return {"own": person.shown("#exchange"), "places": len(person.all("#second-exchange-slots button.place")),
            "moves": person.text("#dummy-legal"), "score": person.text("#score"), "log": person.log_text()}


@pytest_twisted.ensureDeferred
async def test_bug_3_duo_back_during_the_exchange_shows_the_second_hands_exchange():
    seen = await at_the_page(duo_back_in_the_exchange)
    assert seen["own"] and seen["places"] == 3
    assert "Nothing for the second hand" not in seen["moves"]
    assert "/second legal" not in seen["log"]  # nobody typed it
    assert seen["score"].startswith("Score after 0 of 1 rounds: "), seen["score"]  # bug 4's Duo case


@in_browser
def back_in_the_middle_of_a_round(person):
    open_table(person, "nanjing", "1")
    person.click("#start")
    person.play_until("a play", lambda: person.plays >= 1)
    come_back(person)
    person.wait("the score", lambda d: person.text("#score"))
    return person.text("#score")


@pytest_twisted.ensureDeferred
async def test_bug_4_the_score_line_after_coming_back_counts_the_rounds_over():
    score = await at_the_page(back_in_the_middle_of_a_round)
    assert score.startswith("Score after 0 of 1 rounds: "), score  # round 1 is still being played


@in_browser
def the_lobby(person):
    person.wait("the table in the lobby", lambda d: "Table 1" in person.text("#tables"))
    return {"tables": person.text("#tables"), "log": person.log_text()}


async def a_duo_table(server):
    bo = await server.bot("Bo")
    bo.send("/join")
    bo.send("/variant duo")
    await bo.message("OPTION", name="variant")


@pytest_twisted.ensureDeferred
async def test_bug_5_the_lobby_names_the_variant_and_the_greeting_is_for_people():
    seen = await at_the_page(the_lobby, server_does=a_duo_table)
    assert "Table 1 · Duo · to 1000 · waiting for players" in seen["tables"], seen["tables"]
    assert "1: Bo" in seen["tables"] and "2: free" in seen["tables"]
    assert "Welcome to bswtichu" in seen["log"]
    assert "/mode machine" not in seen["log"] and "Limits:" not in seen["log"]
