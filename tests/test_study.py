"""``cardtable study``: winnability studies that add up, are kept deal by deal
in the results store, and are never solved twice.

Every study here runs under a state budget alone, so its answers are the
same on any machine (only the seconds vary).
"""

from __future__ import annotations

import json
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run, start
from study_helpers import carry_on, interrupt_once_stored, stored_deals, study_report, study_rows

from cardtable.klondike import Position, Variant
from cardtable.runs.store import SCHEMA_VERSION, ResultsStore
from cardtable.sim.played import play_stats
from cardtable.solver import solve_batch
from cardtable.solver.study import Budget, plan_study, run_winnability, winnability_report
from cardtable.solver.study_store import StudyDeal, studies, study_deals
from cardtable.stats import wilson

BUDGET = ("--max-states", "50000")


def test_the_figures_add_up_and_match_the_solver(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = study_report(capsys, tmp_path / "s.sqlite", "--variant", "thoughtful3", "--deals", "20", *BUDGET)
    assert (report["first_seed"], report["last_seed"], report["deals"]) == (1, 20, 20)
    assert report["decided"] == report["won"] + report["unwinnable"]
    assert report["decided"] + report["undecided"] == 20 and report["pending"] == 0
    assert sum(report["undecided_reasons"].values()) == report["undecided"]
    assert (report["solved_now"], report["from_store"]) == (20, 0)
    assert report["budget"] == {"timeout": None, "max_states": 50000}
    assert report["winnable_share"] == pytest.approx(report["won"] / report["decided"])
    low, high = wilson(report["won"], report["decided"])
    assert (report["winnable_low"], report["winnable_high"]) == pytest.approx((low, high))
    assert report["all_deals_low"] == pytest.approx(report["won"] / 20)
    assert report["all_deals_high"] == pytest.approx((report["won"] + report["undecided"]) / 20)
    assert report["mean_seconds"] > 0 and report["median_seconds"] <= report["p90_seconds"]
    assert report["wall_seconds"] > 0
    # The same deals solved directly give the same answers.
    rows = solve_batch([(str(seed), Position.from_seed(seed)) for seed in range(1, 21)],
                       Variant.preset("thoughtful3"), max_states=50_000)
    results = [row["result"] for row in rows]
    assert (results.count("won"), results.count("unwinnable"), results.count("unknown")) == \
        (report["won"], report["unwinnable"], report["undecided"])
    assert report["undecided"] > 0, "the budget should leave some deals open, or the reasons go untested"
    assert report["undecided_reasons"] == {"state budget of 50000 states reached": report["undecided"]}


def test_the_text_report_says_the_same(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "study", "winnability", "--store", str(tmp_path / "s.sqlite"), "--variant",
                         "thoughtful3", "--deals", "20", "--no-progress", *BUDGET)
    assert code == 0, err
    report = study_report(capsys, tmp_path / "s.sqlite", "--variant", "thoughtful3", "--deals", "20", *BUDGET)
    lines = out.splitlines()
    assert lines[0] == "thoughtful3: deals 1 to 20, no time limit and 50,000 states a deal"
    assert lines[1] == (f"20 deals: {report['decided']} decided ({report['won']} won, {report['unwinnable']} "
                        f"unwinnable), {report['undecided']} undecided")
    assert f"(95% interval {100 * report['winnable_low']:.2f}%..{100 * report['winnable_high']:.2f}%)" in out
    assert lines[-1].startswith("20 solved now, 0 from the store; wall time ")


def test_a_second_run_solves_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "s.sqlite"
    first = study_report(capsys, store, "--variant", "thoughtful1", "--deals", "20", *BUDGET)
    before = study_rows(store)
    assert len(before) == 20

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was solved again")

    monkeypatch.setattr("cardtable.solver.batch.solve_batch", no_solving)
    again = study_report(capsys, store, "--variant", "thoughtful1", "--deals", "20", *BUDGET)
    assert study_rows(store) == before  # same rows, same ids, same timestamps
    assert (again["solved_now"], again["from_store"]) == (0, 20)
    assert again["wall_seconds"] < 1.0
    same = ("won", "unwinnable", "undecided", "winnable_low", "winnable_high", "mean_seconds", "p90_seconds")
    assert {key: again[key] for key in same} == {key: first[key] for key in same}
    code, out, _ = run(capsys, "study", "winnability", "--store", str(store), "--variant", "thoughtful1",
                       "--deals", "20", *BUDGET)
    assert code == 0 and out.splitlines()[-1].startswith("0 solved now, 20 from the store")
    # A preset with the same rules is the same study of the same deals.
    assert study_report(capsys, store, "--variant", "draw1", "--foundation-return", "--deals", "20",
                  *BUDGET)["solved_now"] == 0


def test_more_deals_extend_the_study(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import cardtable.solver.batch as batch

    store = tmp_path / "s.sqlite"
    study_report(capsys, store, "--variant", "thoughtful3", "--deals", "12", *BUDGET)
    before = study_rows(store)
    solved: list[str] = []
    real = batch.solve_batch

    def recording(deals: list[tuple[str, Position]], *args: Any, **kwargs: Any) -> list[dict[str, object]]:
        solved.extend(label for label, _ in deals)
        return real(deals, *args, **kwargs)

    monkeypatch.setattr(batch, "solve_batch", recording)
    report = study_report(capsys, store, "--variant", "thoughtful3", "--deals", "20", *BUDGET)
    assert solved == [str(seed) for seed in range(13, 21)]
    assert (report["solved_now"], report["from_store"], report["decided"] + report["undecided"]) == (8, 12, 20)
    after = study_rows(store)
    assert after[:12] == before and [row[2] for row in after[12:]] == list(range(13, 21))
    whole = study_report(capsys, tmp_path / "fresh.sqlite", "--variant", "thoughtful3", "--deals", "20", *BUDGET)
    for key in ("won", "unwinnable", "undecided", "winnable_low", "winnable_high"):
        assert report[key] == whole[key]


def test_undecided_deals_are_tried_again_only_under_a_larger_budget(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    small = study_report(capsys, store, "--deals", "20", "--max-states", "5000")
    assert small["undecided"] > 0
    smaller = study_report(capsys, store, "--deals", "20", "--max-states", "3000")
    assert smaller["solved_now"] == 0  # decided deals are known; the open ones had more states already
    assert smaller["undecided"] == small["undecided"]
    larger = study_report(capsys, store, "--deals", "20", "--max-states", "50000")
    assert larger["solved_now"] == small["undecided"]  # only the open deals
    assert larger["decided"] >= small["decided"]
    assert larger["undecided_reasons"] == ({"state budget of 50000 states reached": larger["undecided"]}
                                           if larger["undecided"] else {})
    # A time limit allows less than none: nothing is tried again.
    assert study_report(capsys, store, "--deals", "20", "--max-states", "50000", "--timeout", "100")["solved_now"] == 0


def test_the_rules_of_a_retry() -> None:
    rules = Variant.preset("thoughtful1").winnability_key
    open_row = StudyDeal(rules, 5, 30.0, 1000, "unknown", 10, 30.0, "time limit of 30 s reached")
    won_row = StudyDeal(rules, 6, None, 10, "won", 10, 0.1, moves=("D",))
    assert plan_study([open_row, won_row], range(5, 7), Budget(30.0, 1000)).todo == []
    assert plan_study([open_row, won_row], range(5, 7), Budget(60.0, 1000)).todo == [5]
    assert plan_study([open_row, won_row], range(5, 7), Budget(None, 1000)).todo == [5]
    assert plan_study([open_row, won_row], range(5, 7), Budget(10.0, 2000)).todo == [5]
    assert plan_study([open_row, won_row], range(5, 8), Budget(10.0, 500)).todo == [7]
    assert plan_study([open_row, won_row], range(5, 7), Budget(10.0, 500)).answers == {5: open_row, 6: won_row}
    # Told to retry, an undecided deal is solved again under any budget; a decided one never is.
    assert plan_study([open_row, won_row], range(5, 7), Budget(30.0, 1000), retry_undecided=True).todo == [5]
    assert plan_study([open_row, won_row], range(5, 7), Budget(10.0, 500), retry_undecided=True).todo == [5]
    assert plan_study([won_row], range(6, 7), Budget(None, 5), retry_undecided=True).todo == []


def test_json_output_parses_from_a_subprocess(tmp_path: Path) -> None:
    process = start(tmp_path, "study", "winnability", "--variant", "thoughtful1", "--deals", "10", "--seed", "40",
                     "--json", *BUDGET)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    report = json.loads(out)
    assert (report["variant"], report["first_seed"], report["last_seed"], report["solved_now"]) == \
        ("thoughtful1", 40, 49, 10)
    assert (tmp_path / "data" / "results.sqlite").is_file()  # the default store, as other commands use


def test_two_workers_give_the_same_answers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one = tmp_path / "one.sqlite"
    two = tmp_path / "two.sqlite"
    study_report(capsys, one, "--deals", "20", "--seed", "100", *BUDGET)
    report = study_report(capsys, two, "--deals", "20", "--seed", "100", "--workers", "2", *BUDGET)
    assert report["solved_now"] == 20

    def answers(store: Path) -> list[tuple[Any, ...]]:
        return [row[1:6] for row in sorted(study_rows(store), key=lambda row: row[2])]

    assert answers(one) == answers(two)
    assert [row[1] for row in answers(two)] == list(range(100, 120))


def test_show_lists_the_stored_studies_without_changing_the_store(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    three = study_report(capsys, store, "--variant", "thoughtful3", "--deals", "12", *BUDGET)
    one = study_report(capsys, store, "--variant", "thoughtful1", "--deals", "8", "--seed", "30", *BUDGET)
    before = store.read_bytes()
    code, out, err = run(capsys, "study", "show", "--store", str(store), "--json")
    assert code == 0, err
    listed = json.loads(out)
    figures = ("variant", "first_seed", "deals", "won", "unwinnable", "undecided", "winnable_low")
    assert [{key: study[key] for key in figures} for study in listed] == \
        [{key: report[key] for key in figures} for report in (three, one)]
    code, out, _ = run(capsys, "study", "show", "--store", str(store), "--variant", "thoughtful1")
    assert code == 0
    assert "thoughtful1: deals 30 to 37" in out and "thoughtful3" not in out
    assert f"8 deals: {one['decided']} decided ({one['won']} won" in out
    assert store.read_bytes() == before
    code, out, err = run(capsys, "study", "show", "--store", str(tmp_path / "none.sqlite"))
    assert (code, out, err) == (0, "", "no studies stored\n")
    assert not (tmp_path / "none.sqlite").exists()


@pytest.mark.parametrize(("args", "message"), [
    (("--deals", "-3"), "--deals must be at least 1, not -3"),
    (("--deals", "0"), "--deals must be at least 1, not 0"),
    (("--deals", "many"), "--deals must be a whole number, not 'many'"),
    (("--deals", "5", "--variant", "nosuch"), "unknown variant 'nosuch'"),
    (("--deals", "5", "--seed", str(2**63 - 2)), "a study's deals must end by deal 9223372036854775807"),
    (("--deals", "5", "--timeout", "-1"), "must be a positive number of seconds"),
    (("--deals", "5", "--max-states", "0"), "--max-states must be at least 1"),
    (("--deals", "5", "--workers", "2", "--cluster", "tcp://127.0.0.1:1"), "--workers is for local processes"),
    (("--deals", "5", "--passes", "0"), "passes"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            args: tuple[str, ...], message: str) -> None:
    code, out, err = run(capsys, "study", "winnability", "--store", str(tmp_path / "s.sqlite"), *args)
    assert code == 2 and out == ""
    assert message in err.splitlines()[-1], err
    assert "Traceback" not in err
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("command", ["winnability", "show"])
def test_a_store_that_is_a_directory_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                command: str) -> None:
    extra = ("--deals", "3") if command == "winnability" else ()
    code, out, err = run(capsys, "study", command, "--store", str(tmp_path), *extra)
    assert (code, out) == (2, "")
    assert err == f"cardtable: error: {tmp_path}: is a directory, not a results store\n"


def test_a_file_that_is_not_a_store_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n")
    code, _, err = run(capsys, "study", "winnability", "--store", str(path), "--deals", "3")
    assert code == 2 and err.startswith(f"cardtable: error: {path}: ") and len(err.splitlines()) == 1
    assert path.read_text() == "not a database\n"


def test_show_needs_a_variant_for_its_flags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "study", "show", "--store", str(tmp_path / "s.sqlite"), "--draw", "3")
    assert code == 2 and "--draw changes a variant: name it too" in err
    code, _, err = run(capsys, "study")
    assert code == 2 and err == "cardtable: error: choose a study: winnability or show (see 'cardtable study --help')\n"


@pytest.mark.parametrize(("workers", "signum"), [(1, signal.SIGINT), (2, signal.SIGTERM)])
def test_an_interrupted_study_keeps_its_deals_and_carries_on(tmp_path: Path, workers: int, signum: int) -> None:
    command = ("study", "winnability", "--variant", "thoughtful3", "--deals", "600", "--max-states", "5000",
               "--workers", str(workers), "--no-progress", "--json")
    store = tmp_path / "data" / "results.sqlite"
    out, err = interrupt_once_stored(start(tmp_path, *command), store, signum)
    kept = stored_deals(store)
    assert 5 <= kept < 600
    what = "interrupted by SIGTERM" if signum == signal.SIGTERM else "interrupted"
    assert err.splitlines()[-1] == (f"cardtable: {what}: kept the {kept:,} deals solved now ({kept} of 600 "
                                    "answered); run the same command to carry on")
    partial = json.loads(out)
    assert (partial["solved_now"], partial["pending"]) == (kept, 600 - kept)
    before = carry_on(tmp_path, command, store, 600)
    # The deals kept are the deals a fresh solve gives.
    seeds = [row[2] for row in before][:10]
    fresh = solve_batch([(str(seed), Position.from_seed(seed)) for seed in seeds], Variant.preset("thoughtful3"),
                        max_states=5000)
    assert [row[4] for row in before][:10] == [row["result"] for row in fresh]


def test_a_study_stopped_in_the_library_keeps_what_finished(tmp_path: Path) -> None:
    seen: list[int] = []

    def stop_after_three(deal: StudyDeal) -> None:
        seen.append(deal.seed)
        if len(seen) == 3:
            raise KeyboardInterrupt

    variant, budget = Variant.preset("thoughtful1"), Budget(max_states=20_000)
    with ResultsStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            run_winnability(store, variant, first_seed=7, deals=10, budget=budget, on_deal=stop_after_three)
        partial = winnability_report(store, variant, first_seed=7, deals=10, budget=budget)
        assert (partial.answered, partial.pending) == (3, 7)
        report = run_winnability(store, variant, first_seed=7, deals=10, budget=budget)
    assert seen == [7, 8, 9] and (report.solved_now, report.answered) == (7, 10)


#: A store as cardtable wrote it at schema version 3, before studies were kept.
_VERSION_3 = """
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, kind TEXT NOT NULL,
    strategy TEXT NOT NULL, variant TEXT NOT NULL, seed INTEGER, deals_file TEXT, games_requested INTEGER NOT NULL,
    games_played INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, summary TEXT, pid INTEGER, host TEXT, params TEXT);
CREATE TABLE games (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, deal TEXT,
    won INTEGER NOT NULL, foundation INTEGER NOT NULL, net INTEGER NOT NULL, moves INTEGER, score INTEGER,
    detail TEXT, PRIMARY KEY (run_id, idx));
CREATE TABLE played (id INTEGER PRIMARY KEY AUTOINCREMENT, finished TEXT NOT NULL, variant TEXT NOT NULL,
    options TEXT NOT NULL, start TEXT NOT NULL, won INTEGER NOT NULL, seconds REAL NOT NULL, moves INTEGER NOT NULL,
    foundation INTEGER NOT NULL);
CREATE TABLE played_hands (id INTEGER PRIMARY KEY AUTOINCREMENT, finished TEXT NOT NULL, label TEXT NOT NULL,
    match_seed TEXT NOT NULL, hand INTEGER NOT NULL, won INTEGER NOT NULL, penalty INTEGER NOT NULL,
    seconds REAL NOT NULL, match_won INTEGER);
CREATE TABLE solves (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, deal TEXT NOT NULL,
    result TEXT NOT NULL, moves TEXT NOT NULL, states INTEGER NOT NULL, seconds REAL NOT NULL, reason TEXT,
    PRIMARY KEY (run_id, idx));
CREATE TABLE hands (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, seating TEXT NOT NULL,
    winner INTEGER, penalties TEXT NOT NULL, turns INTEGER NOT NULL, PRIMARY KEY (run_id, idx));
INSERT INTO runs (created, kind, strategy, variant, seed, games_requested, games_played, status, summary)
    VALUES ('2026-01-01 10:00:00', 'simulate', 'priority', '{"name": "seed-002"}', 1, 2, 2, 'finished', '{}');
INSERT INTO played (finished, variant, options, start, won, seconds, moves, foundation)
    VALUES ('2026-01-01 11:00:00', 'draw1', '{}', 'seed 7', 1, 200.0, 120, 52);
PRAGMA user_version = 3;
"""


def test_a_version_3_store_gains_the_study_tables_in_place(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(_VERSION_3)
    before = path.read_bytes()
    code, _, err = run(capsys, "study", "show", "--store", str(path))  # read-only: no studies, nothing changed
    assert (code, err) == (0, "no studies stored\n")
    with ResultsStore(path, create=False) as store:
        assert studies(store) == [] and study_deals(store, Variant.preset("draw1").winnability_key, 0, 10) == []
    assert path.read_bytes() == before
    report = study_report(capsys, path, "--deals", "5", *BUDGET)
    assert report["solved_now"] == 5
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (8,)  # 7: game, rules; 8: totals
        assert db.execute("SELECT COUNT(*) FROM study_deals").fetchone() == (5,)
        assert db.execute("SELECT COUNT(*) FROM played").fetchone() == (1,)
    with ResultsStore(path, create=False) as store:
        assert [(run.id, run.status) for run in store.runs()] == [(1, "finished")]
        assert play_stats(store)[0].played == 1
        [study] = studies(store)
        assert (study.kind, study.label, study.first_seed, study.deals) == ("winnability", "thoughtful3", 1, 5)


def test_a_study_row_checks_itself() -> None:
    rules = Variant.preset("draw3").winnability_key
    with pytest.raises(ValueError, match="result must be won, unwinnable or unknown"):
        StudyDeal(rules, 1, None, 10, "lost", 1, 0.1)
    with pytest.raises(ValueError, match="a study's seeds go from 0 to"):
        StudyDeal(rules, -1, None, 10, "won", 1, 0.1)
    with pytest.raises(ValueError, match="not a solver budget"):
        StudyDeal(rules, 1, 0.0, 10, "won", 1, 0.1)
