"""What upgrading a schema-6 results store to schema 7 (runs, games, hands
and studies keyed by game and rules) costs.

The store is ``tests/data/store_v6/results.sqlite`` (written by the schema-6
code) grown to ``--games`` simulated games (one run), ``--played`` games a
person played and ``--deals`` study deals, rows like its own. The upgrade is
the first opening for writing (one transaction); it is timed ``--repeat``
times on fresh copies, against opening the upgraded store again.

    python benchmarks/store_migration.py --games 50000 --played 50000 --deals 10000
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from cardtable.runs.store import ResultsStore

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "data" / "store_v6" / "results.sqlite"


def grown_store(folder: Path, games: int, played: int, deals: int) -> Path:
    """The schema-6 fixture with ``games``, ``played`` and ``deals`` more rows."""
    path = folder / "v6.sqlite"
    shutil.copyfile(FIXTURE, path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO runs (created, kind, strategy, variant, seed, games_requested, games_played, status,"
                   " summary, params) SELECT created, kind, strategy, variant, seed, ?, ?, 'finished', summary, params"
                   " FROM runs WHERE id = 1", (games, games))
        (run_id,) = db.execute("SELECT MAX(id) FROM runs").fetchone()
        db.executemany("INSERT INTO games (run_id, idx, deal, won, foundation, net, moves, score, detail)"
                       " VALUES (?, ?, NULL, ?, ?, ?, NULL, 0, NULL)",
                       ((run_id, i, int(i % 7 == 0), 52 if i % 7 == 0 else i % 40, 0) for i in range(games)))
        rows = db.execute("SELECT finished, variant, options, start, won, seconds, moves, foundation, player, daily"
                          " FROM played").fetchall()
        db.executemany("INSERT INTO played (finished, variant, options, start, won, seconds, moves, foundation,"
                       " player, daily) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (rows[i % len(rows)] for i in range(played)))
        rules = [row[0] for row in db.execute("SELECT DISTINCT rules FROM study_deals")]
        db.executemany("INSERT INTO study_deals (rules, seed, budget, timeout, max_states, result, states, seconds,"
                       " reason, moves, solved) VALUES (?, ?, 'timeout=none max_states=1', NULL, 1, 'unknown', 1,"
                       " 0.001, 'states', '', '2026-11-29 08:00:00')",
                       ((rules[i % len(rules)], 10_000 + i) for i in range(deals)))
    db.close()
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--played", type=int, default=50_000)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        grown = grown_store(folder, args.games, args.played, args.deals)
        upgrade, reopen = [], []
        for attempt in range(args.repeat):
            path = folder / f"copy{attempt}.sqlite"
            shutil.copyfile(grown, path)
            started = time.perf_counter()
            ResultsStore(path).close()
            upgrade.append(time.perf_counter() - started)
            started = time.perf_counter()
            ResultsStore(path).close()
            reopen.append(time.perf_counter() - started)
        size = grown.stat().st_size
    print(f"store: {args.games:,} simulated games, {args.played:,} played games, {args.deals:,} study deals "
          f"({size / 1e6:.1f} MB)")
    print(f"upgrade to schema 7 (first opening for writing): median {statistics.median(upgrade):.3f} s "
          f"(min {min(upgrade):.3f}, max {max(upgrade):.3f}, {args.repeat} copies)")
    print(f"opening the upgraded store again: median {statistics.median(reopen):.3f} s")


if __name__ == "__main__":
    main()
