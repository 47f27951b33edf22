"""The simulator: runs, outputs, the results store, statistics, compare."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.bots.priority import play_priority_game
from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Position, Variant
from cardtable.sim.runner import GameResult, RunSpec, play_batch, run_games
from cardtable.sim.stats import mean_interval, summarize, wilson
from cardtable.sim.store import ResultsStore

SEED_002 = Variant.preset("seed-002")


def test_default_simulate_prints_two_records_then_the_summary(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "50", "--store", str(tmp_path / "s.sqlite"))
    assert code == 0
    assert out.index("Game 1 (seed 1)") < out.index("Game 2 (seed 2)") < out.index("games played")
    assert "Game 3" not in out
    assert "1. draw" in out and "The player pays $52 to play" in out
    assert "games played       50" in out and "net winnings" in out and "games/s" in out


def test_record_narration_replays_the_same_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "games.jsonl"
    code, out, _ = run(capsys, "simulate", "--games", "2", "--no-store", "--output", str(out_file), "--ascii")
    assert code == 0
    games = [json.loads(line) for line in out_file.read_text().splitlines()]
    first = games[0]
    numbered = [line for line in out.split("Game 2")[0].splitlines() if re.match(r"\d+\. ", line)]
    assert len(numbered) == len(first["moves"])
    assert f"{first['foundation']} card" in out


def test_output_fields_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "games.jsonl"
    code, _, _ = run(capsys, "simulate", "--games", "30", "--record", "0", "--no-store", "--output", str(out_file))
    assert code == 0
    lines = out_file.read_text().splitlines()
    assert len(lines) == 30
    for line in lines:
        game = json.loads(line)
        assert {"deal", "won", "foundation", "moves", "net"} <= set(game)
        assert game["moves"][0] == "D"
        record = KlondikeRecord(SEED_002, Position.from_deal(game["deal"]), [Move.parse(m) for m in game["moves"]])
        replayed = record.replay()
        assert replayed.foundation_count() == game["foundation"]
        assert game["net"] == 5 * game["foundation"] - 52
        assert game["won"] == (game["foundation"] == 52)


def test_same_results_whatever_the_workers_and_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for extra in (["--workers", "1"], ["--workers", "2"], ["--workers", "2", "--no-fast"]):
        path = tmp_path / f"out{len(outputs)}.jsonl"
        run(capsys, "simulate", "--games", "120", "--seed", "77", "--record", "0", "--no-store", "--output",
            str(path), *extra)
        outputs.append(path.read_text())
    assert outputs[0] == outputs[1] == outputs[2]


def test_engine_path_for_other_strategies_is_worker_independent() -> None:
    spec = RunSpec("greedy", Variant.preset("draw1"), seed=3)
    one = run_games(spec, 60, workers=1)
    two = run_games(spec, 60, workers=2, chunk=7)
    assert one == two and [r.index for r in one] == list(range(60))


def test_deals_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = [Position.from_seed(s).deal_string() for s in (10, 11, 12)]
    path = tmp_path / "deals.txt"
    path.write_text("# three deals\n" + "\n".join(deals) + "\n\n")
    out_file = tmp_path / "o.jsonl"
    code, _, _ = run(capsys, "simulate", "--deals", str(path), "--record", "0", "--no-store", "--output",
                     str(out_file))
    assert code == 0
    games = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [g["deal"] for g in games] == deals
    for g, seed in zip(games, (10, 11, 12), strict=True):
        engine = KlondikeGame.from_seed(seed, SEED_002)
        assert g["moves"] == [str(m) for m in play_priority_game(engine)]


def test_bad_deals_file_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = Position.from_seed(1).deal_string()
    path = tmp_path / "deals.txt"
    path.write_text(deal + "\n" + deal.replace("7d", "7x") + "\n")
    code, _, err = run(capsys, "simulate", "--deals", str(path), "--no-store")
    assert code == 2 and "line 2" in err and "7x" in err and "Traceback" not in err


def test_results_store_lists_and_shows_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "runs.sqlite")
    run(capsys, "simulate", "--games", "40", "--record", "0", "--store", store)
    run(capsys, "simulate", "--strategy", "greedy", "--games", "20", "--record", "0", "--store", store)
    code, out, _ = run(capsys, "runs", "--store", store)
    assert code == 0 and out.count("finished") == 2 and "greedy" in out and "priority" in out
    code, out, _ = run(capsys, "runs", "show", "1", "--store", store)
    assert "run 1: simulate priority on seed-002" in out and "40 of 40 games" in out
    code, _, err = run(capsys, "runs", "show", "9", "--store", store)
    assert code == 2 and "no run 9" in err
    with ResultsStore(store) as db:
        assert len(db.games(1)) == 40


def test_interrupted_run_keeps_finished_games(tmp_path: Path) -> None:
    spec = RunSpec("priority", SEED_002, seed=1)
    seen: list[int] = []

    def stop_after_two(batch: list[GameResult]) -> None:
        seen.append(len(batch))
        if len(seen) == 2:
            raise KeyboardInterrupt

    results = run_games(spec, 100, workers=1, chunk=10, on_batch=stop_after_two, use_fast=False)
    assert [r.index for r in results] == list(range(20))


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "run.png"
    code, _, _ = run(capsys, "simulate", "--games", "40", "--record", "0", "--no-store", "--plot", str(png))
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "25", "--no-store", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 25 and data["strategy"] == "priority" and "net_total" in data
    assert data["net_total"] == sum(r.net for r in play_batch(RunSpec("priority", SEED_002, 1), range(25)))


def test_compare_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "priority", "greedy", "--games", "40", "--workers", "1")
    assert code == 0 and "priority" in out and "greedy" in out and "Δ won" in out
    code, out, _ = run(capsys, "compare", "priority", "priority", "--games", "30", "--json", "--workers", "1")
    rows = json.loads(out)["strategies"]
    assert rows[1]["diff_foundation"] == 0 and rows[1]["diff_win_rate"] == 0


def test_strategies_lists_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "strategies")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["priority", "turns", "greedy", "random"]


def test_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--games", "0", "--no-store")
    assert code == 2 and "--games" in err
    code, _, err = run(capsys, "compare", "priority", "nobody", "--games", "5")
    assert code == 2 and "unknown strategy 'nobody'" in err


# ----- statistics ------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    low, high = wilson(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)


def test_mean_interval() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and math.isclose(high - mean, 1.959963984540054 * math.sqrt((5 / 3) / 4))
    assert low < mean < high


def test_summary_counts() -> None:
    results = [GameResult(i, "", i == 0, 52 if i == 0 else 4, (), 208 if i == 0 else -32, 0) for i in range(4)]
    s = summarize(results, 2.0)
    assert (s.games, s.won, s.net_total, s.games_per_second) == (4, 1, 208 - 96, 2.0)
    assert s.foundation_mean == 16.0
