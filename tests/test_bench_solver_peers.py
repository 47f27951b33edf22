"""The pure parts of the solver benchmark's peers (benchmarks/_peers.py):
deal conversion to each peer's input and parsing of what each peer prints.
The peers themselves need not be installed: outputs are recorded samples."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _benchmarks import load_benchmark

from cardtable.cards import Card, new_deck
from cardtable.klondike import Position
from cardtable.klondike.formats import from_solvitaire, to_solvitaire

peers = load_benchmark("_peers")

# Exact seeds printed by this conversion and solved by lonelybot's driver:
# seed 0's deal is unwinnable at draw 3 and seed 3's winnable, as cardtable,
# Solvitaire and Klondike-Solver also say.
LONELYBOT_SEEDS = {
    0: 69792587436622783300009093771669142753715266688676695057315029717008,
    3: 18262659059716987191297141231161141261347702940866416272077069685720,
}


# ----- lonelybot's exact seed ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 7, 1_000_000, 2**40 + 5])
def test_lonelybot_seed_round_trips(seed: int) -> None:
    position = Position.from_seed(seed)
    exact = peers.lonelybot_seed(position)
    assert 0 <= exact < peers.LONELYBOT_SEEDS
    assert peers.lonelybot_deal(exact) == position


@pytest.mark.parametrize(("seed", "exact"), sorted(LONELYBOT_SEEDS.items()))
def test_lonelybot_seed_is_the_recorded_one(seed: int, exact: int) -> None:
    assert peers.lonelybot_seed(Position.from_seed(seed)) == exact


def test_lonelybot_order_is_piles_then_stock_as_drawn() -> None:
    position = Position.from_seed(11)
    order = peers.lonelybot_order(position)
    assert sorted(order) == sorted(new_deck())
    # Pile i (1-based) holds cards i(i-1)/2 .. i(i+1)/2 - 1, bottom to top.
    for i, pile in enumerate(position.tableau, 1):
        assert tuple(order[i * (i - 1) // 2:i * (i + 1) // 2]) == pile
    # Then the stock, the card drawn first (the top, last in cardtable's stock) first.
    assert order[28] == position.stock[-1]
    assert order[51] == position.stock[0]


def test_lonelybot_card_numbers() -> None:
    # exact_shuffle swaps card i with card seed % (i + 1) for i = 1 .. 51, so
    # the last seed keeps lonelybot's number order (rank by rank; hearts,
    # diamonds, clubs, spades within a rank) and seed 0 moves the last card first.
    identity = peers.lonelybot_order(peers.lonelybot_deal(peers.LONELYBOT_SEEDS - 1))
    assert [str(c) for c in identity[:6]] == ["Ah", "Ad", "Ac", "As", "2h", "2d"]
    assert [str(c) for c in identity[-2:]] == ["Kc", "Ks"]
    rotated = peers.lonelybot_order(peers.lonelybot_deal(0))
    assert rotated == [identity[-1], *identity[:-1]]


def test_lonelybot_takes_only_fresh_deals() -> None:
    position = Position.from_seed(5)
    moved = Position(tableau=position.tableau, face_down=position.face_down, stock=position.stock[:-1],
                     waste=position.stock[-1:], foundation=position.foundation)
    with pytest.raises(ValueError, match="fresh deal"):
        peers.lonelybot_seed(moved)
    with pytest.raises(ValueError, match="below 52!"):
        peers.lonelybot_deal(peers.LONELYBOT_SEEDS)


def test_lonelybot_command() -> None:
    assert peers.lonelybot_command("lonecli", Position.from_seed(3), 3) == [
        "lonecli", "solve", "exact", str(LONELYBOT_SEEDS[3]), "3"]


# ----- Solvitaire's deal file --------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 3, 99])
def test_solvitaire_deal_holds_the_layout(seed: int) -> None:
    position = Position.from_seed(seed)
    data = json.loads(to_solvitaire(position))
    piles = data["tableau piles"]
    assert [len(p) for p in piles] == list(range(1, 8))
    # Only each pile's top card is face up (upper-case suit letter).
    assert all(card[-1].isupper() == (j == len(pile) - 1) for pile in piles for j, card in enumerate(pile))
    cards = [Card.parse(c) for pile in piles for c in pile] + [Card.parse(c) for c in data["stock"]]
    assert sorted(cards) == sorted(new_deck())
    assert from_solvitaire(to_solvitaire(position)) == position


def test_solvitaire_command() -> None:
    assert peers.solvitaire_command("solvitaire", "d.json", 3, 30) == [
        "solvitaire", "--type", "klondike", "--classify", "--timeout", "30000", "d.json"]
    assert peers.solvitaire_command("solvitaire", "d.json", 1, 0.5)[2] == "klondike-deal-1"
    with pytest.raises(ValueError, match="draw 1 or 3"):
        peers.solvitaire_command("solvitaire", "d.json", 2, 30)


def test_solvitaire_preset_command() -> None:
    assert peers.solvitaire_preset_command("solvitaire-fixed", "spiderette", "d.json", 2.5) == [
        "solvitaire-fixed", "--type", "spiderette", "--classify", "--timeout", "2500", "d.json"]


@pytest.mark.skipif(not Path(peers.TIME).exists(), reason="GNU time is not installed")
def test_solvitaire_is_killed_at_the_bound_and_measured(tmp_path: Path) -> None:
    """Its own --timeout does not stop it under load: the bound is kept from outside."""
    fake = tmp_path / "solvitaire"
    fake.write_text("#!/bin/sh\nsleep 5\necho ', solved, 1, 2, 3, solved'\n", encoding="utf-8")
    fake.chmod(0o755)
    began = time.perf_counter()
    run = peers.solve_solvitaire_file(str(fake), "free-cell", "d.json", 0.3)
    assert (run.result, run.killed) == ("unknown", True) and time.perf_counter() - began < 4
    assert run.cpu_seconds is not None and run.peak_kib
    fake.write_text("#!/bin/sh\necho \"$2 $6\"\necho ', unsolvable, 138, 47701, 26683, unsolvable'\n",
                    encoding="utf-8")
    run = peers.solve_solvitaire_file(str(fake), "free-cell", "d.json", 30)
    assert (run.result, run.killed, run.status, run.own_seconds) == ("unwinnable", False, 0, 0.138)
    assert run.output.startswith("free-cell d.json\n")


@pytest.mark.skipif(not Path(peers.TIME).exists(), reason="GNU time is not installed")
def test_a_deal_solvitaire_refuses_stops_the_benchmark(tmp_path: Path) -> None:
    """Solvitaire refuses a deal file on its standard error with status 0 (a
    build that reads no "cells"): the run stops there rather than count it
    undecided."""
    bench = load_benchmark("patience_solver")
    fake = tmp_path / "solvitaire-fixed"
    fake.write_text("#!/bin/sh\necho '[error] Error parsing deal file: additionalProperties: #/cells' >&2\n",
                    encoding="utf-8")
    fake.chmod(0o755)
    with pytest.raises(RuntimeError, match="eight-off deal 2: Solvitaire printed no verdict"):
        bench.solvitaire_peer(str(fake), "eight-off", "eight-off", ["2"], 30, str(tmp_path))


@pytest.mark.skipif(not Path(peers.TIME).exists(), reason="GNU time is not installed")
@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed (Debian freecell-solver-bin)")
def test_the_fc_solve_section_compares_verdicts_deal_by_deal(tmp_path: Path) -> None:
    """Baker's Game's PySolFC deals 1 to 12 (10 is unwinnable) under fc-solve's
    exhaustive scan and cardtable's search: a row each, the verdicts alike."""
    bench = load_benchmark("patience_solver")
    rows, notes = bench.compare_fc_solve_games(str(tmp_path), 12, ["bakers-game"], 1_000_000, 60, 2.0)
    assert [row[:2] for row in rows] == [["bakers-game", "cardtable"],
                                         ["bakers-game", "fc-solve --game bakers_game soft-dfs -to 01ABCDE"]]
    assert [row[3:7] for row in rows] == [[12, 11, 1, 0], [12, 11, 1, 0]]
    assert len(notes) == 1 and "0 verdicts differ; decided 12 / 12" in notes[0]


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--fc-solve", "-3", "must be at least 0, not -3"), ("--solvitaire", "many", "must be a whole number"),
    ("--fc-solve-memory", "0", "needs some memory"), ("--fc-solve-games", "freecell", "no game 'freecell'"),
])
def test_the_benchmarks_bad_options_are_named(option: str, value: str, says: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("patience_solver")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--freecell", "none", "--pysol", "0", "--solvitaire", "0", option, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert option in err and says in err


def test_run_measured_counts_the_childs_cpu_finely() -> None:
    burn = [sys.executable, "-c", "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.03: pass\n"
            "print('done')"]
    text, measured, killed, status = peers.run_measured(burn, 30)
    assert (text, killed, status) == ("done\n", False, 0)
    if Path(peers.TIME).exists():
        assert measured is not None and 0.03 <= measured.cpu < 5 and measured.peak_kib > 0
    assert peers.run_measured(["sleep", "5"], 0.2)[2]


# ----- parsing what the peers print (recorded from real runs) ---------------------------------------

SOLVITAIRE_CLASSIFY = {
    ", unsolvable, 138, 47701, 26683, 47700, 3725, 0, 22958, 24593, 23, 0, unsolvable\n": ("unwinnable", 0.138),
    ", solved, 0, 275, 102, 193, 30, 0, 72, 97, 82, 82, solved\n": ("won", 0.0),
    ", timed-out, 30000, 18395014, 3251557, 18394978, 1068, 0, 3250489, 6291469, 95, 36, timed-out\n":
        ("unknown", 30.0),
}

SOLVITAIRE_REPORT = """Deal:
--- Foundations ---------
[]	[]	[]	[]
===================================
Solution Type: unsolvable
States Searched: 47701
Unique States Searched: 26683
Backtracks: 47700
Dominance Moves: 3725
States Removed From Cache: 0
Final States In Cache: 22958
Final Buckets In Cache: 24593
Maximum Search Depth: 23
Final Search Depth: 0
Time Taken (milliseconds): 79
"""


@pytest.mark.parametrize(("text", "expected"), sorted(SOLVITAIRE_CLASSIFY.items()))
def test_parse_solvitaire_classify(text: str, expected: tuple[str, float]) -> None:
    assert peers.parse_solvitaire(text) == expected


def test_parse_solvitaire_report() -> None:
    assert peers.parse_solvitaire(SOLVITAIRE_REPORT) == ("unwinnable", 0.079)
    assert peers.parse_solvitaire(SOLVITAIRE_REPORT.replace("unsolvable", "solved")) == ("won", 0.079)
    assert peers.parse_solvitaire(SOLVITAIRE_REPORT.replace("unsolvable", "memory-limit-reached"))[0] == "unknown"


#: The last lines fc-solve's exhaustive scan prints (-sel shows a limit that stopped it), recorded.
FC_SOLVE_ENDINGS = {
    "This game is solveable.\nTotal number of states checked is 718.\nThis scan generated 1062 states.\n": "won",
    "I could not solve this game.\nTotal number of states checked is 12404.\nThis scan generated 12404 states.\n":
        "unwinnable",
    "Iterations count exceeded.\nTotal number of states checked is 10.\nThis scan generated 46 states.\n": "unknown",
    "": "unknown",  # killed at its memory bound, or at the time bound, before it printed a verdict
}


@pytest.mark.parametrize(("text", "expected"), sorted(FC_SOLVE_ENDINGS.items()))
def test_parse_fc_solve_exhaustive_scan(text: str, expected: str) -> None:
    assert load_benchmark("patience_solver").fc_solve_verdict(text) == expected


def test_parse_solvitaire_nothing() -> None:
    assert peers.parse_solvitaire("") == ("unknown", None)
    assert peers.parse_solvitaire("[error] Error parsing deal file: bad card\n") == ("unknown", None)


def test_parse_lonelybot() -> None:
    assert peers.parse_lonelybot("Run in 0.830266 ms\nImpossible\n") == ("unwinnable", pytest.approx(0.000830266))
    solved = "Run in 0.14113 ms\nStatistic\nTotal visit: 119\nSolvable in 86 moves\n\nPS A♦, R 5♠,\n"
    assert peers.parse_lonelybot(solved) == ("won", pytest.approx(0.00014113))
    assert peers.parse_lonelybot("Run in 5000.1 ms\nTerminated\n") == ("unknown", pytest.approx(5.0001))
    assert peers.parse_lonelybot("") == ("unknown", None)


def test_lonelybot_killed_at_the_limit_counts_its_whole_run(tmp_path: Path) -> None:
    slow = tmp_path / "lonelybot-solve"
    slow.write_text("#!/bin/sh\necho 'Run in 0.1 ms'\nsleep 5\n", encoding="utf-8")
    slow.chmod(0o755)
    run = peers.solve_lonelybot(str(slow), Position.from_seed(1), 3, 0.5)
    assert run.killed and run.result == "unknown"
    assert run.own_seconds == run.seconds >= 0.5  # not the 0.1 ms it printed before it was stopped


def test_lonelybot_is_timed_on_a_run_of_its_own(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    driver = tmp_path / "lonelybot-solve"
    driver.write_text(f"#!/bin/sh\necho run >> {calls}\necho 'Run in 0.5 ms'\necho Impossible\nsleep 0.2\n",
                      encoding="utf-8")
    driver.chmod(0o755)
    run = peers.solve_lonelybot(str(driver), Position.from_seed(1), 3, 30)
    assert (run.result, run.killed, run.own_seconds) == ("unwinnable", False, pytest.approx(0.0005))
    assert calls.read_text(encoding="utf-8").count("run") == (2 if Path(peers.TIME).exists() else 1)
    assert 0.2 <= run.seconds < 30


def test_run_program_straight() -> None:
    text, seconds, peak, killed, status = peers.run_program(["sh", "-c", "echo hi; sleep 0.05"], 30, gnu_time=False)
    assert (text, peak, killed, status) == ("hi\n", None, False, 0) and 0.05 <= seconds < 30
    assert peers.run_program(["sleep", "5"], 0.2, gnu_time=False)[3]  # killed


def test_an_interrupted_benchmark_leaves_no_peer_running(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = (f"import signal, sys\nsys.path.insert(0, {str(Path(peers.__file__).parent)!r})\n"
              "signal.signal(signal.SIGINT, signal.default_int_handler)\nimport _peers\nprint('start', flush=True)\n"
              f"_peers.run_program(['sh', '-c', 'echo $$ > {pid_file}; exec sleep 30'], 60)\n")
    bench = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert bench.stdout is not None and bench.stdout.readline() == "start\n"
    for _ in range(100):  # the peer has started
        if pid_file.exists() and pid_file.read_text().strip():
            break
        time.sleep(0.05)
    peer = int(pid_file.read_text())
    bench.send_signal(signal.SIGINT)
    _, err = bench.communicate(timeout=30)
    assert bench.returncode != 0 and "KeyboardInterrupt" in err
    for _ in range(100):
        try:
            os.kill(peer, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(peer, signal.SIGKILL)
        raise AssertionError("the peer outlived the interrupted benchmark")


def test_parse_time_format() -> None:
    assert peers.parse_time_format("1.29 0.17 0.02 23348\n") == peers.ProcessTime(1.29, pytest.approx(0.19), 23348)
    assert peers.parse_time_format("Command exited with non-zero status 2\n0.01 0.00 0.00 2048\n") == \
        peers.ProcessTime(0.01, 0.0, 2048)
    assert peers.parse_time_format("Command terminated by signal 9\n") is None
    assert peers.parse_time_format("") is None
    assert peers.parse_time_format("1.0 x 0.0 10\n") is None


def test_startup_cases(capsys: pytest.CaptureFixture[str]) -> None:
    solver = load_benchmark("solver")
    assert solver.startup_case("4200012:1") == (4200012, 1)
    for bad in ("5:2", "x:1", "5", "7:0"):
        assert solver.main(["--startup", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--startup" in err and bad in err
    assert solver.main(["--startup", "5:1", "--runs", "0"]) == 2
    assert "--runs" in capsys.readouterr().err


def test_parse_time_report() -> None:
    assert peers.parse_time_report("2268\n") == 2268
    assert peers.parse_time_report("Command terminated by signal 9\n57440\n") == 57440
    assert peers.parse_time_report("") is None


# ----- the benchmark's command line ---------------------------------------------------------------


def test_benchmark_refuses_a_missing_peer_program(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    solver = load_benchmark("solver")
    missing = tmp_path / "no-such-lonecli"
    assert solver.main(["--deals", "1", "--lonelybot", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lonelybot" in err and str(missing) in err
    assert solver.main(["--deals", "0", "--no-peer"]) == 2
    assert "--deals" in capsys.readouterr().err


def _blocked_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, block: int, stop_at: int | None = None,
                 ) -> tuple[list[tuple[str, int]], list[dict[str, object]], int | None]:
    """Run the benchmark on seeds 10..14 at draw 1 with a stand-in lonelybot
    (it answers as cardtable did), logging who played which deal in what
    order; ``stop_at``: the stand-in is interrupted (Ctrl-C) on that call."""
    solver = load_benchmark("solver")
    program = tmp_path / "lonelybot-solve"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    order: list[tuple[str, int]] = []
    real_solve = solver.solve

    def solve(position: Position, *args: object, **kwargs: object) -> object:
        seed = next((s for s in range(10, 15) if Position.from_seed(s) == position), -1)
        order.append(("cardtable", seed))
        return real_solve(position, *args, **kwargs)

    def lonelybot(binary: str, position: Position, draw: int, timeout: float) -> object:
        seed = next((s for s in range(10, 15) if Position.from_seed(s) == position), -1)
        order.append(("lonelybot", seed))
        if stop_at is not None and len([w for w, _ in order if w == "lonelybot"]) == stop_at:
            raise KeyboardInterrupt
        verdict = real_solve(position, solver.MODES["draw1"][0]).result
        return peers.PeerRun(verdict, 0.01, 0.001, 2000, False, 0, "")

    monkeypatch.setattr(solver, "solve", solve)
    monkeypatch.setattr(solver, "solve_lonelybot", lonelybot)
    out = tmp_path / "rows.jsonl"
    status: int | None = None
    argv = ["--deals", "5", "--start", "10", "--modes", "draw1", "--no-klondike-solver", "--no-solvitaire",
            "--lonelybot", str(program), "--block", str(block), "--jsonl", str(out)]
    with contextlib.suppress(KeyboardInterrupt):
        status = solver.main(argv)
    order = [entry for entry in order if entry[1] in range(10, 15)]  # not the warm-up deals
    return order, [json.loads(line) for line in out.read_text().splitlines()], status


def test_benchmark_solves_a_block_before_the_peers_play_it(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    order, rows, status = _blocked_run(monkeypatch, tmp_path, block=2)
    assert status == 0
    assert order == [("cardtable", 10), ("cardtable", 11), ("lonelybot", 10), ("lonelybot", 11),
                     ("cardtable", 12), ("cardtable", 13), ("lonelybot", 12), ("lonelybot", 13),
                     ("cardtable", 14), ("lonelybot", 14)]
    assert [row["seed"] for row in rows] == [10, 11, 12, 13, 14]
    assert all(row["lonelybot"] == row["result"] and row["lonelybot_own_seconds"] == 0.001 for row in rows)
    order, _, _ = _blocked_run(monkeypatch, tmp_path, block=1)
    assert order == [(who, seed) for seed in range(10, 15) for who in ("cardtable", "lonelybot")]


def test_benchmark_interrupted_keeps_every_solved_deal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    order, rows, status = _blocked_run(monkeypatch, tmp_path, block=3, stop_at=2)
    assert status is None  # Ctrl-C reached the caller
    assert order[-1] == ("lonelybot", 11)
    # deals 10-12 were solved by cardtable; only deal 10 was played by lonelybot
    assert [row["seed"] for row in rows] == [10, 11, 12]
    assert "lonelybot" in rows[0] and "lonelybot" not in rows[1] and "lonelybot" not in rows[2]
    assert all(row["result"] in ("won", "unwinnable") for row in rows)
