"""Checks setup.cfg's import contracts on bswtichu's import graph with imports added to it.

    python tests/contract_check.py < cases.json

reads a JSON list of cases, each ``{"imports": [[importer, imported], ...], "modules": [...]}``,
adds them to the graph as lint-imports builds it, and prints a JSON list: per case, the
names of the contracts it breaks (the case ``{}`` is the code as it is).

tests/test_layers.py runs it in a process of its own: once the server is loaded,
zope.interface has declared interfaces on ``abc.ABC`` and import-linter can no longer
build its contracts, which are ABCs (``AttributeError: __provides__``).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import grimp
from importlinter import api
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract

CONFIG = Path(__file__).resolve().parents[1] / "setup.cfg"
CONTRACT_TYPES = {"layers": LayersContract, "forbidden": ForbiddenContract}


def broken_contracts(cases: list[dict]) -> list[list[str]]:
    configuration = api.read_configuration(str(CONFIG))
    session = configuration["session_options"]
    contracts = [CONTRACT_TYPES[options["type"]](name=options["name"], session_options=session,
                                                 contract_options=options)
                 for options in configuration["contracts_options"]]
    graph = grimp.build_graph(
        *session["root_packages"],
        include_external_packages=session.get("include_external_packages") in ("True", "true"),
        cache_dir=None)
    results = []
    for case in cases:
        changed = copy.deepcopy(graph)
        for module in case.get("modules", ()):
            changed.add_module(module)
        for importer, imported in case.get("imports", ()):
            changed.add_import(importer=importer, imported=imported, line_number=1,
                               line_contents=f"import {imported}")
        results.append([contract.name for contract in contracts
                        if not contract.check(copy.deepcopy(changed), verbose=False).kept])
    return results


if __name__ == "__main__":
    json.dump(broken_contracts(json.load(sys.stdin)), sys.stdout)
