"""The benchmarks' Markdown results files (benchmarks/_report.py): the stamp, the table, the atomic write,
and a benchmark script writing one through ``--markdown``."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_report", BENCHMARKS / "_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = _load()


def test_the_file_has_the_stamp_and_the_table(tmp_path: Path) -> None:
    path = tmp_path / "results.md"
    body = report.table(["player", "won"], [["greedy", "13.0%"], ["a|b", 1]])
    report.write_markdown(path, "## Demo", body, argv=[str(BENCHMARKS / "simulate.py"), "--games", "50000"],
                          note="A loaded machine.")
    text = path.read_text()
    assert text.startswith("## Demo\n\n")
    assert "- **command:** `python benchmarks/simulate.py --games 50000`" in text
    assert re.search(r"- \*\*date:\*\* \d{4}-\d\d-\d\d \d\d:\d\d UTC", text)
    machine = re.search(r"- \*\*machine:\*\* (.*)", text)
    assert machine and platform.platform() in machine[1] and f"{os.cpu_count()} CPUs" in machine[1]
    assert f"Python {platform.python_version()}" in machine[1]
    assert re.search(r"- \*\*commit:\*\* `([0-9a-f]{4,}(-dirty)?|unknown)`", text)
    assert "\nA loaded machine.\n" in text
    assert "| player | won |\n|---|---|\n| greedy | 13.0% |\n| a\\|b | 1 |\n" in text
    assert os.listdir(tmp_path) == ["results.md"]  # no temporary file left beside it


def test_the_write_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails half-way leaves the old file whole and no temporary file."""
    path = tmp_path / "results.md"
    path.write_text("the old results\n")

    def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError):
        report.write_markdown(path, "## New", "| a |\n|---|\n| 1 |")
    assert path.read_text() == "the old results\n"
    assert os.listdir(tmp_path) == ["results.md"]


def test_a_peer_program_is_found_on_the_path_or_refused_by_its_option(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    tool = tmp_path / "peer-solve"
    tool.write_text("#!/bin/sh\n", encoding="utf-8")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert report.program("peer-solve", "--lonelybot") == str(tool)  # a bare name, looked up on PATH
    assert report.program(str(tool), "--lonelybot") == str(tool)
    tool.chmod(0o644)
    for path in (str(tool), str(tmp_path), "/no/such/peer", "no-such-peer-anywhere"):
        with pytest.raises(report.UsageError, match=f"^--lonelybot {re.escape(path)}: not an executable program$"):
            report.program(path, "--lonelybot")


@pytest.mark.parametrize(("check", "args", "words"), [
    ("at_least_one", ("--deals", 0), "--deals 0: at least 1"),
    ("a_seed", ("--start", -1), "--start -1: a seed is a whole number >= 0"),
    ("more_than_zero", ("--timeout", 0.0, "seconds"), "--timeout 0: more than 0 seconds"),
    ("more_than_zero", ("--factor", float("nan")), "--factor nan: more than 0"),
])
def test_the_option_checks_name_the_option_and_the_value(check: str, args: tuple[object, ...], words: str) -> None:
    with pytest.raises(report.UsageError, match=f"^{re.escape(words)}$"):
        getattr(report, check)(*args)


def test_the_option_checks_pass_good_values() -> None:
    report.at_least_one("--deals", 1)
    report.a_seed("--start", 0)
    report.more_than_zero("--factor", 0.5)


def test_commit_outside_a_checkout_is_unknown(tmp_path: Path) -> None:
    assert report.commit(tmp_path) == "unknown"
    assert re.fullmatch(r"[0-9a-f]{4,}(-dirty)?|unknown", report.commit())


def test_cpu_model_reads_cpuinfo(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Test CPU 9000\n")
    assert report.cpu_model(str(cpuinfo)) == "Test CPU 9000"
    assert report.cpu_model(str(tmp_path / "none")) == (platform.processor() or platform.machine() or "unknown")


def test_a_benchmark_writes_its_table(tmp_path: Path) -> None:
    """kings_corner_match.py with --markdown prints as before and writes the stamped table; a path in a
    folder that does not exist is refused before any work, in one line, with exit 2."""
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data"),
           "PYTHONPATH": str(BENCHMARKS.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = tmp_path / "kc.md"
    script = str(BENCHMARKS / "kings_corner_match.py")
    done = subprocess.run([sys.executable, script, "--games", "20", "--markdown", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "hands/s" in done.stdout
    text = out.read_text()
    assert f"`python benchmarks/kings_corner_match.py --games 20 --markdown {out}`" in text
    assert "| workers | hands | seconds | hands/s |" in text and "\n| 1 | 20 |" in text
    bad = subprocess.run([sys.executable, script, "--games", "20", "--markdown", str(tmp_path / "no" / "kc.md")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2
    assert "does not exist" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_the_faults_soak_loses_nothing(tmp_path: Path) -> None:
    """benchmarks/faults.py, briefly: faults done, every run finished, nothing lost or written twice."""
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data"),
           "PYTHONPATH": str(BENCHMARKS.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = tmp_path / "faults.md"
    done = subprocess.run([sys.executable, str(BENCHMARKS / "faults.py"), "--minutes", "0.2", "--games", "300",
                           "--deals", "12", "--concurrent", "2", "--every", "1.5", "--json", "--markdown", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert sum(figures["faults"].values()) > 0 and sum(figures["runs_completed"].values()) > 0
    kept = ("units_lost", "units_duplicated", "orphan_workers", "temporary_files_left", "read_failures")
    assert [figures[name] for name in kept] == [0] * len(kept) and figures["unexpected_ends"] == []
    assert figures["commands_hung"] == []
    assert "| units lost (goal 0) | 0 |" in out.read_text()


def test_the_faults_soak_records_and_kills_a_command_that_stores_nothing(
        tmp_path: Path, load_benchmark: Callable[[str], ModuleType]) -> None:
    """A command (here one that sleeps, with a worker process that sleeps too) that stores nothing for
    --hang-seconds is reported with what its processes wait on, and killed with its worker."""
    faults = load_benchmark("faults")
    args = argparse.Namespace(seed=1, deals=3, hang_seconds=0.5)
    soak = faults.Soak(args, tmp_path)
    job = faults.Job("solve", 1, [], tmp_path / "rows.jsonl", 3)
    sleeper = ("import os, time\n"
               "if os.fork() == 0:\n    time.sleep(60)\n"
               "else:\n    print(flush=True)\n    time.sleep(60)\n")
    job.process = subprocess.Popen([sys.executable, "-c", sleeper], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
    try:
        assert job.process.stdout is not None and job.process.stdout.readline() == b"\n"  # the worker is up
        workers = faults._children(job.process.pid)
        assert len(workers) == 1
        job.started_at = job.progress_at = time.monotonic()
        assert not soak.hung(job)  # the first look: nothing stored yet, which starts the count
        assert job.progress_units == 0 and not soak.tally.hangs
        time.sleep(1.1)  # past --hang-seconds, and past the second between two looks
        assert soak.hung(job)
        assert job.process.returncode == -signal.SIGKILL
        deadline = time.monotonic() + 10
        while faults._alive(workers[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not faults._alive(workers[0])
        [hang] = soak.tally.hangs
        assert hang.startswith("solve 1 (command 0, 0 of 3 units stored): nothing stored for ")
        assert f"{job.process.pid} S in " in hang and f"{workers[0]} S in " in hang
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(job.process.pid, signal.SIGKILL)
        job.process.wait()
        for stream in (job.process.stdout, job.process.stderr):
            if stream is not None:
                stream.close()
