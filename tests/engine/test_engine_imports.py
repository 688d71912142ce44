"""The engine's modules import each other without a cycle (issue 20).

Every import counts, those under ``if TYPE_CHECKING:`` too: a cycle there is
still a tangle a reader meets, and a layering checker sees it.
"""

import ast
from pathlib import Path

import bswtichu.engine

ENGINE = Path(bswtichu.engine.__file__).parent


def engine_imports(path: Path) -> set[str]:
    """The engine modules that ``path`` imports by a relative import (``from .x import ...``, ``from . import x``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_no_import_cycle_between_engine_modules():
    graph = {p.stem: engine_imports(p) for p in ENGINE.glob("*.py")}
    done, on_path = set(), []

    def visit(module):
        assert module not in on_path, "import cycle: " + " -> ".join(on_path[on_path.index(module):] + [module])
        if module in done or module not in graph:
            return
        on_path.append(module)
        for imported in sorted(graph[module]):
            visit(imported)
        on_path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
