"""Outputs are written as any Unix tool writes them: atomically for a regular
file, keeping its mode, through symbolic links, in place for devices and
FIFOs, ``-`` for standard output, and the path checked before the work."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable._files import AtomicWriter, atomic_write_text, check_output
from cardtable.errors import UsageError


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    with AtomicWriter(target) as out:
        out.write("newer")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and not leftovers(tmp_path)


def test_a_new_file_gets_the_usual_mode_under_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "new.txt", "x")
        with AtomicWriter(tmp_path / "new2.txt") as out:
            out.write("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "new2.txt").stat().st_mode) == 0o644


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    with AtomicWriter(link) as out:
        out.write("newer")
    assert link.is_symlink() and real.read_text() == "newer" and not leftovers(tmp_path)


def test_a_fifo_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "through the pipe\n")
    reader.join(timeout=10)
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode) and not leftovers(tmp_path)


def test_dev_null_stays_a_device() -> None:
    before = os.stat("/dev/null")
    atomic_write_text("/dev/null", "nothing")
    with AtomicWriter("/dev/null") as out:
        out.write("nothing")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_dash_is_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    atomic_write_text("-", "to stdout\n")
    assert capsysbinary.readouterr().out == b"to stdout\n"


@pytest.mark.parametrize("name", ["missing/out.txt", "."])
def test_bad_paths_are_refused_before_any_work(tmp_path: Path, name: str) -> None:
    with pytest.raises(UsageError, match=str(tmp_path / name).replace(".", r"\.")):
        check_output(tmp_path / name)
    with pytest.raises(UsageError):
        AtomicWriter(tmp_path / name)
    assert not leftovers(tmp_path)


def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(UsageError, match="not writable"):
            check_output(folder / "out.txt")
    finally:
        folder.chmod(0o700)


def test_solve_checks_its_output_before_solving(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("1\n2\n")
    status, out, err = run(capsys, "solve", "--deals", str(deals), "--variant", "thoughtful1",
                           "--output", str(tmp_path / "nope" / "results.jsonl"))
    assert status == 2 and "nope/results.jsonl: folder" in err and "solving" not in err and not out


def test_simulate_checks_its_plot_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--games", "10", "--no-store", "--record", "0",
                           "--plot", str(tmp_path / "nope" / "p.png"))
    assert status == 2 and "p.png: folder" in err and "games played" not in out


def test_deal_output_to_dash_writes_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "deal", "--seed", "7", "-o", "-")
    assert status == 0 and len(out.split()) == 52


def test_byte_order_marks_and_crlf_are_read_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def dos(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
        return path

    status, record, _ = run(capsys, "kings-corner", "record", "--seed", "3")
    assert status == 0
    assert run(capsys, "kings-corner", "replay", str(dos("hand.kc", record)))[0] == 0
    status, deal, _ = run(capsys, "deal", "--seed", "5")
    assert run(capsys, "show", str(dos("deal.txt", deal)))[0] == 0
    status, board, _ = run(capsys, "deal", "--seed", "5", "--format", "pysol")
    status, out, _ = run(capsys, "deal", "--file", str(dos("board.txt", board)))
    assert status == 0 and out == deal
    status, out, err = run(capsys, "simulate", "--deals", str(dos("deals.txt", "# two deals\n5\n" + deal)),
                           "--no-store", "--record", "0", "--json")
    assert status == 0, err
