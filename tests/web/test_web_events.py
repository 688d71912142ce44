"""An event at the page, in a real headless Chromium (Debian packages chromium and
chromium-driver, driven by Selenium) against a real server: a line-port program opens an
individual event of one round of one deal, three line-port programs enter it, Ann enters by
clicking in the lobby's Events panel and opens its record; at the start (the shortest,
``+1``: the server's real clock passes a minute, the page is waited on, never slept) the page
takes her to her table, the three programs hang up (stand-ins play their seats), she plays the
deal by clicking cards, and back in the lobby the page shows the standings and the round's
result; all at a phone's 390 × 844, nothing wider than the screen. axe-core (tests/web/package.json) finds no serious or critical violation in the lobby
with the events panel and an event's record open.
"""

from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import threads

from bswtichu.config import Listener

from browser_player import AXE_MISSING, MISSING, PHONE, STEP_TIMEOUT, PagePlayer, audit, start_browser
from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

START_TIMEOUT = 150  # seconds: the event starts a minute after it was opened
GAME_TIMEOUT = 180
ENTRANTS = ("Pia", "Quin", "Ray")


def button_named(person: PagePlayer, label: str):
    """The page's button with this text, once there."""
    person.wait(f"the button {label!r}",
                lambda d: any(b.text == label and b.is_displayed() for b in person.all("button")))
    return next(b for b in person.all("button") if b.text == label and b.is_displayed())


def too_wide(person: PagePlayer) -> list[str]:
    """The page's width and the elements that reach past the screen's right edge (none at best)."""
    return person.driver.execute_script("""
        const edge = document.documentElement.clientWidth;  // a phone's layout viewport grows with its content
        if (document.documentElement.scrollWidth > edge) return [`the page is ${document.documentElement.scrollWidth} px wide`];
        return [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > edge + 1
          && e.getClientRects().length).map((e) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8);""")


def event_evening(url: str) -> dict:
    driver = start_browser(*PHONE)  # a phone's screen: the panel fits it too
    seen: dict = {}
    try:
        person = PagePlayer(driver, shots="events")
        person.open(url)
        person.log_in("Ann")
        person.wait("the event in the lobby", lambda d: "Event 1: Browser night" in person.text("#events"))
        seen["listed"] = person.text("#events")
        button_named(person, "Enter event 1").click()
        button_named(person, "Withdraw from event 1")
        button_named(person, "Show event 1").click()
        person.wait("the record", lambda d: person.shown("#event-record") and "Ann" in person.text("#event-record"))
        seen["record"] = person.text("#event-record")
        seen["widths"] = [too_wide(person)]
        person.shot("events")
        if AXE_MISSING is None:
            seen["audit"] = audit(driver)
        person.wait("the event's table", lambda d: person.shown("#table") and person.all("#hand [role=option]"),
                    START_TIMEOUT)
        seen["table"] = person.text("#table-title")
        seen["controls"] = person.shown("#table-controls")
        seen["over"] = person.play_to_the_end(GAME_TIMEOUT)
        seen["leave"] = person.text("#leave")
        person.click("#leave")
        person.wait("the standings in the lobby",
                    lambda d: person.shown("#lobby") and person.shown("#event-standings")
                    and "final standings" in person.text("#event-standings"))
        seen["standings"] = [row.text for row in person.all("#event-standings tbody tr")]
        person.wait("the round's result", lambda d: "victory points" in person.text("#event-record"))
        seen["result"] = person.text("#event-record")
        seen["widths"].append(too_wide(person))
        person.shot("standings")
        seen["console"] = person.console_errors()
        return seen
    finally:
        driver.quit()


@pytest_twisted.ensureDeferred
async def test_a_browser_player_enters_an_event_plays_its_round_and_sees_the_standings():
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.0, players_create_events=True,
                             reconnect_grace=0.0) as server:
        host = await server.bot("Host")
        host.send("/register secret-pw-1")
        await host.message("REGISTERED")
        host.send("/newevent individual 1 1 30 +1 Browser night")
        await host.message("EVENT_CREATED")
        programs = []
        for name in ENTRANTS:
            program = await server.bot(name)
            program.send("/enter 1")
            await program.message("EVENT_ENTERED", name=name)
            programs.append(program)
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        evening = threads.deferToThread(event_evening, url).addTimeout(
            START_TIMEOUT + GAME_TIMEOUT + 20 * STEP_TIMEOUT, reactor())
        for program in programs:  # seated, they go: a stand-in plays each seat
            await program.wait_for(lambda line: line.startswith("EVENT_SEAT "), START_TIMEOUT)
            program.transport.loseConnection()
        seen = await evening
    assert "Browser night" in seen["listed"] and "individual, 1 round of 1 deal, 30 s a move" in seen["listed"]
    assert "Entered: " in seen["record"] and "Ann" in seen["record"]
    assert seen.get("audit", []) == [], seen["audit"]
    assert seen["table"].startswith("Table ") and not seen["controls"]
    assert seen["over"].startswith("Game over"), seen["over"]
    assert seen["leave"] == "Back to the lobby"
    assert len(seen["standings"]) == 4 and any("Ann" in row for row in seen["standings"]), seen["standings"]
    assert "Round 1" in seen["result"] and "Ann" in seen["result"], seen["result"]
    assert seen["widths"] == [[], []]  # nothing reaches past a phone's screen
    assert seen["console"] == []
