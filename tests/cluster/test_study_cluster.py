"""A winnability study on a real Dask cluster, through the command line: the
same answers as a local study of the same deals, each deal stored once, and
a second run that solves nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cluster.dask_helpers import Cluster, cardtable, finish

from cardtable.klondike import Variant
from cardtable.runs.store import ResultsStore
from cardtable.solver.study import Budget, run_winnability
from cardtable.solver.study_store import study_deals


def test_a_study_on_the_cluster_matches_a_local_one(cluster: Cluster, tmp_path: Path) -> None:
    command = ("study", "winnability", "--variant", "thoughtful1", "--deals", "16", "--seed", "20",
               "--max-states", "50000", "--cluster", cluster.address, "--json")
    status, out, err = finish(cardtable(tmp_path, *command), timeout=120)
    assert status == 0, err
    report = json.loads(out)
    assert (report["solved_now"], report["decided"] + report["undecided"]) == (16, 16)
    store = tmp_path / "data" / "results.sqlite"
    with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
        stored = list(db.execute("SELECT seed, COUNT(*) FROM study_deals GROUP BY seed ORDER BY seed"))
        answers = list(db.execute("SELECT seed, result, states FROM study_deals ORDER BY seed"))
    assert stored == [(seed, 1) for seed in range(20, 36)]
    variant = Variant.preset("thoughtful1")
    with ResultsStore(tmp_path / "local.sqlite") as local:
        expected = run_winnability(local, variant, first_seed=20, deals=16, budget=Budget(max_states=50_000))
        rules = variant.winnability_key
        assert answers == [(deal.seed, deal.result, deal.states) for deal in study_deals(local, rules, 20, 35)]
    for key in ("won", "unwinnable", "undecided", "winnable_low", "winnable_high"):
        assert report[key] == expected.to_dict()[key]
    status, out, err = finish(cardtable(tmp_path, *command), timeout=120)
    assert status == 0, err
    assert json.loads(out)["solved_now"] == 0
