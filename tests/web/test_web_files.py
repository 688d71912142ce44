"""The web page's files: what they may contain (the page works under the Site's Content
Security Policy, loads nothing from elsewhere, keeps no secret), and how the WebSocket
listener serves them (content types, the CSP header), without a browser."""

from __future__ import annotations

import configparser
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest_twisted
from twisted.web.client import Agent, readBody

from bswtichu.config import Listener
from bswtichu.net.websocket import PAGE_COMMANDS
from bswtichu.realm import SECOND_HAND_WORDS, SECRET_COMMANDS

from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, TIMEOUT, RunningServer, reactor

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bswtichu" / "web" / "static"
MODULES = sorted((STATIC / "js").glob("*.js"))
CONTENT_TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}


class PageParts(HTMLParser):
    """What index.html holds that a CSP without 'unsafe-inline' would refuse, and what it loads."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []  # inline scripts, style elements, style and on* attributes
        self.loads: list[str] = []  # src and href values
        self.ids: set[str] = set()
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "style":
            self.inline.append("<style>")
        if tag == "script":
            self.in_script = True
            if "src" not in named:
                self.inline.append("<script> without src")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.inline.append(f"{tag} {name}={value!r}")
            if name in ("src", "href") and value is not None:
                self.loads.append(value)
            if name == "id" and value:
                self.ids.add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.inline.append("script text")


def page() -> PageParts:
    parts = PageParts()
    parts.feed((STATIC / "index.html").read_text("utf-8"))
    return parts


def test_the_page_has_no_inline_script_or_style_and_loads_only_its_own_files():
    parts = page()
    assert parts.inline == []
    own = [load for load in parts.loads if not load.startswith("#")]
    assert own and all(not re.match(r"[a-z]+:|//", load) for load in own)  # no CDN, no other host
    for load in own:
        assert (STATIC / load).is_file(), load


def test_the_modules_import_only_each_other_and_touch_no_storage_or_html():
    names = {module.name for module in MODULES}
    assert "main.js" in names
    for module in MODULES:
        text = module.read_text("utf-8")
        for imported in re.findall(r'^import .* from "\./([\w.]+)";$', text, re.M):
            assert imported in names, f"{module.name} imports {imported}"
        assert not re.search(r'from "(?!\./)', text), f"{module.name} imports from elsewhere"
        for banned in ("localStorage", "sessionStorage", "document.cookie", "innerHTML", "outerHTML",
                       "insertAdjacentHTML", "eval(", "new Function", ".style.", 'setAttribute("style"'):
            assert banned not in text, f"{module.name} uses {banned}"
        # an address is only ever the page's own host (the TLS twin's link); SVG's namespace
        # is a name, never loaded
        assert not re.search(r"(wss?|https?):?//(?!\$\{(window\.location|place)\.|www\.w3\.org/2000/svg\")", text), \
            module.name


def test_every_element_the_scripts_look_up_is_in_the_page():
    ids = page().ids
    looked_up = set()
    for module in MODULES:
        looked_up |= set(re.findall(r'(?:byId|on|show)\("([\w-]+)"', module.read_text("utf-8")))
    assert looked_up and looked_up <= ids, sorted(looked_up - ids)


def test_every_file_of_the_page_is_package_data():
    """An installed server (not this checkout) serves the page only if setup.cfg ships each file."""
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    patterns = [pattern.strip() for pattern in setup["options.package_data"]["bswtichu"].split(",")]
    package = ROOT / "bswtichu"
    files = [path.relative_to(package).as_posix() for path in STATIC.rglob("*") if path.is_file()]
    assert files and [name for name in files if not any(glob_match(name, pattern) for pattern in patterns)] == []


def glob_match(name: str, pattern: str) -> bool:
    """setuptools' glob: ``*`` within one folder, ``**/`` any depth of folders."""
    parts = re.split(r"(\*\*/|\*)", pattern)
    regex = "".join({"**/": "(?:.*/)?", "*": "[^/]*"}.get(part, re.escape(part)) for part in parts)
    return re.fullmatch(regex, name) is not None


@pytest_twisted.ensureDeferred
async def test_the_listener_serves_each_file_with_its_type_and_the_csp():
    files = ["", "tichu.css", "favicon.svg"] + [f"js/{module.name}" for module in MODULES]
    async with RunningServer(listeners=LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)) as server:
        base = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        agent = Agent(reactor())
        for name in files:
            response = await agent.request(b"GET", (base + name).encode()).addTimeout(TIMEOUT, reactor())
            body = await readBody(response).addTimeout(TIMEOUT, reactor())
            path = STATIC / (name or "index.html")
            assert response.code == 200, name
            assert body == path.read_bytes(), name
            content_type = response.headers.getRawHeaders(b"content-type")[0].decode()
            assert content_type.split(";")[0].strip() == CONTENT_TYPES[path.suffix], name
            policy = response.headers.getRawHeaders(b"content-security-policy")[0].decode()
            directives = dict((part.split(" ", 1) + [""])[:2] for part in
                              (piece.strip() for piece in policy.split(";")) if part)
            assert directives["default-src"] == "'self'", policy
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy
            assert response.headers.getRawHeaders(b"x-content-type-options") == [b"nosniff"], name


@pytest_twisted.ensureDeferred
async def test_the_listener_serves_the_command_words_the_page_reads():
    """main.js reads commands.json as it starts: the server's own lists, as JSON."""
    async with RunningServer(listeners=LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)) as server:
        address = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/commands.json"
        response = await Agent(reactor()).request(b"GET", address.encode()).addTimeout(TIMEOUT, reactor())
        body = await readBody(response).addTimeout(TIMEOUT, reactor())
    assert response.code == 200
    assert response.headers.getRawHeaders(b"content-type") == [b"application/json"]
    assert response.headers.getRawHeaders(b"x-content-type-options") == [b"nosniff"]
    assert json.loads(body) == PAGE_COMMANDS
    assert set(PAGE_COMMANDS["secret"]) == SECRET_COMMANDS and tuple(PAGE_COMMANDS["second_hand"]) == SECOND_HAND_WORDS
