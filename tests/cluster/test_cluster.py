"""The three batch commands on a real Dask cluster, through the command line.

A scheduler and two workers run as separate processes (see conftest.py).
Each command runs on them and must store every unit exactly once and give
the same games, deals and hands as a local run with the same seeds; the
simulation also loses a worker (SIGKILL) while it runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cluster.dask_helpers import Cluster, cardtable, finish, free_port, run_status, unit_counts, wait_for

from cardtable.cli import main
from cardtable.klondike import Position, Variant
from cardtable.sim.match import run_hands
from cardtable.sim.runner import RunSpec, run_games
from cardtable.solver import solve_batch


def _without_seconds(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{key: value for key, value in row.items() if key != "seconds"} for row in rows]


def test_simulate_survives_a_worker_killed_mid_run(cluster: Cluster, tmp_path: Path) -> None:
    games = 800
    store = tmp_path / "data" / "results.sqlite"
    process = cardtable(tmp_path, "simulate", "--variant", "draw1", "--games", str(games), "--seed", "40",
                        "--cluster", cluster.address, "--output", "games.jsonl", "--record", "0", "--no-progress")
    wait_for(lambda: len(unit_counts(store, "games")) >= 50 or process.poll() is not None, 60, "the first games")
    assert process.poll() is None, "the run ended before a worker could be killed"
    cluster.kill_worker()
    status, out, err = finish(process)
    assert status == 0, err
    assert "Traceback" not in err
    assert f"cluster {cluster.address}" in out
    counts = unit_counts(store, "games")
    assert sorted(counts) == list(range(games)) and set(counts.values()) == {1}
    assert run_status(store, 1) == "finished"
    local = run_games(RunSpec("priority", Variant.preset("draw1"), seed=40), games, workers=1)
    written = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert written == [game.to_dict() for game in local]


def test_batch_solve_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    (tmp_path / "deals.txt").write_text("".join(f"{seed}\n" for seed in range(1, 13)))
    status, _, err = finish(cardtable(tmp_path, "solve", "--deals", "deals.txt", "--variant", "thoughtful1",
                                      "--max-states", "50000", "--cluster", cluster.address,
                                      "--output", "rows.jsonl"))
    assert status == 0, err
    assert "12 deals:" in err
    store = tmp_path / "data" / "results.sqlite"
    assert unit_counts(store, "solves") == {index: 1 for index in range(12)}
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    local = solve_batch([(str(seed), Position.from_seed(seed)) for seed in range(1, 13)],
                        Variant.preset("thoughtful1"), max_states=50_000)
    assert _without_seconds(rows) == _without_seconds(local)


def test_kings_corner_match_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    players = "greedy,random,greedy"
    status, out, err = finish(cardtable(tmp_path, "kings-corner", "match", "--players", players, "--games", "300",
                                        "--seed", "9", "--cluster", cluster.address, "--json"))
    assert status == 0, err
    report = json.loads(out)
    store = tmp_path / "data" / "results.sqlite"
    assert unit_counts(store, "hands") == {index: 1 for index in range(300)}
    local = run_hands(players.split(","), 300, seed=9, workers=1)
    from cardtable.sim.match import summarize_hands

    expected = summarize_hands(players.split(","), local, 9, 25).to_dict()
    report.pop("seconds")
    assert report.pop("interrupted") is False
    assert report == json.loads(json.dumps(expected))


def test_an_unreachable_scheduler_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cardtable.runs.cluster.CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    code = main(["simulate", "--games", "10", "--cluster", address, "--store", str(tmp_path / "s.sqlite")])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith(f"cardtable: error: cannot reach the Dask scheduler at {address} within 1 s")
    assert err.count("\n") == 1


def test_a_bad_address_is_refused_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--cluster", "http://scheduler", "--no-store"])
    assert exit_.value.code == 2
    assert "is not a Dask scheduler address" in capsys.readouterr().err


def test_without_dask_the_error_says_what_to_install(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    code = main(["kings-corner", "match", "--games", "5", "--cluster", "local", "--no-store"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == 'cardtable: error: running on a Dask cluster needs dask[distributed]: pip install ' \
                  '"cardtable[cluster]"\n'


def test_the_library_and_the_local_commands_never_import_dask(tmp_path: Path) -> None:
    probe = ("import sys, cardtable, cardtable.sim, cardtable.runs.cluster, cardtable.solver\n"
             "from cardtable.cli import main\n"
             "assert main(['simulate', '--games', '3', '--no-store', '--record', '0', '--workers', '1']) == 0\n"
             "assert main(['kings-corner', 'match', '--games', '3', '--no-store', '--workers', '1']) == 0\n"
             "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
             "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"CARDTABLE_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


def test_only_the_cluster_module_imports_dask_and_only_inside_functions() -> None:
    import ast

    from test_import_contracts import MODULES, imports

    def dask(names: set[str]) -> list[str]:
        return sorted(name for name in names if name.split(".")[0] in ("dask", "distributed"))

    assert [name for name, path in MODULES.items() if dask(imports(path))] == ["cardtable.runs.cluster"]
    tree = ast.parse(MODULES["cardtable.runs.cluster"].read_text(encoding="utf-8"))
    statements = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    top_level = {alias.name for node in statements for alias in node.names}
    top_level |= {node.module or "" for node in statements if isinstance(node, ast.ImportFrom)}
    assert dask(top_level) == []
