"""benchmarks/estimate_weights.py: the patience core built with other weights
beside the default, each build's deals counted, and no verdict differing."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("estimate_weights")


def _rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| game")]


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="needs a C compiler")
def test_a_build_with_other_weights_is_counted_beside_the_default(script: ModuleType,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # Spider in four suits, deal 23, 20,000 states: won by the default weights (W_STOCK 4, W_MIXED
    # 12) in 6,367 states; with the weights before them (5 and 5) undecided
    assert script.main(["--variant", "before=-DW_STOCK=5 -DW_MIXED=5", "--games", "spider", "--deals", "23",
                        "--max-states", "20000", "--jobs", "1"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [row[:6] for row in rows] == [["spider", "default", "-", "1", "0", "0"],
                                         ["spider", "before", "-DW_STOCK=5 -DW_MIXED=5", "0", "0", "1"]]
    assert rows[0][6] == "6,367" and rows[1][6] == "20,000"


def _core_as_committed() -> bool:
    """Whether this checkout's patience core is the one its HEAD commit holds."""
    if shutil.which("git") is None:
        return False
    done = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "cardtable/solver/_pcore.c",
                           "cardtable/solver/patience.h"], cwd=Path(__file__).resolve().parent.parent,
                          capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="needs a C compiler")
@pytest.mark.skipif(not _core_as_committed(), reason="the core differs from its HEAD commit (or no git)")
def test_a_build_of_a_commit_is_its_core(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # the core at HEAD, built from git's copy of its sources, is this checkout's: the same states
    # deal for deal as the default build, and the commit named in full
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent.parent,
                            capture_output=True, text=True, check=True).stdout.strip()
    assert script.main(["--variant", "then=@HEAD", "--games", "spider", "--deals", "23",
                        "--max-states", "20000", "--jobs", "1"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [row[:7] for row in rows] == [["spider", "default", "-", "1", "0", "0", "6,367"],
                                         ["spider", "then", f"@{commit}", "1", "0", "0", "6,367"]]


def test_the_jsonl_is_resumed(script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a run given its own lines again solves nothing: a line that could only come from the file
    # (a made-up count of states) is what the table prints
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps({"variant": "default", "flags": "", "game": "scorpion", "deals": [1, 1],
                                "max_states": 10, "verdicts": {"1": "unknown"}, "states": 12345,
                                "cpu": 0.5}) + "\n")
    assert script.main(["--games", "scorpion", "--deals", "1", "--max-states", "10", "--jsonl", str(path)]) == 0
    assert _rows(capsys.readouterr().out) == [["scorpion", "default", "-", "0", "0", "1", "12,345", "0.5", "-"]]


@pytest.mark.parametrize(("argv", "words"), [
    (["--variant", "x=-O2"], "not a -D flag"),
    (["--variant", "=-DW_STOCK=4"], "NAME="),
    (["--deals", "5-2"], "1 <= A <= B"),
    (["--games", "spidr"], "--games"),
    (["--max-states", "0"], "from 1 up"),
    (["--jobs", "0"], "from 1 up"),
    (["--variant", "default=-DW_STOCK=4"], "not 'default'"),
    (["--variant", "a=-DW_STOCK=4", "--variant", "a=-DW_STOCK=3"], "a name of its own"),
    (["--variant", "a=@no-such-revision"], "@no-such-revision names no commit"),
    (["--variant", "a=@HEAD -O2"], "'-O2' is not a -D flag"),
])
def test_bad_options_are_refused(script: ModuleType, capsys: pytest.CaptureFixture[str], argv: list[str],
                                 words: str) -> None:
    with pytest.raises(SystemExit) as stop:
        script.main(argv)
    assert stop.value.code == 2 and words in capsys.readouterr().err


def test_a_build_that_fails_says_why(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--variant", "bad=-DW_STOCK=", "--games", "scorpion", "--deals", "1"]) == 2
    assert "building with -DW_STOCK= failed" in capsys.readouterr().err


def test_a_jsonl_line_of_another_kind_is_named(script: ModuleType, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text('{"variant": "default", "game": "scorpion"}\n')
    assert script.main(["--games", "scorpion", "--deals", "1", "--jsonl", str(path)]) == 2
    assert f"{path}, line 1: no field 'flags'" in capsys.readouterr().err
