"""Durable runs: a run stopped by Ctrl-C or killed outright (SIGKILL to the
whole command) is finished by ``--resume``, on either backend, with the
same results as a run never stopped, and no unit stored twice."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from cluster.dask_helpers import Cluster, cardtable, finish, run_status, unit_counts, wait_for

from cardtable.klondike import Position, Variant
from cardtable.sim.match import run_hands, summarize_hands
from cardtable.sim.runner import RunSpec, run_games
from cardtable.solver import solve_batch


def _store(tmp_path: Path) -> Path:
    return tmp_path / "data" / "results.sqlite"


def _stop_when_under_way(process: object, store: Path, table: str, signum: int) -> int:
    """Signal the command's process group once some units are stored; returns how many were."""
    from subprocess import Popen

    assert isinstance(process, Popen)
    wait_for(lambda: unit_counts(store, table) or process.poll() is not None, 60, "the first stored units")
    assert process.poll() is None, "the run ended before it could be stopped"
    os.killpg(process.pid, signum)
    process.communicate(timeout=60)
    stored = len(unit_counts(store, table))
    assert stored > 0
    return stored


def test_simulate_stopped_by_ctrl_c_is_finished_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    games, store = 800, _store(tmp_path)
    process = cardtable(tmp_path, "simulate", "--variant", "draw1", "--games", str(games), "--seed", "5",
                        "--workers", "2", "--output", "games.jsonl", "--record", "0", "--no-progress")
    wait_for(lambda: unit_counts(store, "games") or process.poll() is not None, 60, "the first stored games")
    os.killpg(process.pid, signal.SIGINT)
    status, _, err = finish(process)
    assert status == 130, err
    assert "Traceback" not in err
    assert "finish it with 'cardtable simulate --resume 1'" in err
    kept = len(unit_counts(store, "games"))
    assert 0 < kept < games and run_status(store, 1) == "interrupted"

    status, out, err = finish(cardtable(tmp_path, "simulate", "--resume", "1", "--cluster", cluster.address))
    assert status == 0, err
    assert f"resumed run 1: {kept:,} games were stored, {games - kept:,} played now" in out
    assert unit_counts(store, "games") == {index: 1 for index in range(games)}
    assert run_status(store, 1) == "finished"
    local = run_games(RunSpec("priority", Variant.preset("draw1"), seed=5), games, workers=1)
    written = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert written == [game.to_dict() for game in local]


def test_batch_solve_killed_on_the_cluster_is_finished_locally(cluster: Cluster, tmp_path: Path) -> None:
    deals, store = 60, _store(tmp_path)
    (tmp_path / "deals.txt").write_text("".join(f"{seed}\n" for seed in range(1, deals + 1)))
    process = cardtable(tmp_path, "solve", "--deals", "deals.txt", "--variant", "thoughtful1", "--max-states",
                        "100000", "--cluster", cluster.address, "--output", "rows.jsonl", "--no-progress")
    kept = _stop_when_under_way(process, store, "solves", signal.SIGKILL)
    assert not (tmp_path / "rows.jsonl").exists()

    status, _, err = finish(cardtable(tmp_path, "solve", "--resume", "1", "--workers", "2"))
    assert status == 0, err
    assert f"resumed run 1: {kept:,} deals were stored" in err
    assert unit_counts(store, "solves") == {index: 1 for index in range(deals)}
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    local = solve_batch([(str(seed), Position.from_seed(seed)) for seed in range(1, deals + 1)],
                        Variant.preset("thoughtful1"), max_states=100_000)
    assert [{k: v for k, v in row.items() if k != "seconds"} for row in rows] == \
        [{k: v for k, v in row.items() if k != "seconds"} for row in local]


def test_kings_corner_match_killed_with_its_local_cluster_is_finished(tmp_path: Path) -> None:
    hands, store, players = 600, _store(tmp_path), "greedy,random"
    process = cardtable(tmp_path, "kings-corner", "match", "--players", players, "--games", str(hands),
                        "--seed", "4", "--cluster", "local", "--workers", "2", "--json", "--quiet")
    _stop_when_under_way(process, store, "hands", signal.SIGKILL)

    status, out, err = finish(cardtable(tmp_path, "kings-corner", "match", "--resume", "1", "--json",
                                        "--workers", "2"))
    assert status == 0, err
    assert unit_counts(store, "hands") == {index: 1 for index in range(hands)}
    report = json.loads(out)
    report.pop("seconds")
    assert report.pop("interrupted") is False
    local = run_hands(players.split(","), hands, seed=4, workers=1)
    assert report == json.loads(json.dumps(summarize_hands(players.split(","), local, 4, 25).to_dict()))
