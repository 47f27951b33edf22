"""Limits on what a user can hand a command: endless or huge input files,
state budgets beyond the solver's table, and a few inputs that used to get
the wrong explanation. Each gets one line and exit 2, and no run is kept."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from cli_helpers import run, start
from test_signals import _interrupt, _store_rows, _wait_for

from cardtable._files import MAX_LINE_BYTES, MAX_TEXT_BYTES, read_text
from cardtable.cli._options import MAX_STATES as CLI_MAX_STATES
from cardtable.errors import UsageError
from cardtable.klondike import KlondikeGame, KlondikeRecord, Position, Variant
from cardtable.solver import solve, solve_batch
from cardtable.solver.search import MAX_STATES, SolverError


@pytest.fixture(autouse=True)
def _own_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "data"))


def _one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("args", [
    ("solve", "--deals", "/dev/zero"),
    ("solve", "--file", "/dev/zero"),
    ("hint", "/dev/zero"),
    ("replay", "/dev/zero"),
    ("play", "--file", "/dev/zero"),
    ("kings-corner", "replay", "/dev/zero"),
])
def test_endless_input_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, _, err = run(capsys, *args)
    _one_line_error(code, err, "/dev/zero", "longer than 1 MiB")


def test_a_file_over_the_size_cap_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:  # short lines, too many of them
        handle.truncate(0)
        line = b"x" * 1023 + b"\n"
        handle.write(line * (MAX_TEXT_BYTES // len(line) + 1))
    with pytest.raises(UsageError, match="longer than 64 MiB"):
        read_text(big)


def test_caps_hold_at_their_edges(tmp_path: Path) -> None:
    """A line of exactly the cap reads; one byte more is refused, even split
    across the chunks the reader reads."""
    path = tmp_path / "edge.txt"
    path.write_bytes(b"a\n" + b"y" * MAX_LINE_BYTES + b"\nb\n")
    assert len(read_text(path)) == MAX_LINE_BYTES + 5
    path.write_bytes(b"a\n" + b"y" * (MAX_LINE_BYTES + 1) + b"\n")
    with pytest.raises(UsageError, match="line 2 is longer"):
        read_text(path)


@pytest.mark.parametrize("args", [
    ("solve", "--seed", "1"),
    ("solve", "--deals", "DEALS"),
    ("study", "winnability", "--first-seed", "1", "--deals", "2"),
    ("hint", "--peek", "RECORD"),
])
def test_a_state_budget_beyond_the_table_is_refused_before_any_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "deals.txt").write_text("1\n2\n")
    record = tmp_path / "record.txt"
    record.write_text(str(KlondikeRecord.from_game(KlondikeGame(Position.from_seed(1), Variant()))))
    given = [str(tmp_path / "deals.txt") if a == "DEALS" else str(record) if a == "RECORD" else a for a in args]
    code, _, err = run(capsys, *given, "--max-states", str(10**12))
    assert code == 2, err
    assert "--max-states must be at most 100000000000" in err.splitlines()[-1], err
    assert not (tmp_path / "data" / "results.sqlite").exists()


def test_the_solver_refuses_such_a_budget_in_words() -> None:
    assert CLI_MAX_STATES == MAX_STATES
    for call in (lambda: solve(Position.from_seed(1), Variant(), max_states=MAX_STATES + 1),
                 lambda: solve_batch([("1", Position.from_seed(1))], Variant(), max_states=10**12)):
        with pytest.raises(SolverError, match="at most 100,000,000,000"):
            call()


def test_the_expert_hints_budget_stays_within_the_solvers_cap(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    from cardtable.bots.klondike.expert import _TRIED_FACTOR, MAX_EXPERT_STATES, ExpertPlayer
    from cardtable.bots.klondike.hindsight import MAX_SAMPLE_STATES
    from cardtable.bots.klondike.hint import HINT_STATES

    assert MAX_SAMPLE_STATES == MAX_STATES
    assert HINT_STATES * _TRIED_FACTOR <= MAX_EXPERT_STATES * _TRIED_FACTOR <= MAX_STATES
    with pytest.raises(UsageError, match="at most 25,000,000,000 a guess"):
        ExpertPlayer(max_states=MAX_EXPERT_STATES + 1)
    ExpertPlayer(max_states=MAX_EXPERT_STATES)  # the cap itself is a budget the solver takes
    deal = tmp_path / "deal.txt"
    deal.write_text(Position.from_seed(3).deal_string() + "\n")
    for budget in (MAX_EXPERT_STATES + 1, MAX_STATES):
        code, _, err = run(capsys, "hint", str(deal), "--max-states", str(budget))
        _one_line_error(code, err, f"--max-states {budget:,}: the expert's budget is at most 25,000,000,000 "
                                   "states a guess")
    code, out, err = run(capsys, "hint", str(deal), "--max-states", str(MAX_EXPERT_STATES), "--samples", "2",
                         "--timeout", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["hint"] == "expert"
    code, _, err = run(capsys, "hint", str(deal), "--peek", "--max-states", str(MAX_STATES), "--timeout", "1")
    assert code == 0, err


@pytest.mark.parametrize(("layout", "kind"), [("42", "number"), ("null", "null"), ('"hello"', "string"),
                                              ("true", "boolean")])
def test_a_json_scalar_is_not_a_layout(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       layout: str, kind: str) -> None:
    (tmp_path / "layout.json").write_text(layout + "\n")
    code, _, err = run(capsys, "solve", "--file", str(tmp_path / "layout.json"))
    _one_line_error(code, err, f"not a layout: a JSON {kind}")
    assert "unknown card" not in err


@pytest.mark.parametrize("command", [("solve", "--file"), ("hint",), ("show",)])
def test_a_patience_position_string_asks_for_its_game(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      command: tuple[str, ...]) -> None:
    # Another game's position string given to a Klondike command says what it is and how to read it, not
    # that its first card is unknown.
    from cardtable.patience import PatienceGame, get
    from cardtable.patience.position import write_position

    (tmp_path / "deal.txt").write_text(write_position(PatienceGame.from_seed(get("freecell"), "ms:5")) + "\n")
    code, _, err = run(capsys, *command, str(tmp_path / "deal.txt"))
    _one_line_error(code, err, "not a Klondike layout: a patience game's position string")
    assert "--game NAME" in err and "unknown card" not in err


@pytest.mark.parametrize(("args", "says"), [
    (("solve", "--seed", "9" * 5000), "seed is out of range: it must be at most 18446744073709551615"),
    (("solve", "--seed", "-" + "9" * 5000), "seed is out of range: it must be at least 0"),
    (("simulate", "--games", "9" * 5000), "--games is out of range: it must be at most 40 digits long"),
])
def test_a_huge_whole_number_is_out_of_range(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                             says: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and says in err.splitlines()[-1], err
    assert "not a whole number" not in err and "must be a whole number" not in err


@pytest.mark.parametrize("under", ["r.sqlite", "sub/r.sqlite"])
def test_a_store_under_a_regular_file_is_explained(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   under: str) -> None:
    (tmp_path / "deals.txt").write_text("1\n")
    (tmp_path / "afile").write_text("not a folder\n")
    code, _, err = run(capsys, "solve", "--deals", str(tmp_path / "deals.txt"), "--max-states", "100",
                       "--store", str(tmp_path / "afile" / under))
    _one_line_error(code, err, f"{tmp_path / 'afile'} is a file, not a folder")
    assert "Errno" not in err
    assert (tmp_path / "afile").read_text() == "not a folder\n"


def test_a_plot_in_an_unknown_format_is_refused_before_any_game(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    code, out, err = run(capsys, "simulate", "--games", "2", "--record", "0", "--plot", str(tmp_path / "x.xyz"))
    _one_line_error(code, err, "cannot draw a .xyz picture", ".png", ".svg", ".pdf")
    assert out == "" and not (tmp_path / "x.xyz").exists()
    assert not (tmp_path / "data" / "results.sqlite").exists()


def test_a_plot_is_written_in_the_format_its_extension_names(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    code, _, err = run(capsys, "simulate", "--games", "2", "--record", "0", "--no-store",
                       "--plot", str(tmp_path / "x.SVG"))
    assert code == 0, err
    assert (tmp_path / "x.SVG").read_bytes().startswith(b"<?xml")


def _resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


@pytest.mark.parametrize(("args", "kept"), [
    (("simulate", "--no-fast", "--record", "0", "--no-progress"), "games that finished"),
    (("kings-corner", "match", "--quiet", "--json"), "hands played"),
])
def test_a_billion_games_start_at_once_in_little_memory(tmp_path: Path, args: tuple[str, ...], kept: str) -> None:
    """The blocks of a run are made as they are needed: a billion games (the
    engine's blocks of 50) start at once, stay small, and SIGTERM after the
    first stored block keeps it."""
    process = start(tmp_path, *args, "--games", str(10**9), "--workers", "1")
    try:
        _wait_for(lambda: any(played > 0 for _, _, played in _store_rows(tmp_path)), timeout=60)
        resident = _resident_mib(process.pid)
    except BaseException:
        process.kill()
        process.communicate()
        raise
    _, stderr = _interrupt(process, signal.SIGTERM)
    assert process.returncode == 143, stderr
    assert f"of 1,000,000,000 {kept}" in stderr, stderr
    [(_, status, played)] = _store_rows(tmp_path)
    assert status == "interrupted" and played > 0
    assert resident < 400, f"{resident:.0f} MiB resident after the first block"


def test_a_study_too_large_to_hold_is_refused_before_anything_is_written(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    from cardtable.solver.study import MAX_STUDY_DEALS

    store = tmp_path / "s.sqlite"
    for deals in (MAX_STUDY_DEALS + 1, 10**12):
        code, _, err = run(capsys, "study", "winnability", "--deals", str(deals), "--store", str(store))
        _one_line_error(code, err, f"--deals {deals:,}: a study holds at most 1,000,000 deals")
    assert not store.exists()


@pytest.mark.parametrize("mebibytes", [60, 100])  # numpy's libraries cannot be mapped; its OpenBLAS would give up
def test_memory_running_out_is_one_line_not_an_internal_error(tmp_path: Path, mebibytes: int) -> None:
    import os
    import resource
    import subprocess
    import sys

    def low_memory() -> None:  # too little address space to load numpy
        resource.setrlimit(resource.RLIMIT_AS, (mebibytes * 2**20, mebibytes * 2**20))

    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    done = subprocess.run([sys.executable, "-m", "cardtable", "simulate", "--games", "10", "--workers", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
                          preexec_fn=low_memory)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == ["cardtable: error: not enough memory for this command (a memory limit, "
                                        "ulimit -v or a container's, is too low); give it more memory, or less work"]
    assert [status for _, status, _ in _store_rows(tmp_path)] in ([], ["interrupted"])
