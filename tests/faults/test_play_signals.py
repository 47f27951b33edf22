"""``cardtable play`` stopped the way ``timeout`` and systemd stop a
program: SIGSTOP, then SIGTERM and SIGCONT. The app runs for real on a
pseudo-terminal; it must end with status 143 and its game kept in the
autosave, within seconds, with no internal error."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from cardtable.klondike import KlondikeRecord


def _read_until(master: int, needle: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        assert time.monotonic() < deadline, f"never saw {needle!r}"
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


def _drain(master: int) -> bytes:
    """What the app has written so far (the terminal must be read, or the app waits)."""
    seen = b""
    while select.select([master], [], [], 0)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    return seen


def test_play_stopped_then_terminated_exits_143_with_its_game_saved(tmp_path: Path) -> None:
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data"), "TERM": "xterm-256color", "COLUMNS": "100",
           "LINES": "32"}
    env.pop("CARDTABLE_DEBUG", None)
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cardtable", "play", "--seed", "5"], cwd=tmp_path, env=env,
                               stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    autosave = tmp_path / "data" / "klondike-autosave.txt"
    try:
        _read_until(master, b"Press ? for the keys", timeout=60)
        for _ in range(2):
            os.write(master, b"d")  # two draws from the stock
        deadline = time.monotonic() + 20
        while not (autosave.exists() and len(KlondikeRecord.parse(autosave.read_text()).moves) == 2):
            assert time.monotonic() < deadline, "the moves were never autosaved"
            _drain(master)
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGSTOP)
        time.sleep(0.3)
        os.kill(process.pid, signal.SIGTERM)
        os.kill(process.pid, signal.SIGCONT)
        started, screen = time.monotonic(), b""
        while process.poll() is None:
            assert time.monotonic() - started < 10, "play did not end after SIGTERM and SIGCONT"
            screen += _drain(master)
            time.sleep(0.05)
        screen += _drain(master)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    assert process.returncode == 143
    assert b"internal error" not in screen and b"Traceback" not in screen
    assert b"cardtable: interrupted by SIGTERM; the game is kept as on any quit" in screen
    assert [str(move) for move in KlondikeRecord.parse(autosave.read_text()).moves] == ["D", "D"]
