"""The simulator: runs, outputs, the results store, statistics, compare."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from dataclasses import fields
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.bots.klondike.priority import play_priority_game
from cardtable.errors import StoreError, UsageError
from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Position, Scoring, Variant
from cardtable.runs.executor import LocalExecutor
from cardtable.runs.store import ResultsStore
from cardtable.sim import fast
from cardtable.sim.compare import compare_strategies
from cardtable.sim.runner import Batch, GameResult, RunSpec, play_batch, play_game, run_games, uses_kernel
from cardtable.sim.stats import mean_interval, summarize_games, wilson
from cardtable.stats import paired_difference

SEED_002 = Variant.preset("seed-002")


def test_default_simulate_prints_two_records_then_the_summary(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "50", "--store", str(tmp_path / "s.sqlite"))
    assert code == 0
    assert out.index("Game 1 (seed 1)") < out.index("Game 2 (seed 2)") < out.index("games played")
    assert "Game 3" not in out
    assert "1. draw" in out and "The player pays $52 to play" in out
    assert "games played       50" in out and "net winnings" in out and "games/s" in out


@pytest.mark.parametrize("path", [(), ("--no-fast",)])
def test_only_the_printed_games_keep_their_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 path: tuple[str, ...]) -> None:
    store = tmp_path / "s.sqlite"
    code, out, _ = run(capsys, "simulate", "--games", "60", "--record", "2", "--store", str(store), *path)
    assert code == 0 and "Game 2 (seed 2)" in out and "1. draw" in out
    with sqlite3.connect(store) as db:
        kept = db.execute("SELECT idx, deal IS NOT NULL, detail IS NOT NULL FROM games ORDER BY idx").fetchall()
    assert kept == [(i, int(i < 2), int(i < 2)) for i in range(60)]
    code, out, _ = run(capsys, "simulate", "--games", "60", "--record", "0", "--store", str(store), *path)
    assert code == 0
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM games WHERE run_id = 2 AND detail IS NOT NULL").fetchone() == (0,)


def test_the_kernel_records_only_the_games_whose_moves_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded: list[int] = []
    original = fast.priority_games_moves

    def counting(deals):  # type: ignore[no-untyped-def]
        recorded.append(len(deals))
        return original(deals)

    monkeypatch.setattr(fast, "priority_games_moves", counting)
    spec = RunSpec("priority", SEED_002, seed=1, keep_moves=False, record=2)
    results = run_games(spec, 300, workers=1)
    assert recorded == [2]  # the block played again to record its first two games, not all 300
    assert [len(r.moves) > 0 for r in results[:3]] == [True, True, False]
    assert results[0].deal == Position.from_seed(1).deal_string() and results[2].deal == ""
    everything = run_games(RunSpec("priority", SEED_002, seed=1), 3, workers=1, use_fast=False)
    assert [r.moves for r in results[:2]] == [r.moves for r in everything[:2]]


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
        assert len(db.units("games", 1)) == 40


def test_interrupted_run_keeps_finished_games(tmp_path: Path) -> None:
    spec = RunSpec("priority", SEED_002, seed=1)
    seen: list[int] = []

    def stop_after_two(batch: Batch) -> None:
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
    names = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert names == ["priority", "turns", "greedy", "random", "expert"]
    options = [line.split()[0] for line in out.splitlines() if line.startswith(" ")]
    assert options == ["samples=INT:", "states=INT:", "seconds=FLOAT:", "chase=FLOAT:", "second=INT:", "wide=INT:"]
    assert "(default 20000)" in out and "(default no limit)" in out
    assert "(default 0, or 0.25 where each card is paid" in out and "Vegas scoring) (default" not in out


def test_the_expert_takes_its_options_in_the_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--strategy", "expert samples=4 states=500", "--variant", "seed-002",
                       "--games", "3", "--workers", "2", "--json", "--no-store", "--record", "0", "--no-progress")
    assert code == 0
    data = json.loads(out)
    assert data["strategy"] == "expert samples=4 states=500" and data["games"] == 3
    code, _, err = run(capsys, "simulate", "--strategy", "expert samples=lots", "--games", "3", "--no-store")
    assert code == 2 and "option samples needs a whole number, not 'lots'" in err
    code, _, err = run(capsys, "compare", "greedy", "expert depth=2", "--games", "3")
    assert code == 2 and "'depth=2' is not an option" in err


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
    s = summarize_games(results, 2.0)
    assert (s.games, s.won, s.net_total, s.games_per_second) == (4, 1, 208 - 96, 2.0)
    assert s.foundation_mean == 16.0


def test_the_foundation_interval_stays_within_a_game() -> None:
    # Two games far apart: the normal interval would run below 0 and above 52 cards.
    few = summarize_games([GameResult(0, "", False, 0, (), -52, 0), GameResult(1, "", False, 14, (), 18, 0)], 1.0)
    assert (few.foundation_mean, few.foundation_low) == (7.0, 0.0) and few.foundation_high > 14
    many = summarize_games([GameResult(0, "", True, 52, (), 208, 0), GameResult(1, "", False, 40, (), 148, 0)], 1.0)
    assert many.foundation_high == 52.0 and 34 < many.foundation_low < 46
    assert many.net_high > 208  # money has no such bound here: the interval is left as it is


def test_paired_difference() -> None:
    mean, low, high = paired_difference([1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0])
    assert mean == 0.25 and low < mean < high
    assert paired_difference([3.0, 4.0], [3.0, 4.0]) == (0.0, 0.0, 0.0)


# ----- the library: runs, starts, the kernel's rules, money, the store, compare -----------------


def test_interrupted_run_with_workers_keeps_finished_games_in_order() -> None:
    spec = RunSpec("greedy", Variant.preset("draw1"), seed=1, keep_moves=False)
    seen: list[int] = []

    def stop_after_three(batch: Batch) -> None:
        seen.append(batch.indices[0])
        if len(seen) == 3:
            raise KeyboardInterrupt

    results = run_games(spec, 200, workers=2, chunk=5, on_batch=stop_after_three)
    assert seen == [0, 5, 10] and [r.index for r in results] == list(range(15))


def test_run_games_takes_an_executor() -> None:
    spec = RunSpec("greedy", Variant.preset("draw1"), seed=9)
    assert run_games(spec, 30, executor=LocalExecutor(2), chunk=4) == run_games(spec, 30, workers=1)


def test_starts_may_be_fresh_deals_or_positions_in_mid_game() -> None:
    game = KlondikeGame.from_seed(5, SEED_002)
    for move in game.legal_moves()[:1]:
        game.play(move)
    middle = game.position()
    assert not middle.is_deal
    fresh = Position.from_seed(6)
    spec = RunSpec("priority", SEED_002, deals=(fresh, middle))
    assert spec.deal(1) == middle
    assert not uses_kernel(spec)  # the kernel only starts from fresh deals
    results = run_games(spec, 2, workers=1)
    assert [r.deal for r in results] == [fresh.deal_string(), str(middle)]
    assert results[1] == play_game(spec, 1)
    replayed = KlondikeGame(middle, SEED_002)
    for move in results[1].moves:
        replayed.play(Move.parse(move))
    assert replayed.foundation_count() == results[1].foundation
    with pytest.raises(UsageError, match="only 2 starting positions"):
        run_games(spec, 3, workers=1)


def test_given_fresh_deals_play_as_their_seeds_on_every_path() -> None:
    deals = tuple(Position.from_seed(s) for s in range(40, 70))
    seeded = run_games(RunSpec("priority", SEED_002, seed=40), 30, workers=1)
    for use_fast, workers in ((True, 1), (True, 2), (False, 2)):
        given = run_games(RunSpec("priority", SEED_002, deals=deals), 30, workers=workers, chunk=7,
                          use_fast=use_fast)
        assert [(r.deal, r.moves, r.foundation, r.net) for r in given] == \
               [(r.deal, r.moves, r.foundation, r.net) for r in seeded]


def _other_value(owner: object, name: str) -> object:
    """A valid value for field ``name`` of ``owner`` other than its own."""
    known = {"draw": 3, "passes": 3, "empty": "any", "kind": "standard", "scoring": Scoring(kind="standard")}
    value = getattr(owner, name)
    if name in known:
        return known[name]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    pytest.fail(f"teach this test another value for the new rule field {name!r}")


@pytest.fixture
def kernel_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the games that reach the compiled kernel."""
    calls: list[int] = []
    original = fast.priority_batch_deals

    def counting(deals):  # type: ignore[no-untyped-def]
        calls.append(len(deals))
        return original(deals)

    monkeypatch.setattr(fast, "priority_batch_deals", counting)
    return calls


def test_the_kernel_is_chosen_by_the_whole_rule_identity(kernel_calls: list[int]) -> None:
    for variant in (SEED_002, SEED_002.replace(scoring="none"), Variant.preset("vegas1")):
        assert uses_kernel(RunSpec("priority", variant))
        run_games(RunSpec("priority", variant), 3, workers=1)
        assert kernel_calls == [3], variant
        kernel_calls.clear()
    changed = []
    for field in fields(Variant):
        if field.name != "name":
            changed.append((field.name, SEED_002.replace(**{field.name: _other_value(SEED_002, field.name)})))
    for field in fields(Scoring):
        scoring = Scoring(**{**{f.name: getattr(SEED_002.scoring, f.name) for f in fields(Scoring)},
                             field.name: _other_value(SEED_002.scoring, field.name)})
        changed.append((f"scoring.{field.name}", SEED_002.replace(scoring=scoring)))
    assert {name for name, _ in changed} >= {"draw", "passes", "empty", "foundation_return", "scoring.ante"}
    for name, variant in changed:
        assert variant.rules_key() != SEED_002.rules_key(), name
        spec = RunSpec("priority", variant)
        assert not uses_kernel(spec), name
        results = run_games(spec, 2, workers=1)
        assert kernel_calls == [], name
        assert [r.net for r in results] == [variant.scoring.money(r.foundation) for r in results], name
    assert not uses_kernel(RunSpec("greedy", SEED_002))


def test_money_follows_the_variant_scoring() -> None:
    dear = SEED_002.replace(scoring=Scoring(kind="vegas", ante=100, per_card=3))
    for spec in (RunSpec("greedy", dear, seed=4), RunSpec("priority", SEED_002, seed=4)):
        results = run_games(spec, 10, workers=1)
        money = spec.variant.scoring
        assert list(results.net) == [money.money(f) for f in results.foundation]
        assert [r.net for r in results] == [money.money(r.foundation) for r in results]
        assert [r.net for r in play_batch(spec, range(10))] == list(results.net)


def test_store_keeps_games_with_the_variant_money(tmp_path: Path) -> None:
    dear = SEED_002.replace(scoring=Scoring(kind="vegas", ante=100, per_card=3))
    path = tmp_path / "deep" / "runs.sqlite"
    with ResultsStore(path) as store:
        run_id = store.start_run(kind="simulate", game="klondike", rules="{}",
                                 strategy="greedy", variant=dear.options(), seed=1,
                                 deals_file=None, games=12)
        run_games(RunSpec("greedy", dear, seed=1, keep_moves=False), 12, workers=1, chunk=5,
                  on_batch=lambda batch: store.add_units("games", run_id, batch.rows(dear)))
        store.finish_run(run_id, "finished", {})
        games = store.units("games", run_id)  # index, deal, won, foundation, net, ...
        assert [net for _, _, _, _, net, *_ in games] == [3 * f - 100 for _, _, _, f, *_ in games]
    with ResultsStore(path, create=False) as store:
        assert [run.games_played for run in store.runs()] == [12]
        with pytest.raises(StoreError, match="no run 9"):
            store.run(9)


def test_store_errors_name_the_file_and_listing_changes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite"
    with pytest.raises(StoreError, match=r"missing\.sqlite"):
        ResultsStore(missing, create=False)
    assert not missing.exists()
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just some notes\n" * 50)
    with pytest.raises(StoreError, match=r"notes\.txt"):
        ResultsStore(text)
    assert text.read_text() == "not a database, just some notes\n" * 50
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE birds (name TEXT)")
    db.close()
    before = other.read_bytes()
    for create in (True, False):
        with pytest.raises(StoreError, match=r"other\.sqlite: not a cardtable results store"):
            ResultsStore(other, create=create)
    assert other.read_bytes() == before
    store_path = tmp_path / "runs.sqlite"
    ResultsStore(store_path).close()
    before = store_path.read_bytes()
    with ResultsStore(store_path, create=False) as store:
        assert store.runs() == []
        with pytest.raises(StoreError, match=r"runs\.sqlite"):
            store.start_run(kind="simulate", game="klondike", rules="{}",
                            strategy="priority", variant={}, seed=1, deals_file=None, games=1)
    assert store_path.read_bytes() == before


def test_compare_strategies_rows() -> None:
    rows = compare_strategies(["priority", "greedy", "priority"], SEED_002, 40, seed=3, workers=1)
    assert [row["strategy"] for row in rows] == ["priority", "greedy", "priority"]
    first = ["strategy", "games", "win_rate", "win_rate_low", "win_rate_high", "foundation_mean", "foundation_low",
             "foundation_high", "net_mean"]
    diffs = ["diff_win_rate", "diff_win_rate_low", "diff_win_rate_high", "diff_foundation", "diff_foundation_low",
             "diff_foundation_high"]
    assert list(rows[0]) == first and list(rows[1]) == first + diffs
    assert rows[2]["diff_foundation"] == 0 and rows[2]["diff_win_rate"] == 0
    greedy = run_games(RunSpec("greedy", SEED_002, seed=3), 40, workers=1)
    priority = run_games(RunSpec("priority", SEED_002, seed=3), 40, workers=1)
    assert rows[1]["foundation_mean"] == pytest.approx(float(greedy.foundation.mean()))
    assert rows[1]["diff_foundation"] == pytest.approx(float((greedy.foundation - priority.foundation).mean()))
    deals = tuple(Position.from_seed(s) for s in range(3, 43))
    assert compare_strategies(["priority", "greedy"], SEED_002, 40, deals=deals, executor=LocalExecutor(2)) == \
           rows[:2]


def test_compare_strategies_names_the_known_strategies() -> None:
    with pytest.raises(UsageError, match="unknown strategy 'nobody'; known: priority, turns"):
        compare_strategies(["priority", "nobody"], SEED_002, 5)


@pytest.mark.parametrize(("variant", "shown", "hidden"), [
    ("seed-002", "net winnings", "points"),
    ("standard1", "points", "net winnings"),
    ("draw1", "foundation cards", "net winnings"),
])
def test_the_summary_shows_money_only_for_vegas_and_points_only_for_standard(
        variant: str, shown: str, hidden: str) -> None:
    from cardtable.sim.stats import summarize_games

    results = run_games(RunSpec("greedy", Variant.preset(variant), seed=3), 30, workers=1)
    summary = summarize_games(results, 1.0)
    assert summary.scoring == Variant.preset(variant).scoring.kind
    assert shown in summary.text() and hidden not in summary.text()
    if variant == "standard1":
        assert summary.score_mean == pytest.approx(float(results.score.mean())) and summary.score_mean > 0
