"""benchmarks/open_stock_order.py: Forty Thieves searched best first (the
default) against the hybrid's depth-first and focused passes, deal by deal,
one verdict where both decide, and the deals only one of them wins named."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from _benchmarks import BENCHMARKS, table_rows

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("open_stock_order")


def test_best_first_wins_the_deals_the_passes_leave_open(script: ModuleType,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # deals 1 and 2 are won best first within 20,000 states (16,320 and 13,520);
    # the passes spend the whole budget on each of the three
    assert script.main(["--deals", "1-3", "--max-states", "20000"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert sorted(rows) == ["forty-thieves"]
    deals, decided, won, lost, only_with, only_without, disagree, states, *_rest = rows["forty-thieves"]
    assert (deals, decided, won, lost, only_with, only_without, disagree) == (
        "3", "2 / 0", "2 / 0", "0 / 0", "1, 2", "-", "0")
    assert states.endswith("/ 60,000")


def test_a_bad_deal_range_is_refused(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        script.main(["--deals", "0-3"])
    assert stop.value.code == 2 and "--deals" in capsys.readouterr().err


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_keeps_its_deals_and_the_next_run_carries_on(stop: signal.Signals, tmp_path: Path) -> None:
    """Ctrl-C and SIGTERM stop the script between two deals' searches: exit 130, a line that says so, every
    finished deal in --jsonl; the same command then solves only the deals not yet there."""
    jsonl = tmp_path / "run.jsonl"
    command = [sys.executable, str(BENCHMARKS / "open_stock_order.py"), "--deals", "1-400",
               "--max-states", "20000", "--jsonl", str(jsonl)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # SIGINT not ignored, as it is for a shell's background job
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not jsonl.exists() or len(jsonl.read_text().splitlines()) < 2):
        time.sleep(0.05)
    process.send_signal(stop)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.strip().endswith("open_stock_order.py: stopped (the lines above and in --jsonl are complete)")
    assert "Traceback" not in err
    kept = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert 2 <= len(kept) < 400 and [row["deal"] for row in kept] == list(range(1, len(kept) + 1))
    again = subprocess.run([*command[:3], f"1-{len(kept) + 1}", *command[4:]], capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    after = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert after[:len(kept)] == kept and [row["deal"] for row in after] == list(range(1, len(kept) + 2))
