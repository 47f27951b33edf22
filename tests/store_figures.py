"""Every figure a results store gives through the library and the command
line, read-only, as plain JSON values: the migration test compares those of
a store written by an older cardtable with those of the same store upgraded.

``tests/data/store_v6/figures.json`` holds the figures that cardtable's
schema-6 code (commit 36b0fd6) read from ``tests/data/store_v6/results.sqlite``,
which that code wrote: run ``python tests/store_figures.py STORE OUT.json``
with that code on ``PYTHONPATH`` to make them again. Only the calls that both
versions have are made.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import sys
from pathlib import Path
from typing import Any

#: The day daily streaks are counted up to (the figures must not depend on today).
TODAY = datetime.date(2026, 11, 29)

#: Read-only commands whose output does not depend on the day they run.
COMMANDS = (("runs", "--limit", "100"), ("runs", "--limit", "100", "--json"), ("study", "show"),
            ("study", "show", "--json"), ("stats", "kings-corner"), ("stats", "kings-corner", "--json"))


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=lambda item: item.__dict__))


def _command(path: Path, *args: str) -> dict[str, Any]:
    from cardtable.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*args, "--store", str(path)])
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}


def figures(path: Path) -> dict[str, Any]:
    """Every figure of the store at ``path`` (opened read-only)."""
    from cardtable.runs.store import UNIT_TABLES, ResultsStore
    from cardtable.sim.played import daily_stats, hand_stats, play_stats, played_games, played_hands
    from cardtable.solver.study_store import studies, study_deals

    found: dict[str, Any] = {}
    with ResultsStore(path, create=False) as store:
        runs = store.runs(1000)
        fields = ("id", "created", "kind", "strategy", "variant", "seed", "deals_file", "games_requested",
                  "games_played", "status", "summary")
        found["runs"] = [{name: getattr(run, name) for name in fields} for run in runs]
        found["params"] = {run.id: store.run_params(run.id) for run in runs}
        found["units"] = {f"{table} {run.id}": _plain(store.units(table, run.id)) for run in runs
                          for table in UNIT_TABLES}
        for player in (None, "alice-0123456789ab", "bob-0123456789abcd"):
            found[f"play_stats {player}"] = _plain(play_stats(store, player=player))
            found[f"daily_stats {player}"] = _plain(daily_stats(store, TODAY, player=player))
            found[f"hand_stats {player}"] = _plain(hand_stats(store, player=player))
            found[f"played_games {player}"] = _plain(played_games(store, player=player))
            found[f"played_hands {player}"] = _plain(played_hands(store, player=player))
        found["play_stats draw3"] = _plain(play_stats(store, "draw3"))
        listed = studies(store)
        found["studies"] = [{name: getattr(info, name) for name in ("id", "kind", "rules", "label", "first_seed",
                                                                     "deals", "timeout", "max_states", "updated")}
                            for info in listed]
        found["study_deals"] = {info.rules: [{name: getattr(deal, name) for name in (
            "rules", "seed", "timeout", "max_states", "result", "states", "seconds", "reason", "moves", "solved")}
            for deal in study_deals(store, info.rules, 0, 1000)] for info in listed}
        found["web_games"] = _plain(store.select("web_games", ("player", "game", "saved", "started", "updated"),
                                                 order="player", action="read"))
    found["commands"] = {" ".join(args): _command(path, *args) for args in COMMANDS}
    found["commands"].update({f"runs show {run['id']}": _command(path, "runs", "show", str(run["id"]))
                              for run in found["runs"]})
    return _plain(found)


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(json.dumps(figures(Path(sys.argv[1])), indent=1, sort_keys=True) + "\n")
