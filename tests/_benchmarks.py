"""Loading the scripts of ``benchmarks/`` in tests: through the ``load_benchmark``
fixture (``tests/conftest.py``), or at import time by a test module whose
parametrize lists come from a script."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as the module ``NAME``, with ``benchmarks/`` on the
    path while it loads (the scripts import their siblings ``_report`` and
    ``_peers``) and the module in :data:`sys.modules` (its dataclasses look it up).
    The path is put back as it was, whatever the script added to it: a
    ``benchmarks/`` left on it would shadow test modules (``benchmarks/web.py``
    before the ``web`` folder of the tests)."""
    before = list(sys.path)
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path[:] = before


def table_rows(out: str) -> dict[str, list[str]]:
    """The rows of the Markdown table a benchmark printed, by their first cell
    (a game's name): the cells after it; the table's head and rule left out."""
    return {cells[0]: cells[1:] for line in out.splitlines() if line.startswith("| ") and not line.startswith("| game")
            for cells in [[cell.strip() for cell in line.strip("|").split("|")]]}
