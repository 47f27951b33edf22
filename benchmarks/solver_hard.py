"""Benchmark: Klondike's hard-leaning deals, solved as a batch, start-up included.

    python benchmarks/solver_hard.py --seeds 6050000 --solvitaire-seeds 1 --deals 1000 \\
        [--draws 1 3] [--passes 100000] [--timeout 60] [--keep FOLDER] [--markdown PATH]

A deal is *hard-leaning* when the solver's search of it passes ``--passes``
states (100,000 by default). For each draw this scans ``--deals`` deals from
two sources, cardtable's seeds from ``--seeds`` on (``Position.from_seed``)
and Solvitaire's generator from ``--solvitaire-seeds`` on
(``solvitaire_deal``, the deals of ``solvitaire --type klondike --random``),
solving each in this process with the default search (``solve`` under
``--timeout``, as ``cardtable solve`` does), and keeps the hard-leaning
ones. It then solves those again as one batch of the command line, ``cardtable
solve --deals FILE --variant thoughtfulD --json``, a new process (its start-up,
imports and the compiled core's loading counted), and prints the batch's wall
and CPU time a deal beside the goal of 0.25 s a deal, with the verdicts and the
states of the scan. Every number comes from this run; the machine's load
moves the times (the states do not).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardtable.klondike import Position, Variant
from cardtable.klondike.formats import solvitaire_deal
from cardtable.solver import solve

GOAL = 0.25  # seconds a deal, the batch's start-up included


def _whole(text: str) -> int:
    """A whole number of at least 1, for argparse (which reports the error, exit 2)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1 up, not {text!r}")
    return int(text)


def scan(draw: int, source: str, start: int, count: int, passes: int, timeout: float) -> list[dict[str, object]]:
    """The hard-leaning deals among ``count`` deals of one source, as rows."""
    variant = Variant.preset(f"thoughtful{draw}")
    rows = []
    for seed in range(start, start + count):
        position = Position.from_seed(seed) if source == "seed" else solvitaire_deal(seed)
        result = solve(position, variant, timeout=timeout)
        if result.states > passes:
            line = str(seed) if source == "seed" else position.deal_string()
            rows.append({"source": source, "seed": seed, "line": line, "result": result.result,
                         "states": result.states})
    return rows


def batch(draw: int, lines: list[str], timeout: float, folder: Path) -> tuple[float, float, list[dict[str, object]]]:
    """Wall and CPU seconds of one ``cardtable solve --deals`` process, and its answers."""
    deals = folder / f"hard-draw{draw}.txt"
    deals.write_text("".join(line + "\n" for line in lines))
    out = folder / f"hard-draw{draw}.jsonl"
    command = [sys.executable, "-m", "cardtable", "solve", "--deals", str(deals), "--variant", f"thoughtful{draw}",
               "--timeout", str(timeout), "--json", "--no-store", "--no-progress", "--output", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    answers = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return wall, cpu, answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=_whole, default=6_050_000, help="the first of cardtable's seeds scanned")
    parser.add_argument("--solvitaire-seeds", type=_whole, default=1, help="the first of Solvitaire's seeds scanned")
    parser.add_argument("--deals", type=_whole, default=1000, help="deals scanned from each source in each draw")
    parser.add_argument("--draws", type=int, nargs="+", choices=(1, 3), default=[1, 3])
    parser.add_argument("--passes", type=_whole, default=100_000, help="states a hard-leaning deal's search passes")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a deal, as cardtable solve's default")
    parser.add_argument("--keep", type=Path, help="keep the batch files and answers in this folder")
    parser.add_argument("--markdown", type=Path, help="write the tables to this file too")
    args = parser.parse_args(argv)
    lines: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    folder = args.keep or Path(tempfile.mkdtemp(prefix="solver-hard-"))
    folder.mkdir(parents=True, exist_ok=True)
    solve(Position.from_seed(0), Variant.preset("thoughtful3"), max_states=10)  # load the compiled core
    say(f"# hard-leaning Klondike deals (search over {args.passes:,} states), {args.deals:,} deals a source "
          f"and draw; cardtable seeds from {args.seeds:,}, Solvitaire seeds from {args.solvitaire_seeds:,}")
    say("| draw | source | scanned | hard-leaning | won / unwinnable / unknown | median states |")
    say("|---|---|--:|--:|---|--:|")
    found: dict[int, list[dict[str, object]]] = {}
    for draw in args.draws:
        found[draw] = []
        for source, start in (("seed", args.seeds), ("solvitaire", args.solvitaire_seeds)):
            rows = scan(draw, source, start, args.deals, args.passes, args.timeout)
            found[draw] += rows
            tally = {verdict: sum(row["result"] == verdict for row in rows) for verdict in ("won", "unwinnable",
                                                                                         "unknown")}
            median = statistics.median(int(str(row["states"])) for row in rows) if rows else 0
            say(f"| {draw} | {source} | {args.deals:,} | {len(rows)} | {tally['won']} / {tally['unwinnable']} / "
                  f"{tally['unknown']} | {median:,.0f} |")
    say()
    say("| draw | deals | batch wall s | batch CPU s | wall s a deal | CPU s a deal | goal | answers as the scan |")
    say("|---|--:|--:|--:|--:|--:|--:|---|")
    for draw in args.draws:
        rows = found[draw]
        if not rows:
            say(f"| {draw} | 0 | | | | | {GOAL} | |")
            continue
        wall, cpu, answers = batch(draw, [str(row["line"]) for row in rows], args.timeout, folder)
        told = {str(answer.get("deal")): answer.get("result") for answer in answers}
        same = sum(told.get(str(row["line"])) == row["result"] for row in rows)
        say(f"| {draw} | {len(rows)} | {wall:.2f} | {cpu:.2f} | {wall / len(rows):.3f} | {cpu / len(rows):.3f} | "
              f"{GOAL} | {same} of {len(rows)} |")
    (folder / "scan.json").write_text(json.dumps({str(draw): rows for draw, rows in found.items()}, indent=1))
    say(f"\n(batch files in {folder}; load average {os.getloadavg()[0]:.1f})")
    if args.markdown:
        args.markdown.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("solver_hard.py: stopped (the tables above are complete; the rest was not measured)", file=sys.stderr)
        raise SystemExit(130) from None
