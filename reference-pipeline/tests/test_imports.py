"""refpipe's modules import each other without a cycle.

Every import statement counts, deferred ones (inside a function) too: deferring an import is the usual way a cycle is
hidden, and the modules still depend on each other. Read from the source (ast), so nothing is imported or run.
"""

import ast
import pathlib
import unittest
from typing import Dict, List, Optional, Set

PACKAGE = "refpipe"
PACKAGE_DIR = pathlib.Path(__file__).resolve().parent.parent / PACKAGE


def _imported_modules(path: pathlib.Path, modules: Set[str]) -> Set[str]:
    """The refpipe modules one file imports: `import refpipe.x`, `from refpipe.x import y`, `from refpipe import x`,
    `from . import x`."""
    found: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = PACKAGE + (f".{node.module}" if node.module else "") if node.level else node.module or ""
            # `from refpipe import x` imports the module x when there is one, else a name of the package itself.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == PACKAGE:
                found.add(".".join(parts[:2]))
    return found


def import_graph() -> Dict[str, Set[str]]:
    """Module name -> the refpipe modules it imports (the package's __init__ as `refpipe`)."""
    files = {
        (PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"): path for path in PACKAGE_DIR.glob("*.py")
    }
    return {name: _imported_modules(path, set(files)) - {name} for name, path in files.items()}


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """One import cycle as a path that starts and ends at the same module, or None."""
    done: Set[str] = set()
    path: List[str] = []

    def visit(module: str) -> Optional[List[str]]:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        path.append(module)
        for dependency in sorted(graph.get(module, ())):
            cycle = visit(dependency)
            if cycle:
                return cycle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module)
        if cycle:
            return cycle
    return None


class ImportGraphTest(unittest.TestCase):
    def test_the_graph_is_read(self) -> None:
        # Guards the test below from passing on an empty graph: __main__ imports refpipe.cli.
        self.assertIn("refpipe.cli", import_graph()["refpipe.__main__"])

    def test_finds_a_cycle_when_there_is_one(self) -> None:
        graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
        self.assertEqual(find_cycle(graph), ["a", "b", "c", "a"])
        self.assertIsNone(find_cycle({"a": {"b"}, "b": set()}))

    def test_no_import_cycle(self) -> None:
        cycle = find_cycle(import_graph())
        self.assertIsNone(cycle, f"import cycle: {' -> '.join(cycle or [])}")


if __name__ == "__main__":
    unittest.main()
