"""The tests' loader of benchmark scripts leaves the import path as it found it."""

from __future__ import annotations

import sys

from _benchmarks import BENCHMARKS, load_benchmark


def test_loading_a_script_that_puts_its_folder_on_the_path_leaves_the_path_as_it_was() -> None:
    before = list(sys.path)
    module = load_benchmark("patience_solver")  # it adds benchmarks/ to sys.path itself
    assert module.__file__ is not None and module.__file__.endswith("patience_solver.py")
    assert sys.path == before
    assert str(BENCHMARKS) not in sys.path
