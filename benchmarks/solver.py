"""Benchmark: cardtable's solver against Klondike-Solver (PyPI ``pyksolve``).

Both solve the same random deals (``Position.from_seed(start + i)``) in the
same run, one after the other in this process. Klondike-Solver plays
unlimited passes, kings only in empty piles and foundation cards allowed
back, so the comparison runs on ``thoughtful1`` and ``thoughtful3``; the
limited-pass modes (draw 3 with three passes, draw 1 with one pass) run
cardtable alone, since no peer solves them.

For each mode it prints the deals decided (won plus unwinnable) within the
timeout, won / unwinnable / unknown counts, the winnable share of decided
deals with its 95% Wilson interval, the median and mean seconds per deal,
and every disagreement (one says won, the other unwinnable). Every cardtable
win has been replayed in the engine by the solver; Klondike-Solver's wins are
replayed here too.

    python benchmarks/solver.py --deals 1000 --timeout 60
    python benchmarks/solver.py --deals 100 --modes draw1 draw3 --jsonl results.jsonl

Klondike-Solver has no time limit, only a state limit (``--peer-states``,
its fast mode's default 5,000,000); a peer answer that took longer than
``--timeout`` counts as undecided.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import TextIO

from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.klondike.formats import moves_from_klondike_solver, to_pysol
from cardtable.solver import solve
from cardtable.stats import wilson

MODES = {
    "draw1": (Variant.preset("thoughtful1"), 1),
    "draw3": (Variant.preset("thoughtful3"), 3),
    "draw3-3passes": (Variant.preset("thoughtful3").replace(passes=3), None),
    "draw1-1pass": (Variant.preset("thoughtful1").replace(passes=1), None),
}


def peer_solve(position: Position, draw: int, max_states: int) -> tuple[str, float, list[str]]:
    """Klondike-Solver's fast mode: (result, seconds, moves in our notation)."""
    from pyksolve.solver import Solitaire, SolveResult

    lines = to_pysol(position).strip().splitlines()
    solitaire = Solitaire()
    if not solitaire.load_pysol("\n".join([lines[0]] + [": " + line for line in lines[1:]])):
        raise RuntimeError("pyksolve could not read the deal")
    solitaire.reset_game(draw)
    began = time.perf_counter()
    outcome = solitaire.solve_fast(max_closed_count=max_states)
    seconds = time.perf_counter() - began
    if outcome in (SolveResult.SolvedMinimal, SolveResult.SolvedMayNotBeMinimal):
        return "won", seconds, moves_from_klondike_solver(solitaire.moves_made())
    if outcome == SolveResult.Impossible:
        return "unwinnable", seconds, []
    return "unknown", seconds, []


def _replays(position: Position, variant: Variant, moves: list[str]) -> bool:
    game = KlondikeGame(position, variant)
    try:
        for move in moves:
            game.play(Move.parse(move))
    except ValueError:
        return False
    return game.is_won()


def _line(name: str, results: list[str], times: list[float], timeout: float) -> str:
    won = sum(r == "won" for r in results)
    lost = sum(r == "unwinnable" for r in results)
    decided = [r != "unknown" and t <= timeout for r, t in zip(results, times, strict=True)]
    text = (f"  {name:<16} decided {sum(decided)}/{len(results)} ({100 * sum(decided) / len(results):.1f}%)"
            f"  won {won}  unwinnable {lost}  unknown {len(results) - won - lost}"
            f"  median {statistics.median(times):.4f} s  mean {statistics.fmean(times):.4f} s")
    if won + lost:
        low, high = wilson(won, won + lost)
        share = 100 * won / (won + lost)
        text += f"\n  {'':<16} winnable {share:.2f}% of decided (95% {100 * low:.2f}..{100 * high:.2f}%)"
    return text


def run_mode(name: str, seeds: list[int], timeout: float, peer_states: int, peer: bool,
             rows: list[dict[str, object]], max_states: int, log: TextIO | None = None) -> str:
    variant, draw = MODES[name]
    ours: list[str] = []
    our_times: list[float] = []
    theirs: list[str] = []
    their_times: list[float] = []
    problems: list[str] = []
    for n, seed in enumerate(seeds, 1):
        position = Position.from_seed(seed)
        result = solve(position, variant, timeout=timeout, max_states=max_states)
        ours.append(result.result)
        our_times.append(result.seconds)
        row: dict[str, object] = {"mode": name, "seed": seed, "result": result.result,
                                  "seconds": result.seconds, "states": result.states}
        if peer and draw is not None:
            their, seconds, moves = peer_solve(position, draw, peer_states)
            theirs.append(their)
            their_times.append(seconds)
            row.update(peer=their, peer_seconds=seconds)
            if their == "won" and not _replays(position, variant, moves):
                problems.append(f"seed {seed}: Klondike-Solver's solution does not replay")
            if {their, result.result} == {"won", "unwinnable"}:
                problems.append(f"seed {seed}: cardtable {result.result}, Klondike-Solver {their}")
        rows.append(row)
        if log is not None:  # written as it goes, so an interrupted run keeps what it did
            log.write(json.dumps(row) + "\n")
            log.flush()
        print(f"\r{name}: {n}/{len(seeds)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    out = [f"{name} ({variant.describe()}), {len(seeds)} deals, seeds {seeds[0]}..{seeds[-1]}, timeout {timeout:g} s"]
    out.append(_line("cardtable", ours, our_times, timeout))
    if theirs:
        out.append(_line("Klondike-Solver", theirs, their_times, timeout))
        ratio_median = statistics.median(our_times) / max(statistics.median(their_times), 1e-9)
        ratio_mean = statistics.fmean(our_times) / max(statistics.fmean(their_times), 1e-9)
        out.append(f"  cardtable/Klondike-Solver: median time x{ratio_median:.3f}, mean time x{ratio_mean:.3f}")
    out.append(f"  disagreements: {len(problems)}")
    out.extend(f"    {p}" for p in problems)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per mode (default 1000)")
    parser.add_argument("--start", type=int, default=1_000_000, help="first seed (default 1000000)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per deal (default 60)")
    parser.add_argument("--peer-states", type=int, default=5_000_000,
                        help="Klondike-Solver's state limit (default 5,000,000, its own default)")
    parser.add_argument("--max-states", type=int, default=60_000_000,
                        help="cardtable's state budget (default 60,000,000: about 4 GB at most)")
    parser.add_argument("--no-peer", action="store_true", help="run cardtable alone")
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--jsonl", metavar="FILE", help="also write one JSON line per deal and mode")
    args = parser.parse_args(argv)
    seeds = list(range(args.start, args.start + args.deals))
    solve(Position.from_seed(0), Variant.preset("thoughtful3"), max_states=10)  # load the compiled core
    rows: list[dict[str, object]] = []
    log = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    try:
        for name in args.modes:
            report = run_mode(name, seeds, args.timeout, args.peer_states, not args.no_peer, rows,
                              args.max_states, log)
            print(report, flush=True)
    finally:
        if log is not None:
            log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
