"""Same seeds, same outputs: the command line's output for a few fixed runs is
held to golden files in ``tests/data/golden/``, so that moving code around
cannot change a game, a summary or a solution unnoticed.

Each command runs in a fresh interpreter (``python -m cardtable``) with
``CARDTABLE_DATA`` in the test's ``tmp_path`` (no real data folder is read or
written) and one worker unless a test says otherwise. The golden text is the
command's standard output, then its standard error after a ``--- stderr ---``
line when there is any. Only what differs from run to run is normalized, and
each test says what: timings (seconds, rates), dates and temporary paths.

The goldens were recorded before the re-layout of issue 24. To record them
again after a change that is meant to change outputs (and only then), run::

    CARDTABLE_RECORD_GOLDEN=1 pytest tests/test_same_outputs.py

and review the difference in ``git diff tests/data/golden``. Without that
variable a test fails when its output differs from its golden file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "data" / "golden"
RECORDING = os.environ.get("CARDTABLE_RECORD_GOLDEN") == "1"

Normalize = Callable[[str], str]


def _cardtable(tmp_path: Path, *args: str) -> str:
    """``cardtable ARGS`` in a new interpreter with its data folder in ``tmp_path``: stdout, then stderr."""
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8"}
    env.pop("CARDTABLE_DEBUG", None)
    result = subprocess.run([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=env, capture_output=True,
                            text=True, encoding="utf-8", timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout + (f"--- stderr ---\n{result.stderr}" if result.stderr else "")


def _matches_golden(name: str, text: str) -> None:
    """The output equals the golden file ``name`` (or is recorded as it, with CARDTABLE_RECORD_GOLDEN=1)."""
    path = GOLDEN / name
    if RECORDING:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: record it with CARDTABLE_RECORD_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def _json_numbers(*keys: str) -> Normalize:
    """Replace the number after each ``"key":`` (pretty-printed or not) by ``<key>``."""
    pattern = re.compile(r'"(' + "|".join(map(re.escape, keys)) + r')": -?[0-9][0-9.e+-]*')
    return lambda text: pattern.sub(lambda match: f'"{match[1]}": "<{match[1]}>"', text)


def _lines(prefix: str) -> Normalize:
    """Replace every number on the lines that start with ``prefix`` (after spaces) by ``N``."""
    pattern = re.compile(r"^([ \t]*" + re.escape(prefix) + r".*)$", re.MULTILINE)
    return lambda text: pattern.sub(lambda match: re.sub(r"[0-9][0-9.,]*", "N", match[1]), text)


_DATES = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def _dates(text: str) -> str:
    return _DATES.sub("YYYY-MM-DD hh:mm:ss", text)


def test_simulate_prints_the_same_records_and_summary(tmp_path: Path) -> None:
    """The default (priority on seed-002), records of two games. Normalized: the throughput line."""
    out = _cardtable(tmp_path, "simulate", "--games", "20", "--seed", "5", "--record", "2", "--workers", "1",
                     "--no-progress")
    _matches_golden("simulate_priority.txt", _lines("throughput")(out))


SIMULATIONS = {
    "greedy_draw1": ("--strategy", "greedy", "--variant", "draw1", "--games", "12", "--seed", "9"),
    "turns_seed000": ("--strategy", "turns", "--variant", "seed-000", "--games", "12", "--seed", "9"),
    "expert_seed001": ("--strategy", "expert samples=8 states=2000", "--variant", "seed-001", "--games", "3",
                       "--seed", "2"),
}


@pytest.mark.parametrize("name", SIMULATIONS)
def test_simulate_plays_the_same_games(tmp_path: Path, name: str) -> None:
    """The JSON summary and every game's moves (--output). Normalized: "seconds" and "games_per_second"."""
    out = _cardtable(tmp_path, "simulate", *SIMULATIONS[name], "--json", "--record", "0", "--workers", "1",
                     "--no-progress", "--no-store", "--output", "games.jsonl")
    _matches_golden(f"simulate_{name}.json", _json_numbers("seconds", "games_per_second")(out))
    _matches_golden(f"simulate_{name}.jsonl", (tmp_path / "games.jsonl").read_text(encoding="utf-8"))


def test_simulate_on_two_processes_plays_the_same_games(tmp_path: Path) -> None:
    """Two worker processes give what one gives (the same golden files). Normalized: as above."""
    out = _cardtable(tmp_path, "simulate", *SIMULATIONS["greedy_draw1"], "--json", "--record", "0", "--workers", "2",
                     "--no-progress", "--no-store", "--output", "games.jsonl")
    _matches_golden("simulate_greedy_draw1.json", _json_numbers("seconds", "games_per_second")(out))
    _matches_golden("simulate_greedy_draw1.jsonl", (tmp_path / "games.jsonl").read_text(encoding="utf-8"))


@pytest.mark.parametrize("seed", ["1", "3", "4"])
def test_solve_gives_the_same_answer(tmp_path: Path, seed: str) -> None:
    """Seeds 1, 3 and 4 of seed-000 under a state budget: unknown, won, unwinnable. Normalized: "seconds"."""
    out = _cardtable(tmp_path, "solve", "--seed", seed, "--variant", "seed-000", "--max-states", "20000", "--json")
    _matches_golden(f"solve_seed000_{seed}.json", _json_numbers("seconds")(out))


def test_solve_prints_the_same_solution(tmp_path: Path) -> None:
    """The text answer for seed 3 of draw1. Normalized: the seconds on the first line."""
    out = _cardtable(tmp_path, "solve", "--seed", "3", "--max-states", "20000")
    _matches_golden("solve_draw1_3.txt", re.sub(r"states, [0-9.]+ s,", "states, N s,", out))


def test_a_batch_solve_gives_the_same_answers(tmp_path: Path) -> None:
    """A batch kept in the store, then the store's account of it. Normalized: "seconds", the time per
    deal, dates and the deals file's path."""
    (tmp_path / "deals.txt").write_text("1\n3\n4\n6\n")
    out = _cardtable(tmp_path, "solve", "--deals", "deals.txt", "--variant", "seed-000", "--max-states", "20000",
                     "--workers", "1", "--no-progress")
    out += _cardtable(tmp_path, "runs", "show", "1")
    out = _dates(_lines("time per deal")(_json_numbers("seconds")(out)))
    _matches_golden("solve_batch_seed000.txt", out.replace(str(tmp_path), "TMP"))


def test_a_kings_corner_match_plays_the_same_hands(tmp_path: Path) -> None:
    """Text, then JSON. Normalized: the hands per second on the first line, and "seconds"."""
    players = ("--players", "expert,greedy,strategic", "--games", "6", "--seed", "3", "--workers", "1", "--quiet")
    out = _cardtable(tmp_path, "kings-corner", "match", *players, "--no-store")
    out = re.sub(r"\([0-9.]+ hands/s\)", "(N hands/s)", out)
    out += _json_numbers("seconds")(_cardtable(tmp_path, "kings-corner", "match", *players, "--no-store", "--json"))
    _matches_golden("kings_corner_match.txt", out)


def test_stored_runs_read_back_the_same(tmp_path: Path) -> None:
    """A simulation and a match kept in the store, then listed and shown. Normalized: throughputs and dates."""
    _cardtable(tmp_path, "simulate", *SIMULATIONS["turns_seed000"], "--record", "0", "--workers", "1",
               "--no-progress")
    _cardtable(tmp_path, "kings-corner", "match", "--players", "greedy,random", "--games", "4", "--seed", "1",
               "--workers", "1", "--quiet")
    out = "".join(_cardtable(tmp_path, "runs", *args) for args in (["list"], ["show", "1"], ["show", "2"]))
    _matches_golden("runs.txt", _dates(_lines("throughput")(out)))


def test_a_winnability_study_finds_the_same_deals(tmp_path: Path) -> None:
    """Six deals solved, then asked again (from the store, as JSON), then shown. Normalized: the seconds per
    deal and the wall time, their JSON fields, and the date of the last run."""
    study = ("--deals", "6", "--max-states", "20000", "--store", "s.sqlite")
    out = _cardtable(tmp_path, "study", "winnability", *study, "--no-progress")
    out += _cardtable(tmp_path, "study", "winnability", *study, "--no-progress", "--json")
    out += _cardtable(tmp_path, "study", "show", "--store", "s.sqlite")
    out = _lines("seconds per deal")(out)
    out = re.sub(r"wall time [0-9.]+ s", "wall time N s", out)
    out = _json_numbers("mean_seconds", "median_seconds", "p90_seconds", "wall_seconds")(out)
    _matches_golden("study_winnability.txt", _dates(out))
