"""The page for people who do not use a mouse or do not see it: in a real headless Chromium
(Debian packages chromium and chromium-driver, driven by Selenium), a game of the 4-player game
played with the keyboard where a mouse would be used (the Grand Tichu choice by Tab and Enter,
the exchange's cards put on their places with Space, a lead picked with Space and played with
Enter, the focus visible on each), and axe-core (from npm: tests/web/package.json, ``npm ci``
there; Debian package npm), injected into the page, finds no serious or critical violation in
the lobby, at the table before the start, in the exchange, at a lead and in the review of the
finished game, which is stepped through with its buttons.
"""

from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import threads

from bswtichu.config import Listener

from browser_player import AXE_MISSING, DESKTOP, STEP_TIMEOUT, PagePlayer, audit, open_table, start_browser
from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor

GAME_TIMEOUT = 120


def press_until(driver, key, wanted, most: int = 80) -> bool:
    """Press ``key`` until ``wanted(the focused element)``; whether it came."""
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(most):
        if wanted(driver.switch_to.active_element):
            return True
        ActionChains(driver).send_keys(key).perform()
    return wanted(driver.switch_to.active_element)


def outline(driver) -> str:
    """The focused element's outline style (the focus ring a keyboard user sees)."""
    return driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")


def keyboard_game(url: str) -> dict:
    from selenium.webdriver.common.keys import Keys

    driver = start_browser(*DESKTOP)
    seen: dict = {"audits": {}, "focus": {}}
    try:
        person = PagePlayer(driver, shots="access")
        person.open(url)
        person.log_in("Ann")
        person.wait("Bo's table", lambda d: "Table 1" in person.text("#tables"))
        seen["audits"]["lobby"] = audit(driver)
        open_table(person, "nanjing", "1")
        seen["audits"]["table"] = audit(driver)
        person.click("#start")
        person.wait("the Grand Tichu choice", lambda d: person.all("#legal button.move"))
        seen["grand"] = press_until(driver, Keys.TAB, lambda e: e.get_attribute("title") == "/nogrand")
        seen["focus"]["button"] = outline(driver)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        person.wait("the exchange", lambda d: person.shown("#exchange") and len(person.all("#hand [role=option]")) == 14)
        seen["audits"]["exchange"] = audit(driver)
        seen["to_hand"] = press_until(driver, Keys.TAB, lambda e: e.get_attribute("role") == "option")
        seen["focus"]["card"] = outline(driver)
        for _ in range(3):  # Space puts the focused card on the next free place; the focus stays in the hand
            driver.switch_to.active_element.send_keys(Keys.SPACE)
        person.wait("three cards on the places", lambda d: person.find("#send-exchange").is_enabled())
        seen["placed"] = [slot.get_attribute("aria-label") for slot in person.all("#exchange-slots button.place")]
        seen["to_send"] = press_until(driver, Keys.SHIFT + Keys.TAB, lambda e: e.get_attribute("id") == "send-exchange")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        person.play_until("a lead", lambda: person.text("#announce").startswith("Your turn: lead")
                          and person.find("#suggest-box").get_attribute("data-answered") == "true", GAME_TIMEOUT)
        seen["audits"]["lead"] = audit(driver)
        seen["lead"] = keyboard_lead(person)
        person.play_to_the_end(GAME_TIMEOUT)
        person.click("#review-game")
        person.wait("the review", lambda d: person.shown("#review") and person.all("#review-seats .card"))
        person.shot("review")
        seen["audits"]["review"] = audit(driver)
        first = person.text("#review-step")
        person.click("#review-next")
        person.wait("the next step", lambda d: person.text("#review-step") != first)
        seen["steps"] = [first, person.text("#review-step")]
        seen["hands"] = len(person.all("#review-seats .review-seat"))
        person.click("#review-end")
        person.wait("the table again", lambda d: not person.shown("#review") and person.shown("#table"))
        seen["console"] = person.console_errors()
        return seen
    finally:
        driver.quit()


def keyboard_lead(person: PagePlayer) -> str:
    """Into the hand with Tab, Space on a card the check lets us lead, Enter: what was played."""
    from selenium.webdriver.common.keys import Keys

    driver = person.driver
    press_until(driver, Keys.TAB, lambda e: e.get_attribute("role") == "option" and e.get_attribute("data-code"))
    for _ in range(14):
        card = driver.switch_to.active_element
        code = card.get_attribute("data-code")
        card.send_keys(Keys.SPACE)
        person.wait("the check", lambda d: person.text("#play-selected") != "Checking…")
        if person.find("#play-selected").is_enabled():
            label = person.text("#play-selected")
            version = person.find("#legal").get_attribute("data-version")
            driver.switch_to.active_element.send_keys(Keys.ENTER)
            person._moved(version)
            return f"{code}: {label}"
        driver.switch_to.active_element.send_keys(Keys.SPACE)  # put back: the next card
        driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    return ""


async def bo_opens_a_table(server) -> None:
    bo = await server.bot("Bo")
    bo.send("/join")
    await bo.message("JOINED", nick="Bo")


@pytest.mark.skipif(AXE_MISSING is not None, reason=AXE_MISSING or "")
@pytest_twisted.ensureDeferred
async def test_a_game_by_keyboard_and_no_serious_accessibility_violation():
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.0) as server:
        await bo_opens_a_table(server)
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(keyboard_game, url).addTimeout(3 * GAME_TIMEOUT + 20 * STEP_TIMEOUT,
                                                                           reactor())
    assert seen["audits"] == {"lobby": [], "table": [], "exchange": [], "lead": [], "review": []}, seen["audits"]
    assert seen["grand"] and seen["to_hand"] and seen["to_send"]
    assert seen["focus"] == {"button": "solid", "card": "solid"}  # the focus ring shows
    assert len(seen["placed"]) == 3 and all(" of " in label or label.startswith("To ") for label in seen["placed"])
    assert not any(label.endswith("empty place") for label in seen["placed"])
    assert seen["lead"] and ": Play: " in seen["lead"], seen["lead"]
    assert seen["steps"][0].startswith("Round 1 of 1, step 1 of ") and seen["steps"][1].startswith("Round 1 of 1, step 2")
    assert seen["hands"] == 4
    assert seen["console"] == []
