"""Disks that fill: the real commands writing their outputs, plots and
results stores onto a small tmpfs (where this machine lets the tests mount
one; otherwise those tests are skipped), and under a file-size limit
(``RLIMIT_FSIZE``, writes failing with ``EFBIG``), which works anywhere.

Each checks: one line on stderr and exit 2, no temporary file left, the old
file kept, and the run resumed once there is room, its output the same as
that of an unbroken run. The apps say that a save failed and keep what they
could not write until a write succeeds.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from faults.fault_helpers import run

from cardtable.app.klondike import KlondikeApp
from cardtable.klondike import KlondikeGame, Variant
from cardtable.runs.store import ResultsStore


class SmallDisk:
    """A tmpfs of ``size`` mounted at ``folder``, made bigger by :meth:`make_room`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def resize(self, size: str) -> None:
        subprocess.run(["mount", "-o", f"remount,size={size}", str(self.folder)], check=True, capture_output=True)

    def make_room(self) -> None:
        self.resize("16m")


def _can_mount() -> bool:
    return sys.platform == "linux" and os.geteuid() == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    """A 256 KiB tmpfs in the test's folder, unmounted afterwards."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if not _can_mount():
        pytest.skip("mounting a tmpfs needs root on Linux")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True,
                             check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield SmallDisk(folder)
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def _leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


SIMULATE = ("simulate", "--games", "1000", "--workers", "1", "--record", "0", "--no-progress")


def test_simulate_output_on_a_full_disk_keeps_the_old_file_and_resumes(tmp_path: Path,
                                                                        small_disk: SmallDisk) -> None:
    out = small_disk.folder / "games.jsonl"
    out.write_text("old\n")
    full = run(tmp_path, *SIMULATE, "--output", str(out))
    assert full.returncode == 2
    assert _one_line(full.stderr) == (f"cardtable: error: {out}: no room left on the disk (the old file, if any, "
                                      f"is kept); finish it with 'cardtable simulate --resume 1'")
    assert out.read_text() == "old\n" and _leftovers(small_disk.folder) == []
    with ResultsStore(tmp_path / "data" / "results.sqlite", create=False) as store:
        assert store.run(1).status == "interrupted"
    small_disk.make_room()
    resumed = run(tmp_path, "simulate", "--resume", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert run(tmp_path, *SIMULATE, "--no-store", "--output", "unbroken.jsonl").returncode == 0
    assert out.read_text() == (tmp_path / "unbroken.jsonl").read_text()
    assert _leftovers(small_disk.folder) == []


def test_a_plot_on_a_full_disk_leaves_the_run_to_resume(tmp_path: Path, small_disk: SmallDisk) -> None:
    small_disk.resize("16k")
    plot = small_disk.folder / "plot.svg"
    full = run(tmp_path, "simulate", "--games", "200", "--workers", "1", "--record", "0", "--plot", str(plot))
    assert full.returncode == 2
    assert _one_line(full.stderr).startswith(f"cardtable: error: {plot}: no room left on the disk")
    assert not plot.exists() and _leftovers(small_disk.folder) == []
    small_disk.make_room()
    resumed = run(tmp_path, "simulate", "--resume", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert plot.read_text().lstrip().startswith("<?xml")
    with ResultsStore(tmp_path / "data" / "results.sqlite", create=False) as store:
        assert (store.run(1).status, store.run(1).games_played) == ("finished", 200)


def test_solve_deals_output_on_a_full_disk_resumes_to_the_same_rows(tmp_path: Path, small_disk: SmallDisk) -> None:
    small_disk.resize("8k")
    (tmp_path / "deals.txt").write_text("".join(f"{seed}\n" for seed in range(1, 41)))
    out = small_disk.folder / "rows.jsonl"
    batch = ("solve", "--deals", "deals.txt", "--max-states", "20000", "--workers", "1")
    full = run(tmp_path, *batch, "--output", str(out))
    assert full.returncode == 2, full.stderr
    assert full.stderr.strip().splitlines()[-1].startswith(f"cardtable: error: {out}: no room left on the disk")
    assert "Traceback" not in full.stderr and _leftovers(small_disk.folder) == [] and not out.exists()
    small_disk.make_room()
    resumed = run(tmp_path, "solve", "--resume", "1")
    assert resumed.returncode == 0, resumed.stderr
    unbroken = run(tmp_path, *batch, "--no-store")
    assert [json.loads(line)["result"] for line in out.read_text().splitlines()] == \
        [json.loads(line)["result"] for line in unbroken.stdout.splitlines()]


def test_a_match_whose_store_fills_is_resumed_to_the_unbroken_result(tmp_path: Path, small_disk: SmallDisk) -> None:
    small_disk.resize("192k")  # room for the store and its first blocks of hands
    store = small_disk.folder / "results.sqlite"
    match = ("kings-corner", "match", "--players", "greedy,random", "--games", "800", "--workers", "1", "--json")
    full = run(tmp_path, *match, "--store", str(store))
    assert full.returncode == 2
    with ResultsStore(store, create=False) as opened:
        assert 0 < opened.run(1).games_played < 800 and opened.run(1).status == "interrupted"
    assert _one_line(full.stderr) == (f"cardtable: error: {store}: cannot store hands: database or disk is full; "
                                      f"finish it with 'cardtable kings-corner match --resume 1 --store {store}'")
    small_disk.make_room()
    resumed = run(tmp_path, "kings-corner", "match", "--resume", "1", "--store", str(store), "--json")
    assert resumed.returncode == 0, resumed.stderr
    unbroken = run(tmp_path, *match, "--no-store")
    got, whole = json.loads(resumed.stdout), json.loads(unbroken.stdout)
    for report in (got, whole):
        report.pop("seconds"), report.pop("run", None), report.pop("resumed", None)
    assert got == whole


def _file_size_limit(limit: int) -> object:
    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limited


def test_an_output_past_the_file_size_limit_is_one_line_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("old\n")
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    limited = subprocess.run([sys.executable, "-m", "cardtable", *SIMULATE, "--no-store", "--output", str(out)],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
                             preexec_fn=_file_size_limit(200_000))  # type: ignore[arg-type]
    assert limited.returncode == 2
    assert _one_line(limited.stderr) == f"cardtable: error: {out}: no room left on the disk (the old file, if any, " \
                                        "is kept)"
    assert out.read_text() == "old\n" and _leftovers(tmp_path) == []


def test_the_klondike_app_keeps_a_loss_it_could_not_record_until_the_disk_has_room(tmp_path: Path,
                                                                                   small_disk: SmallDisk) -> None:
    stats = small_disk.folder / "results.sqlite"
    ballast = small_disk.folder / "ballast"
    ballast.write_bytes(b"\0" * (small_disk_free(small_disk.folder) - 1024))  # the disk is full
    app = KlondikeApp(KlondikeGame.from_seed(7, Variant.preset("draw1")), seed=7, stats_path=stats)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("d")  # a draw from the stock: a game played
            await pilot.pause()
            app.new_game()  # the left game is a loss, but there is no room to keep it
            await pilot.pause()
            assert "Could not keep the statistics" in app.message and "1 game kept in memory" in app.message
            ballast.unlink()
            await pilot.press("d")  # the next move tries again
            await pilot.pause()
            assert "Could not keep" not in app.message

    asyncio.run(main())
    with ResultsStore(stats, create=False) as store:
        from cardtable.sim.played import play_stats

        [played] = play_stats(store)
        assert (played.played, played.won) == (1, 0)


def small_disk_free(folder: Path) -> int:
    status = os.statvfs(folder)
    return status.f_bavail * status.f_frsize


def test_a_kings_corner_hand_that_cannot_be_saved_is_said_and_play_goes_on(tmp_path: Path,
                                                                          small_disk: SmallDisk) -> None:
    from cardtable.cli.kings_corner_seat import hand_saver
    from cardtable.kings_corner.session import KingsCornerSession

    save = small_disk.folder / "hand.txt"
    save.write_text("the hand before\n")
    (small_disk.folder / "ballast").write_bytes(b"\0" * small_disk_free(small_disk.folder))
    record = KingsCornerSession([None, None], seed=3).record()
    said = hand_saver(save)(record)
    assert said is not None and said.startswith(f"Could not save the hand ({save}: no room left on the disk")
    assert save.read_text() == "the hand before\n" and _leftovers(small_disk.folder) == []
    (small_disk.folder / "ballast").unlink()
    assert hand_saver(save)(record) is None and save.read_text() == record.to_text()
