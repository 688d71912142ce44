"""The web page in a real headless Chromium (Debian packages chromium and chromium-driver, driven
by Selenium) against a real server with the WebSocket listener: the page over https: and wss:, a
registered name's password (asked for hidden, never shown or kept), the warning for a password
sent unencrypted. Whole games at the card table are test_web_games.py, the five bugs of issue 34
test_web_bugs.py, the accessibility audit test_web_access.py.
"""

from __future__ import annotations

import socket

import pytest
import pytest_twisted
from twisted.internet import threads

from bswtichu.config import Listener

from browser_player import MISSING, STEP_TIMEOUT, PagePlayer, start_browser
from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor
from test_net_tls import self_signed


def log_in_over_tls(url: str, certificate_pem: bytes) -> dict:
    """Open the page over https: and log in; what it showed."""
    driver = start_browser(trusted_pem=certificate_pem)
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        return {"whoami": person.text("#whoami"), "console": person.console_errors()}
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_the_page_over_https_talks_over_wss(tmp_path):
    options, certificate_pem = self_signed(tmp_path)
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", f"ssl:0:{options}:interface=127.0.0.1"),)
    async with RunningServer(listeners=listeners) as server:
        url = f"https://localhost:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(log_in_over_tls, url, certificate_pem).addTimeout(
            6 * STEP_TIMEOUT, reactor())
    assert seen["whoami"] == "You are Ann."  # an https: page reaches a socket only over wss:
    assert seen["console"] == []


PASSWORD = "geheim-123"


def register_and_log_in_again(url: str) -> dict:
    """Register from the command line, come back: once with the password asked for (the command
    line turns into a password field), once with the login form's password field."""
    from selenium.webdriver.common.keys import Keys

    driver = start_browser()
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        person.command(f"/register {PASSWORD}")
        person.wait("the registration", lambda d: "registered" in person.log_text())
        seen = {}
        for way in ("asked", "form"):
            person.command("/quit")
            person.wait("the connection's end", lambda d: person.shown("#reconnect"))
            person.click("#reconnect")
            person.wait("the login form", lambda d: person.shown("#login") and person.text("#connection") == "Connected.")
            seen.setdefault("kept_name", person.find("#login-name").get_attribute("value"))
            person.find("#login-name").clear()
            person.find("#login-name").send_keys("Ann")
            if way == "form":
                person.find("#login-password").send_keys(PASSWORD)
            person.find("#login-name").send_keys(Keys.ENTER)
            if way == "asked":
                person.wait("the password asked for", lambda d: person.find("#command-line").get_attribute("type")
                            == "password")
                seen["focused"] = driver.switch_to.active_element.get_attribute("id")
                driver.switch_to.active_element.send_keys(PASSWORD + Keys.ENTER)
            person.wait("Ann logged in", lambda d: person.text("#whoami") == "You are Ann.")
            seen[way] = person.find("#command-line").get_attribute("type")
        seen["password_field"] = person.find("#login-password").get_attribute("value")
        seen["url"] = driver.current_url
        seen["log"] = person.log_text()
        seen["stored"] = driver.execute_script(
            "return [localStorage.length, sessionStorage.length, document.cookie]")
        return seen
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_a_password_is_asked_for_hidden_and_never_shown_or_kept():
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners) as server:
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(register_and_log_in_again, url).addTimeout(12 * STEP_TIMEOUT, reactor())
    assert seen["kept_name"] == "Ann" and seen["password_field"] == ""  # the name kept, the password not
    assert seen["focused"] == "command-line"
    assert seen["asked"] == seen["form"] == "text"  # a plain command line again once logged in
    assert PASSWORD not in seen["log"] and PASSWORD not in seen["url"] and seen["url"] == url
    assert "> /register ********" in seen["log"]
    assert seen["stored"] == [0, 0, ""]


def outward_address() -> str | None:
    """This machine's address on its default route (not loopback), or None without one. A UDP
    socket's connect only picks the route: nothing is sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: any routable address picks the route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def register_unencrypted(url: str) -> dict:
    driver = start_browser()
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        person.command(f"/register {PASSWORD}")
        person.wait("the warning", lambda d: person.shown("#unencrypted"))
        return {"text": person.text("#unencrypted"),
                "link": person.find("#unencrypted a").get_attribute("href")}
    finally:
        driver.quit()


OUTWARD = outward_address()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.skipif(OUTWARD is None, reason="needs an address that is not loopback (a default route)")
@pytest_twisted.ensureDeferred
async def test_a_password_over_plain_http_from_another_address_is_warned_of(tmp_path):
    """The page reached at this machine's outward address (so the server sees a peer that is
    not loopback) over http:, with a TLS twin of the listener: the server's UNENCRYPTED shows
    at the top with a link to the page over https:."""
    options, _ = self_signed(tmp_path)
    # the warning names the TLS port as configured: a fixed one (port 0 would be named 0)
    with socket.socket() as spare:
        spare.bind((OUTWARD, 0))
        tls = spare.getsockname()[1]
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", f"tcp:0:interface={OUTWARD}"),
                                      Listener("websocket", f"ssl:{tls}:{options}:interface={OUTWARD}"))
    async with RunningServer(listeners=listeners) as server:
        plain = server.ports["websocket"].getHost().port
        seen = await threads.deferToThread(register_unencrypted, f"http://{OUTWARD}:{plain}/").addTimeout(
            6 * STEP_TIMEOUT, reactor())
    assert seen["text"].startswith("Your password went over an unencrypted connection.")
    assert seen["link"] == f"https://{OUTWARD}:{tls}/"
