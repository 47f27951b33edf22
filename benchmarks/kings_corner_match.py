"""Kings Corner match speed: hands per second for a bot line-up, one and many workers.

    python benchmarks/kings_corner_match.py [--games 2000] [--players strategic,greedy,...]
"""

from __future__ import annotations

import argparse
import os
import time

import _report

from cardtable.sim.match import run_hands, summarize_hands


def main() -> None:
    """Time :func:`run_hands` with 1 worker and with every CPU, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", default="strategic,greedy,greedy,greedy")
    parser.add_argument("--seed", type=int, default=0)
    _report.add_option(parser)
    args = parser.parse_args()
    players = args.players.split(",")
    rows: list[list[object]] = []
    for workers in sorted({1, os.cpu_count() or 1}):
        started = time.perf_counter()
        results = run_hands(players, args.games, args.seed, workers)
        elapsed = time.perf_counter() - started
        report = summarize_hands(players, results, args.seed)
        first = report.entries[0]
        print(f"{workers} worker(s): {args.games} hands in {elapsed:.1f}s = "
              f"{args.games / elapsed:.0f} hands/s; entry 1 ({first.name}) wins "
              f"{first.win_rate:.1%}; {report.mean_turns:.1f} turns per hand")
        rows.append([workers, f"{args.games:,}", f"{elapsed:.1f}", f"{args.games / elapsed:,.0f}",
                     f"{first.win_rate:.1%}", f"{report.mean_turns:.1f}"])
    if args.markdown:
        intro = f"Line-up {', '.join(players)}, seed {args.seed}."
        header = ["workers", "hands", "seconds", "hands/s", f"entry 1 ({players[0]}) wins", "turns a hand"]
        _report.write_markdown(args.markdown, "## Kings Corner match speed",
                               intro + "\n\n" + _report.table(header, rows), note=args.markdown_note)


if __name__ == "__main__":
    main()
