"""Winnability studies, proven winnable deals and "can this still be won" for
every patience game, as Klondike's (``study winnability --game``, ``deal
--game --winnable/--daily``, ``solve --game --file RECORD``).

Every study here runs under a state budget alone, so its answers are the
same on any machine.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run, start
from study_helpers import carry_on, interrupt_once_stored, stored_deals, study_report, study_rows

from cardtable.klondike import Variant
from cardtable.patience import PatienceGame, get
from cardtable.patience.moves import DEAL
from cardtable.patience.position import read_position
from cardtable.patience.record import PatienceRecord
from cardtable.runs.store import ResultsStore
from cardtable.solver.patience import solve_game
from cardtable.solver.patience_deals import PATIENCE_PROOF_STATES, daily_game, winnable_game
from cardtable.solver.patience_study import (
    patience_winnability_report,
    run_patience_winnability,
    study_key,
)
from cardtable.solver.study import Budget
from cardtable.solver.study_store import StudyDeal, add_study_deal, studies
from cardtable.stats import wilson

BUDGET = ("--max-states", "3000")


@pytest.mark.parametrize("game", ["golf", "bakers-game", "black-hole", "tripeaks"])
def test_a_game_study_adds_up_matches_the_solver_and_resumes(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             game: str) -> None:
    store = tmp_path / "s.sqlite"
    report = study_report(capsys, store, "--game", game, "--deals", "6", "--seed", "3", *BUDGET)
    assert (report["first_seed"], report["last_seed"], report["solved_now"]) == (3, 8, 6)
    assert report["decided"] + report["undecided"] == 6 and report["pending"] == 0
    assert report["budget"] == {"timeout": None, "max_states": 3000}
    assert report["rules"]["game"] == game
    if report["decided"]:
        low, high = wilson(report["won"], report["decided"])
        assert (report["winnable_low"], report["winnable_high"]) == pytest.approx((low, high))
    description = get(game)
    results = [solve_game(PatienceGame.from_seed(description, seed), max_states=3000).result for seed in range(3, 9)]
    assert [row[4] for row in sorted(study_rows(store), key=lambda row: row[2])] == results
    assert (results.count("won"), results.count("unwinnable"), results.count("unknown")) == \
        (report["won"], report["unwinnable"], report["undecided"])
    again = study_report(capsys, store, "--game", game, "--deals", "6", "--seed", "3", *BUDGET)
    assert (again["solved_now"], again["from_store"], again["won"]) == (0, 6, report["won"])
    more = study_report(capsys, store, "--game", game, "--deals", "8", "--seed", "3", *BUDGET)
    assert (more["solved_now"], more["from_store"]) == (2, 6)


def test_games_options_and_klondike_keep_their_own_studies(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    golf = study_report(capsys, store, "--game", "golf", "--deals", "4", *BUDGET)
    queens = study_report(capsys, store, "--game", "golf:queens-on-kings", "--deals", "4", *BUDGET)
    klondike = study_report(capsys, store, "--variant", "thoughtful3", "--deals", "4", *BUDGET)
    assert golf["solved_now"] == queens["solved_now"] == klondike["solved_now"] == 4
    assert queens["rules"]["game"] == golf["rules"]["game"] == "golf" and queens["rules"] != golf["rules"]
    assert queens["variant"] == "Golf +queens-on-kings" and "game" not in klondike["rules"]
    assert klondike["rules"] == json.loads(Variant.preset("thoughtful3").winnability_key)  # Klondike's key, as before
    code, out, err = run(capsys, "study", "show", "--store", str(store), "--json", "--game", "golf")
    assert code == 0, err
    assert [(study["variant"], study["deals"]) for study in json.loads(out)] == [("Golf", 4)]
    code, out, err = run(capsys, "study", "show", "--store", str(store), "--json")
    assert sorted(study["variant"] for study in json.loads(out)) == ["Golf", "Golf +queens-on-kings", "thoughtful3"]


def test_the_key_follows_the_rules_not_the_words(tmp_path: Path) -> None:
    data = get("fan").to_json()
    data["title"], data["description"] = "Another Fan", "the same rules in other words"
    reworded = tmp_path / "fan.json"
    reworded.write_text(json.dumps(data))
    data["foundations"]["may-return"] = True
    changed = tmp_path / "fan-returns.json"
    changed.write_text(json.dumps(data))
    from cardtable.patience import load

    assert study_key(load(str(reworded))) == study_key(get("fan"))
    assert study_key(load(str(changed))) != study_key(get("fan"))


def test_a_store_made_before_accordion_went_by_its_top_cards_is_not_reused(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path) -> None:
    """Deals studied when a pile moved whole went by its bottom card were
    stored under Accordion's name and its rules key of then; the key has
    changed with the engine's reading, so the study solves them again."""
    store = tmp_path / "s.sqlite"
    old_key = "sha256:e3338a0b0186d7e6"
    assert study_key(get("accordion")) != ("accordion", old_key)
    with ResultsStore(store) as opened:
        for seed in (1, 2):
            add_study_deal(opened, StudyDeal(old_key, seed, None, 3000, "unwinnable", 10, 0.01, game="accordion"))
    report = study_report(capsys, store, "--game", "accordion", "--deals", "2", "--seed", "1", *BUDGET)
    assert (report["solved_now"], report["from_store"]) == (2, 0)
    again = study_report(capsys, store, "--game", "accordion", "--deals", "2", "--seed", "1", *BUDGET)
    assert (again["solved_now"], again["from_store"]) == (0, 2)


def test_retry_undecided_solves_again_what_a_weaker_search_left_open(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    """A deal stored undecided under this very budget (as a weaker search
    left it) is an answer for a plain run; --retry-undecided solves it again
    and its answer replaces the old row."""
    store = tmp_path / "s.sqlite"
    description = get("bakers-game")
    game, rules = study_key(description)
    assert solve_game(PatienceGame.from_seed(description, 7), max_states=3000).result == "won"
    with ResultsStore(store) as opened:
        from cardtable.solver.study_store import add_study_deal

        add_study_deal(opened, StudyDeal(rules, 7, None, 3000, "unknown", 3000, 0.1,
                                         "state budget of 3000 states reached", game=game))
    args = ("--game", "bakers-game", "--seed", "7", "--deals", "1", *BUDGET)
    plain = study_report(capsys, store, *args)
    assert (plain["solved_now"], plain["undecided"], plain["won"]) == (0, 1, 0)
    retried = study_report(capsys, store, *args, "--retry-undecided")
    assert (retried["solved_now"], retried["undecided"], retried["won"]) == (1, 0, 1)
    assert [row[4] for row in study_rows(store) if row[2] == 7] == ["won"]  # replaced, not added
    assert study_report(capsys, store, *args)["won"] == retried["won"]
    assert study_report(capsys, store, *args, "--retry-undecided")["solved_now"] == 0  # nothing left open


def test_a_study_stopped_in_the_library_keeps_what_finished(tmp_path: Path) -> None:
    seen: list[int] = []

    def stop_after_three(deal: StudyDeal) -> None:
        seen.append(deal.seed)
        if len(seen) == 3:
            raise KeyboardInterrupt

    description, budget = get("bakers-game"), Budget(max_states=3000)
    with ResultsStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            run_patience_winnability(store, description, first_seed=7, deals=10, budget=budget,
                                     on_deal=stop_after_three)
        partial = patience_winnability_report(store, description, first_seed=7, deals=10, budget=budget)
        assert (partial.answered, partial.pending) == (3, 7)
        report = run_patience_winnability(store, description, first_seed=7, deals=10, budget=budget)
        assert [info.label for info in studies(store)] == ["Baker's Game"]
    assert seen == [7, 8, 9] and (report.solved_now, report.answered) == (7, 10)


@pytest.mark.parametrize(("workers", "signum"), [(1, signal.SIGINT),
                                                 pytest.param(2, signal.SIGTERM, marks=pytest.mark.slow)])
def test_a_killed_game_study_loses_no_finished_deal(tmp_path: Path, workers: int, signum: int) -> None:
    command = ("study", "winnability", "--game", "golf", "--deals", "1000", "--max-states", "1000",
               "--workers", str(workers), "--no-progress", "--json")
    store = tmp_path / "data" / "results.sqlite"
    out, _ = interrupt_once_stored(start(tmp_path, *command), store, signum)
    kept = stored_deals(store)
    assert 5 <= kept < 1000
    assert json.loads(out)["solved_now"] == kept
    carry_on(tmp_path, command, store, 1000)


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_answers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    local = study_report(capsys, tmp_path / "local.sqlite", "--game", "golf", "--deals", "20", *BUDGET)
    dask = study_report(capsys, tmp_path / "dask.sqlite", "--game", "golf", "--deals", "20", "--cluster", "local",
                  "--workers", "2", *BUDGET)
    assert dask["solved_now"] == 20

    def answers(store: Path) -> list[tuple[Any, ...]]:
        return [row[1:6] for row in sorted(study_rows(store), key=lambda row: row[2])]

    assert answers(tmp_path / "dask.sqlite") == answers(tmp_path / "local.sqlite")
    assert (dask["won"], dask["unwinnable"]) == (local["won"], local["unwinnable"])


@pytest.mark.parametrize("game", ["freecell", "tripeaks", pytest.param("golf", marks=pytest.mark.slow)])
def test_a_winnable_deal_is_proven_the_same_each_time_and_replays(capsys: pytest.CaptureFixture[str],
                                                                 game: str) -> None:
    description = get(game)
    code, out, err = run(capsys, "deal", "--game", game, "--seed", "5", "--winnable")
    assert code == 0, err
    found = winnable_game(5, description)
    assert f"(seed {found.seed}," in err
    dealt = read_position(description, out.strip())
    assert dealt.piles == found.game(description).piles
    assert solve_game(dealt, max_states=PATIENCE_PROOF_STATES).result == "won"
    replay = found.game(description)
    for text in found.moves:
        moves = {str(move): move for move in replay.legal_moves()}
        replay.play(moves[text])
    assert replay.is_won()
    code, again, _ = run(capsys, "deal", "--game", game, "--seed", "5", "--winnable")
    assert again == out


def test_the_daily_deal_is_per_game_and_date(capsys: pytest.CaptureFixture[str]) -> None:
    import datetime

    code, out, err = run(capsys, "deal", "--game", "freecell", "--daily", "--date", "2026-03-04")
    assert code == 0, err
    day = datetime.date(2026, 3, 4)
    found = daily_game(day, get("freecell"))
    assert read_position(get("freecell"), out.strip()).piles == found.game(get("freecell")).piles
    assert daily_game(datetime.date(2026, 3, 5), get("freecell")).seed != found.seed
    assert daily_game(day, get("bakers-game")).seed != found.seed


def test_can_this_still_be_won_from_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    description = get("golf")
    found = winnable_game(1, description)
    game = found.game(description)
    start = tmp_path / "start.txt"
    start.write_text(str(PatienceRecord.from_game(game.clone(), found.seed)))
    code, out, err = run(capsys, "solve", "--game", "golf", "--file", str(start), "--max-states", "300000",
                         "--json")
    assert code == 0 and json.loads(out)["result"] == "won", err
    while DEAL in game.legal_moves():  # every stock card to the hole, nothing from the tableau: lost
        game.play(DEAL)
    stuck = tmp_path / "stuck.txt"
    stuck.write_text(str(PatienceRecord.from_game(game, found.seed)))
    code, out, err = run(capsys, "solve", "--game", "golf", "--file", str(stuck), "--max-states", "300000",
                         "--json")
    assert code == 0 and json.loads(out)["result"] == "unwinnable", err


@pytest.mark.parametrize(("args", "message"), [
    (("study", "winnability", "--game", "no-such-game", "--deals", "3"), "no-such-game"),
    (("study", "winnability", "--game", "golf", "--variant", "draw1", "--deals", "3"), "--variant"),
    (("study", "winnability", "--game", "golf:nope", "--deals", "3"), "nope"),
    (("study", "show", "--game", "golf", "--draw", "1"), "--draw"),
    (("deal", "--game", "golf", "--winnable"), "--winnable goes with --seed"),
    (("deal", "--game", "freecell", "--winnable", "--seed", "ms:4"), "whole-number --seed"),
    (("deal", "--game", "golf", "--daily", "--winnable"), "leave out --winnable"),
    (("deal", "--game", "golf", "--seed", "3", "--date", "2026-01-01"), "--date goes with --daily"),
    (("deal", "--game", "golf", "--daily", "--date", "2026-13-01"), "YYYY-MM-DD"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            args: tuple[str, ...], message: str) -> None:
    extra = ("--store", str(tmp_path / "s.sqlite")) if args[0] == "study" else ()
    code, out, err = run(capsys, *args, *extra)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert not (tmp_path / "s.sqlite").exists()
