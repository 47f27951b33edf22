"""What a run killed outright leaves behind: its temporary output file is
removed by the next run or resume, never one whose writer still lives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from faults.fault_helpers import run, start
from test_signals import _store_rows, _wait_for

from cardtable._files import AtomicWriter, remove_dead_temporaries

GAMES = ("simulate", "--games", "600", "--no-fast", "--workers", "1", "--record", "0", "--no-progress")


def test_a_resume_removes_the_temporary_file_of_the_killed_run(tmp_path: Path) -> None:
    process = start(tmp_path, *GAMES, "--output", "games.jsonl")
    _wait_for(lambda: any(played > 0 for _, _, played in _store_rows(tmp_path)), timeout=30)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=10)
    [left] = tmp_path.glob(".games.jsonl.*.tmp")
    assert left.name.startswith(f".games.jsonl.{process.pid}.")
    resumed = run(tmp_path, "simulate", "--resume", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert list(tmp_path.glob("*.tmp")) == [] and not left.exists()
    assert run(tmp_path, *GAMES, "--no-store", "--output", "unbroken.jsonl").returncode == 0
    assert (tmp_path / "games.jsonl").read_text() == (tmp_path / "unbroken.jsonl").read_text()


#: A writer that keeps its temporary file open (and locked) until told to stop.
_LIVE_WRITER = """
import sys
from cardtable._files import AtomicWriter
out = AtomicWriter(sys.argv[1])
out.write("half")
print("writing", flush=True)
sys.stdin.readline()
out.commit()
"""


def test_the_temporary_file_of_a_live_writer_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    writer = subprocess.Popen([sys.executable, "-c", _LIVE_WRITER, str(target)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdin is not None
    try:
        assert writer.stdout.readline() == "writing\n"
        [live] = tmp_path.glob(".out.txt.*.tmp")
        old = os.stat(live).st_mtime - 3600
        os.utime(live, (old, old))  # old as well: only its lock says it is alive
        assert remove_dead_temporaries(target) == [] and live.exists()
        with AtomicWriter(target) as mine:  # another write beside it leaves it be
            mine.write("whole")
        assert live.exists()
    finally:
        writer.communicate("go\n", timeout=10)
    assert writer.returncode == 0 and target.read_text() == "half"
    assert list(tmp_path.glob("*.tmp")) == []


def test_only_temporary_files_of_the_target_are_touched(tmp_path: Path) -> None:
    mine = tmp_path / ".out.txt.999999999.x.tmp"
    other = tmp_path / ".other.txt.999999999.x.tmp"
    for path in (mine, other):
        path.write_text("left by a dead run")
    link = tmp_path / ".out.txt.999999998.y.tmp"
    link.symlink_to(other)
    assert remove_dead_temporaries(tmp_path / "out.txt") == [mine]
    assert other.exists() and link.is_symlink()
