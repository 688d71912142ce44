"""The layer contract (setup.cfg's ``[importlinter]``) holds, and no two modules import each other.

The contracts are checked here as ``lint-imports`` checks them (.ci/run), so ``python -m
pytest`` alone catches a wrong import; ``lint-imports`` prints the full report. Imports
under ``if TYPE_CHECKING:`` count, in the contracts and in the cycles: annotations that
name another module's types depend on that module.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import bswtichu
from bswtichu import realm
from bswtichu.net.lines import LineConnection
from bswtichu.server import session
from bswtichu.server.lobby import Lobby

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
PACKAGE = "bswtichu"
#: a check that cannot finish is a failure, not a hang
TIMEOUT = 120

LAYERS = "Each layer imports only from the layers below it"
NET_APART = "The ports know the domain only through the contract in realm.py"
IRC_APART = "The IRC bridge, a separate program, shares only realm.py, names.py and the settings with the server"
PURE_ENGINE = "The engine is pure: no Twisted"
STORAGE_APART = "Storage keeps games without the game layer: it imports nothing from play"
SERVER_PARTS = "Inside the domain each part imports only from the parts below it"

#: Cycles allowed for now (none): a fix that removes one deletes its entry (the test below says so).
ALLOWED_CYCLES: tuple[frozenset[str], ...] = ()

#: (what is added to the import graph, the contracts that must then break)
WRONG = [
    # the lobby uses Twisted, and the tables, which import the engine, would reach the lobby through it;
    # storage (which reads the engine's cards) would reach the game layer through the lobby's events
    ({"imports": [["bswtichu.engine.cards", "bswtichu.server.lobby"]]},
     [LAYERS, STORAGE_APART, PURE_ENGINE, SERVER_PARTS]),
    ({"imports": [["bswtichu.bots.base", "bswtichu.play.headless"]]}, [LAYERS]),
    ({"imports": [["bswtichu.irc.bridge", "bswtichu.net.lines"]]}, [LAYERS]),  # net and irc: apart
    ({"modules": ["bswtichu.metrics"]}, [LAYERS]),  # a module the layers do not place
    ({"imports": [["bswtichu.net.lines", "bswtichu.server.session"]]}, [NET_APART]),
    ({"imports": [["bswtichu.net.telnet", "bswtichu.engine.cards"]]}, [NET_APART]),
    ({"imports": [["bswtichu.irc.text", "bswtichu.server.people.directory"]]}, [IRC_APART]),
    ({"imports": [["bswtichu.counters", "bswtichu.play.driver"]]}, [LAYERS, NET_APART, IRC_APART]),  # both sides read the counters
    ({"imports": [["bswtichu.engine.round", "twisted"]]}, [PURE_ENGINE]),
    ({"imports": [["bswtichu.events.pairing", "twisted"]]}, [PURE_ENGINE]),
    ({"imports": [["bswtichu.events.pairing", "bswtichu.records"]]}, [LAYERS]),  # events and records: apart
    ({"imports": [["bswtichu.storage.games", "bswtichu.play.journal"]]}, [STORAGE_APART]),
    ({"imports": [["bswtichu.server.people.chat", "bswtichu.server.commands.registry"]]}, [SERVER_PARTS]),
    ({"imports": [["bswtichu.server.shutdown", "bswtichu.server.commands.shutdown"]]}, [SERVER_PARTS]),
    ({"imports": [["bswtichu.server.tables.table", "bswtichu.server.commands.common"]]}, [SERVER_PARTS]),
    ({"imports": [["bswtichu.server.games.review", "bswtichu.server.commands.registry"]]}, [SERVER_PARTS]),
    ({"imports": [["bswtichu.server.text.messages", "bswtichu.server.tables.table"]]}, [SERVER_PARTS]),  # text knows no table
    ({"modules": ["bswtichu.server.helpers"]}, [SERVER_PARTS]),  # a part the layers do not place
    # an event's table knows no event: the events run on the tables, not the other way
    ({"imports": [["bswtichu.server.tables.table", "bswtichu.server.events.record"]]}, [SERVER_PARTS]),
]


def test_lint_imports_keeps_every_contract():
    """What .ci/run runs; its report is the failure message."""
    done = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
         "--no-cache", "--no-logo", str(REPO / "setup.cfg")],
        cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 6 kept, 0 broken." in done.stdout


@pytest.fixture(scope="module")
def broken() -> list[list[str]]:
    """The contracts each case of WRONG breaks, after those the code as it is breaks
    (tests/contract_check.py, in a process of its own)."""
    cases = [{}] + [case for case, _ in WRONG]
    done = subprocess.run([sys.executable, str(TESTS / "contract_check.py")], input=json.dumps(cases),
                          cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_code_as_it_is_breaks_no_contract(broken):
    assert broken[0] == []


@pytest.mark.parametrize("number", range(len(WRONG)), ids=[str(case) for case, _ in WRONG])
def test_a_wrong_import_breaks_its_contract(broken, number):
    assert broken[number + 1] == WRONG[number][1]


# -- no import cycles -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def built_graph() -> grimp.ImportGraph:
    return grimp.build_graph(PACKAGE, cache_dir=None)


@pytest.fixture
def graph(built_graph) -> grimp.ImportGraph:
    """A copy a test may change."""
    return copy.deepcopy(built_graph)


def compiled_import(graph: grimp.ImportGraph, importer: str, imported: str) -> bool:
    """Whether ``importer`` imports its own package ``imported`` only to reach a compiled module
    (``from . import _combos_accel``, built from ``_combos_accel.c`` beside it): grimp reads
    Python source alone and records that import as one of the package, its ``__init__``."""
    if not importer.startswith(imported + "."):
        return False
    folder = Path(bswtichu.__file__).parent.parent.joinpath(*imported.split("."))
    for detail in graph.get_import_details(importer=importer, imported=imported):
        found = re.fullmatch(r"from \.+ import (\w+)", detail["line_contents"])
        if found is None or not (folder / f"{found.group(1)}.c").is_file():
            return False
    return True


def module_cycles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The package's modules that reach themselves through imports, one set per strongly
    connected group of at least two (Tarjan's algorithm, without recursion)."""
    modules = sorted(m for m in graph.modules if m == PACKAGE or m.startswith(PACKAGE + "."))
    imports = {m: sorted(i for i in graph.find_modules_directly_imported_by(m)
                         if (i == PACKAGE or i.startswith(PACKAGE + ".")) and not compiled_import(graph, m, i))
               for m in modules}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in modules:
        if root in order:
            continue
        work = [(root, iter(imports[root]))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            for imported in pending:
                if imported not in order:
                    order[imported] = low[imported] = len(order)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, iter(imports[imported])))
                    break
                if imported in on_stack:
                    low[module] = min(low[module], order[imported])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == order[module]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        cycles.append(frozenset(group))
    return cycles


def test_no_two_modules_import_each_other(graph):
    cycles = [sorted(cycle) for cycle in module_cycles(graph) if cycle not in ALLOWED_CYCLES]
    assert cycles == []


def test_every_allowed_cycle_is_still_there(graph):
    gone = [sorted(cycle) for cycle in ALLOWED_CYCLES if cycle not in module_cycles(graph)]
    assert gone == [], "these cycles are gone: delete them from ALLOWED_CYCLES"


def test_the_cycle_finder_finds_a_cycle_through_three_modules(graph):
    ring = ["bswtichu.engine.a", "bswtichu.engine.b", "bswtichu.engine.c"]
    for importer, imported in zip(ring, ring[1:] + ring[:1]):
        graph.add_import(importer=importer, imported=imported)
    assert frozenset(ring) in module_cycles(graph)
    graph.remove_import(importer="bswtichu.engine.c", imported="bswtichu.engine.a")
    assert not any(cycle & set(ring) for cycle in module_cycles(graph))


def test_an_import_of_a_compiled_module_is_no_import_of_its_package(graph):
    assert graph.direct_import_exists(importer="bswtichu.engine.combos", imported="bswtichu.engine")
    assert compiled_import(graph, "bswtichu.engine.combos", "bswtichu.engine")
    assert not compiled_import(graph, "bswtichu.cli", "bswtichu")  # from bswtichu import __version__


# -- the net layer's protocols, as the domain provides them ------------------------------------


def members(protocol: type) -> set[str]:
    """The attributes and methods a Protocol asks for."""
    return {name for name in vars(protocol) if not name.startswith("_")} | set(protocol.__annotations__)


def test_the_session_is_a_client_the_ports_can_talk_to():
    client = session.Session(connection=None)
    assert {name for name in members(realm.Client) if not hasattr(client, name)} == set()


def test_the_lobby_is_a_realm():
    assert {name for name in members(realm.Realm) if not hasattr(Lobby, name)} == set()


def test_a_port_connection_is_what_the_domain_needs_of_one():
    assert {name for name in members(realm.Connection) if not hasattr(LineConnection, name)} == set()
