"""benchmarks/solver_per_state.py: the main search timed alone, and two builds
of the core compared on the same deals (here the same build twice, loaded
under a second name, so the two must search alike)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.solver import _ccore

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "solver_per_state.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("solver_per_state", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_reports_the_states_and_the_cost_of_a_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script().main(["--deals", "4", "--draw", "1", "--max-states", "3000"]) == 0
    out = capsys.readouterr().out
    assert "draw 1, seeds 6,000,000 to 6,000,003, up to 3,000 states a deal" in out
    assert "µs a state" in out and "ratio" not in out


def test_a_second_build_runs_on_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    core = Path(_ccore.__file__)
    assert _script().main(["--deals", "3", "--max-states", "2000", "--rounds", "2", "--against", str(core)]) == 0
    out = capsys.readouterr().out
    assert out.count("µs a state") == 2
    ratio = float(out.rsplit("ratio", 1)[1].split(":")[1])
    assert 0 < ratio < 10


@pytest.mark.parametrize(("args", "words"), [
    (["--deals", "0"], "--deals must be at least 1, not 0"),
    (["--rounds", "0"], "--rounds must be at least 1, not 0"),
    (["--against", "/no/such/core.so"], "--against: no such file: /no/such/core.so"),
])
def test_bad_options_are_refused_before_any_work(args: list[str], words: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        _script().main(args)
    assert stopped.value.code == 2
    assert words in capsys.readouterr().err


def test_a_file_that_is_not_a_core_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "_ccore.cpython-311-x86_64-linux-gnu.so"
    bogus.write_bytes(b"not a shared object")
    with pytest.raises(SystemExit) as stopped:
        _script().main(["--deals", "1", "--against", str(bogus)])
    assert stopped.value.code == 2
    assert "cannot load" in capsys.readouterr().err
