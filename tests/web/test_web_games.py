"""Whole games at the web page's card table, one of each variant at a desktop's window (1366 ×
768) and at a phone's screen (390 × 844), in a real headless Chromium (Debian packages chromium
and chromium-driver, driven by Selenium) against a real server with the WebSocket listener.

The person opens a table with the lobby's form (the variant, ``round 1``, bots of the cheapest
level in the free seats), starts, and plays to "Game over" as a person does: the cards of a play
clicked in the hand, then the Play button (which names the combination the server's check gives);
the exchange's cards put on its places; the few other moves by their buttons; the Bomb button
when it shows up. In the 4-player game Ann sits down at a table that Bo (a program on the line
port) opened with two bots; the deal's seed gives her four sixes, and Bo, at his first turn to
follow, waits (the round waits for a person) until her page has offered its Bomb button out of
turn and she has bombed: no timing decides whether the bomb comes. A second
hand (Trichu's dummy, Duo's) is played the same way. Checked on the way: at each lead no more
than 15 buttons on the page, the hand within the window (no sideways scrolling) and the table
with the hand on one screen, every card named for a screen reader. Screenshots of the deal, the
exchange, a lead, a bomb and the end go to ``screenshots/web/`` (BSWTICHU_SCREENSHOTS elsewhere),
named VARIANT-WIDTHxHEIGHT-MOMENT.png. Also: a spectator's view of a game, from the lobby's
"Watch", on a phone's screen.
"""

from __future__ import annotations

import json
import re

import pytest
import pytest_twisted
from twisted.internet import defer, threads

from bswtichu.config import Listener

from browser_player import DESKTOP, MISSING, PHONE, STEP_TIMEOUT, PagePlayer, open_table, start_browser
from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor
from test_net_tintin import unexplained_errors

GAME_TIMEOUT = 240
#: rounds and bots of each variant's short game (Trichu: a multiple of 3 rounds, each person deals once)
GAMES = {"nanjing": ("1", 3), "tientsin": ("1", 5), "trichu": ("3", 2), "duo": ("1", 1)}
#: a seed whose first deal gives seat 2 (the person, who sits down at Bo's table) four sixes
SEED_WITH_A_BOMB = 27
CARD_WORDS = re.compile(r"(10|[2-9]|Jack|Queen|King|Ace) of (Jade|Sword|Pagoda|Star)|Mahjong|Dog|Phoenix"
                        r"|Phoenix as (10|[2-9JQKA])|Dragon")
MAX_BUTTONS = 15


def card_names(driver) -> list[tuple[str, str | None]]:
    """Every drawn card on the page: its code and its accessible name (its aria-label)."""
    return [tuple(pair) for pair in driver.execute_script(
        "return [...document.querySelectorAll('.card')].filter((c) => c.getClientRects().length)"
        ".map((c) => [c.dataset.code, c.getAttribute('aria-label')])")]


def play_a_game(url: str, variant: str, size: tuple[int, int]) -> dict:
    """Ann opens a table of ``variant`` (the 4-player game: sits down at Bo's) and plays its
    short game by clicking; what the page showed."""
    driver = start_browser(*size)
    try:
        person = PagePlayer(driver, shots=f"{variant}-{size[0]}x{size[1]}")
        person.open(url)
        person.log_in("Ann")
        rounds, _ = GAMES[variant]
        if variant == "nanjing":
            person.wait("Bo's table", lambda d: person.all("#tables button[data-key='sit-1']"))
            person.find("#tables button[data-key='sit-1']").click()
            person.wait("every seat taken", lambda d: person.shown("#table") and len(person.seats()) == 4
                        and not any("(free)" in seat for seat in person.seats()))
        else:
            open_table(person, variant, rounds)
        seats = driver.execute_script(
            "return [...document.querySelectorAll('#seats .seat .facts')].map((facts) => facts.textContent)")
        person.click("#start")
        person.wait("the deal", lambda d: person.all("#hand [role=option]"))
        names = card_names(driver)
        over = person.play_to_the_end(GAME_TIMEOUT)
        names += card_names(driver)
        return {"seats": seats, "over": over, "score": person.text("#score"), "console": person.console_errors(),
                "log": person.log_text(), "player": person, "names": names}
    finally:
        driver.quit()


async def bo_plays(bo, bomb_awaited: bool = False, watcher: str | None = None) -> None:
    """Bo, on the line port, makes the first move of each LEGAL pushed to him until the game ends;
    ``bomb_awaited``: at his first turn to follow he waits until Ann (seat 2) has bombed out of
    turn (the round waits for a person: time for her page to offer its Bomb button); ``watcher``:
    before his first move he waits until that spectator watches."""
    while True:
        line = await bo.wait_for(lambda line: line.startswith(("LEGAL ", "GAME_OVER ")), GAME_TIMEOUT)
        if line.startswith("GAME_OVER "):
            return
        if watcher is not None:
            await bo.wait_for(lambda line: line.startswith("SPECTATOR_JOINED ") and f'"nick":"{watcher}"' in line,
                              3 * STEP_TIMEOUT)
            watcher = None
        commands = json.loads(line.partition(" ")[2])["commands"]
        if bomb_awaited and "/pass" in commands:
            bomb_awaited = False
            await bo.wait_for(lambda line: line.startswith("PLAYED ") and '"out_of_turn":true' in line
                              and '"seat":2' in line, STEP_TIMEOUT)
            continue  # the bomb lies on the table now: the next LEGAL says what Bo may do
        if commands:
            bo.send(commands[0])


async def bos_table(server):
    """Bo opens table 1 (seat 1), `round 1`, seats two bots; Ann takes seat 2 from the lobby."""
    bo = await server.bot("Bo")
    for line in ("/join", "/round 1", "/bot 3 random", "/bot 4 random", "/legal push on"):
        bo.send(line)
    await bo.message("JOINED", seat=4)
    return defer.ensureDeferred(bo_plays(bo, bomb_awaited=True))


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("variant", list(GAMES))
@pytest_twisted.ensureDeferred
async def test_a_whole_game_by_clicking_cards(tmp_path, variant, size):
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.0, log_folder=str(tmp_path / "logs")) as server:
        server.service.games.seeds = lambda: SEED_WITH_A_BOMB
        bo = await bos_table(server) if variant == "nanjing" else None
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(play_a_game, url, variant, size).addTimeout(
            GAME_TIMEOUT + 10 * STEP_TIMEOUT, reactor())
        if bo is not None:
            await bo.addTimeout(STEP_TIMEOUT, reactor())
    person = seen["player"]
    assert seen["over"].startswith("Game over") and seen["console"] == []
    assert unexplained_errors(seen["log"].splitlines()) == []
    assert person.plays >= 1 and person.cards_clicked >= person.plays  # every play made of clicked cards
    assert all(label.startswith(("Play: ", "Bomb: ")) for label in person.labels), person.labels
    assert person.lead_buttons and max(person.lead_buttons) <= MAX_BUTTONS, person.lead_buttons
    width, height = size
    for fit in person.fits:  # the whole hand in the window, the table and the hand on one screen
        assert fit["window"] == [width, height], fit
        assert 0 <= fit["left"] and fit["right"] <= width and fit["height"] <= height, fit
    assert all(scroll <= client for scroll, client in person.overflow), person.overflow
    assert seen["names"] and all(CARD_WORDS.fullmatch(name or "") for _, name in seen["names"]), seen["names"]
    assert {"deal", "exchange", "lead", "end"} <= set(person.saved), person.saved
    assert all(path.stat().st_size > 0 for path in person.saved.values())
    rounds = GAMES[variant][0]
    assert re.match(rf"Score after {rounds} of {rounds} rounds: ", seen["score"]), seen["score"]
    if variant == "nanjing":  # Ann was dealt four sixes: the Bomb button showed up and she bombed
        assert person.bombs >= 1 and "bomb" in person.saved
    if variant == "tientsin":  # round the table from Ann's seat, to the right
        assert seen["seats"] == ["you", "right opponent · random bot", "partner · random bot",
                                 "opponent opposite · random bot", "partner · random bot",
                                 "left opponent · random bot"], seen["seats"]
    if variant in ("trichu", "duo"):  # the second hand played by its own cards and buttons
        word = "dummy" if variant == "trichu" else "second"
        assert person.second_moves and all(move.startswith(f"/{word} ") for move in person.second_moves), \
            person.second_moves
        assert person.second_exchanges


def watch_a_game(url: str) -> dict:
    """Wes watches table 1 from the lobby's "Watch" button until its game is over."""
    driver = start_browser(*PHONE)
    try:
        person = PagePlayer(driver, shots="watching-390x844")
        person.open(url)
        person.log_in("Wes")
        person.wait("table 1 in the lobby", lambda d: "Table 1" in person.text("#tables"))
        person.find("#tables button[data-key='watch-1']").click()
        person.wait("a play on the table", lambda d: person.shown("#table") and person.all("#trick .play"))
        person.shot("trick")
        seen = {"title": person.text("#table-title"), "hand": person.shown("#play"),
                "seats": len(person.all("#seats .seat")), "names": card_names(driver), "widths": person.widths()}
        person.wait("the end", lambda d: person.shown("#game-over-box"), GAME_TIMEOUT)
        seen["over"] = person.text("#game-over")
        seen["console"] = person.console_errors()
        return seen
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_a_spectator_sees_the_table_and_no_hand(tmp_path):
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.3, log_folder=str(tmp_path / "logs")) as server:
        bo = await server.bot("Bo")
        for line in ("/join", "/round 1", "/bot random", "/bot random", "/bot random", "/legal push on", "/start"):
            bo.send(line)
        await bo.message("STARTED")
        playing = defer.ensureDeferred(bo_plays(bo, watcher="Wes"))
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(watch_a_game, url).addTimeout(GAME_TIMEOUT + 10 * STEP_TIMEOUT, reactor())
        await playing.addTimeout(STEP_TIMEOUT, reactor())
    assert seen["title"] == "Table 1 · Tichu (watching)" and not seen["hand"] and seen["seats"] == 4
    assert seen["names"] and all(CARD_WORDS.fullmatch(name or "") for _, name in seen["names"])
    assert seen["widths"][0] <= seen["widths"][1]
    assert seen["over"].startswith("Game over") and seen["console"] == []
