"""Benchmark: cardtable's solver against other exact Klondike solvers.

Every solver takes the same random deals (``Position.from_seed(start + i)``)
in the same run, in blocks of ``--block`` deals (default 50): cardtable, in
this process, solves every deal of a block back to back; then, deal by deal,
Klondike-Solver (PyPI ``pyksolve``, also in this process) and the peers
built by hand that are present, each as a child process with the same time
limit (docs/peers.md says how to build them). A peer's process thus starts
on a busy processor, as cardtable's solves do; ``--block 1`` puts each
cardtable solve right after the peers' processes of the deal before, idle
time that made its sub-millisecond solves take about 1.5 to 1.7 times as
long (docs/solver.md, "Small solves"):

* Solvitaire, when a ``solvitaire`` program is on the PATH or ``--solvitaire``
  names one; it reads the deal as Solvitaire JSON.
* lonelybot, when ``--lonelybot`` names its ``lonecli`` (or the
  ``lonelybot-solve`` driver); it reads the deal as an exact seed.

The peers play draw 1 or draw 3 with unlimited passes, kings only in empty
piles, and foundation cards allowed back, so they run on ``thoughtful1`` and
``thoughtful3`` (modes ``draw1`` and ``draw3``); the limited-pass modes
(draw 3 with three passes, draw 1 with one pass) run cardtable alone. The
one rule difference left is Solvitaire's: its Klondike presets move part of
a built group onto another pile only when the card it uncovers can go to a
foundation (should that ever change a verdict, the deal is listed as a
disagreement).

For each mode and solver it prints the deals decided (won plus unwinnable)
within the timeout, won / unwinnable / unknown counts, the winnable share of
decided deals with its 95% Wilson interval, the median, mean and 90th
percentile of seconds per deal (a deal that hit the limit counts with the
time it took), peak memory, the time ratios against cardtable, for a peer
that times itself (lonelybot) the deals where cardtable took over three
times its time (by its own clock and by its whole process), and every
disagreement (one says won, another unwinnable). Every cardtable win is
checked move by move by the solver, and replayed in the engine here (outside
the timing), as Klondike-Solver's wins are. cardtable's times are taken on
warm code: before each mode it solves one deal outside the set, which is not
counted.

Peak memory: for a peer, GNU time's figure for each run (the largest and the
median are shown); for cardtable, the peak resident memory of this process
so far (it includes Python, numpy and the compiled core), and its growth
since the warm-up. Klondike-Solver runs inside this process, so it has no
figure of its own.

    python benchmarks/solver.py --deals 1000 --timeout 60
    python benchmarks/solver.py --deals 100 --modes draw1 draw3 --timeout 30 \\
        --lonelybot /root/peers/lonelybot-solve/target/release/lonelybot-solve
    python benchmarks/solver.py --deals 100 --modes draw1 draw3 --jsonl results.jsonl --no-peer
    python benchmarks/solver.py --startup 4200002:1 4200012:1 4200032:3 --runs 10 \
        --lonelybot /root/peers/lonelybot-solve/target/release/lonelybot-solve

``--startup SEED:DRAW ...`` times whole-process single solves instead: ``cardtable
solve --seed SEED --variant thoughtfulDRAW`` started afresh (this Python; the
cardtable it imports), and lonelybot on the same deal when ``--lonelybot`` is
given, in turn, ``--runs`` times each after one warm-up run each, under GNU
time. It prints the median wall and CPU seconds and peak memory of each, and
the CPU ratio.

Klondike-Solver has no time limit, only a state limit (``--peer-states``,
its fast mode's default 5,000,000); a peer answer that took longer than
``--timeout`` counts as undecided.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import TextIO

import _report
from _peers import (
    ProcessTime,
    check_solvitaire_interchange,
    lonelybot_command,
    solve_lonelybot,
    solve_solvitaire,
    time_program,
)

from cardtable.errors import UsageError
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

RULES_NOTE = ("  rules: every solver plays draw {draw}, unlimited passes, kings only in empty piles, foundation "
              "cards allowed back;\n  Solvitaire moves part of a built group onto another pile only when the "
              "card it uncovers can go to a foundation")


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


@dataclass
class Tally:
    """One solver's answers in one mode, deal by deal."""

    name: str
    results: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    peaks_kib: list[int] = field(default_factory=list)
    own_seconds: list[float] = field(default_factory=list)

    def add(self, result: str, seconds: float, peak_kib: int | None = None, own_seconds: float | None = None,
            ) -> None:
        self.results.append(result)
        self.seconds.append(seconds)
        if peak_kib is not None:
            self.peaks_kib.append(peak_kib)
        if own_seconds is not None:
            self.own_seconds.append(own_seconds)

    def decided(self, timeout: float) -> list[str]:
        """Each deal's answer, ``unknown`` where it came after the time limit."""
        return [r if t <= timeout else "unknown" for r, t in zip(self.results, self.seconds, strict=True)]


def p90(values: list[float]) -> float:
    """The 90th percentile of ``values`` (interpolated, the inclusive method), as this report gives it."""
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def _mb(kib: float) -> str:
    return f"{kib / 1024:.0f} MB" if kib >= 10 * 1024 else f"{kib / 1024:.1f} MB"


def _line(tally: Tally, timeout: float, memory: str) -> str:
    results = tally.decided(timeout)
    times = tally.seconds
    won = results.count("won")
    lost = results.count("unwinnable")
    decided = won + lost
    text = (f"  {tally.name:<16} decided {decided}/{len(results)} ({100 * decided / len(results):.1f}%)"
            f"  won {won}  unwinnable {lost}  unknown {len(results) - decided}"
            f"\n  {'':<16} median {statistics.median(times):.4f} s  mean {statistics.fmean(times):.4f} s"
            f"  p90 {p90(times):.4f} s  {memory}")
    if tally.own_seconds:
        own = tally.own_seconds
        text += (f"\n  {'':<16} by its own clock (no program start): median {statistics.median(own):.4f} s"
                 f"  mean {statistics.fmean(own):.4f} s  p90 {p90(own):.4f} s")
    if decided:
        low, high = wilson(won, decided)
        text += (f"\n  {'':<16} winnable {100 * won / decided:.2f}% of decided"
                 f" (95% {100 * low:.2f}..{100 * high:.2f}%)")
    return text


def _peak_kib() -> int:
    """This process's peak resident memory so far, in KiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@dataclass(frozen=True)
class Peers:
    """Which solvers besides cardtable take part."""

    klondike_solver: bool
    solvitaire: str | None
    lonelybot: str | None
    peer_states: int


def _peers_on(seed: int, position: Position, row: dict[str, object], ours: str, tallies: list[Tally],
              peers: Peers, draw: int | None, variant: Variant, timeout: float, folder: str,
              problems: list[str]) -> None:
    """Every peer on one deal: its answer and times added to its tally and to
    the deal's ``row``; a failure or a disagreement with cardtable's answer
    ``ours`` (or another peer's) added to ``problems``."""
    verdicts = {"cardtable": ours}
    for tally in tallies:
        assert draw is not None
        if tally.name == "Klondike-Solver":
            their, seconds, moves = peer_solve(position, draw, peers.peer_states)
            tally.add(their, seconds)
            row.update(peer=their, peer_seconds=seconds)
            if their == "won" and not _replays(position, variant, moves):
                problems.append(f"seed {seed}: Klondike-Solver's solution does not replay")
        else:
            if tally.name == "Solvitaire":
                run = solve_solvitaire(peers.solvitaire or "", position, draw, timeout, folder)
            else:
                run = solve_lonelybot(peers.lonelybot or "", position, draw, timeout)
            tally.add(run.result, run.seconds, run.peak_kib, run.own_seconds)
            if not run.killed and (run.status != 0 or run.own_seconds is None):
                problems.append(f"seed {seed}: {tally.name} failed (exit status {run.status}); "
                                f"it printed {run.output.strip()[-200:]!r}")
            key = tally.name.lower()
            row.update({key: run.result, f"{key}_seconds": run.seconds,
                        f"{key}_own_seconds": run.own_seconds, f"{key}_peak_kib": run.peak_kib})
        verdicts[tally.name] = tally.decided(timeout)[-1]
    if {"won", "unwinnable"} <= set(verdicts.values()):
        problems.append(f"seed {seed}: " + ", ".join(f"{k} {v}" for k, v in verdicts.items()))


def run_mode(name: str, seeds: list[int], timeout: float, peers: Peers, rows: list[dict[str, object]],
             max_states: int | None, log: TextIO | None = None, block: int = 50) -> str:
    variant, draw = MODES[name]
    warm_seed = seeds[0] - 1 if seeds[0] > 0 else seeds[-1] + 1
    with contextlib.suppress(Exception):  # a solver bug shows again on the deals themselves
        solve(Position.from_seed(warm_seed), variant, timeout=min(timeout, 10.0), max_states=200_000)
    base_kib = _peak_kib()
    ours = Tally("cardtable")
    tallies: list[Tally] = []
    if draw is not None:
        if peers.klondike_solver:
            tallies.append(Tally("Klondike-Solver"))
        if peers.solvitaire:
            tallies.append(Tally("Solvitaire"))
        if peers.lonelybot:
            tallies.append(Tally("lonelybot"))
    problems: list[str] = []
    done = 0

    def finish(row: dict[str, object]) -> None:
        nonlocal done
        rows.append(row)
        if log is not None:  # written as it goes, so an interrupted run keeps what it did
            log.write(json.dumps(row) + "\n")
            log.flush()
        done += 1
        print(f"\r{name}: {done}/{len(seeds)}", end="", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as folder:
        for first in range(0, len(seeds), block):
            # cardtable on every deal of the block back to back, then the peers: a cardtable solve
            # never starts on a processor that sat idle while a peer's process ran
            pending: list[tuple[int, Position, dict[str, object]]] = []
            for seed in seeds[first:first + block]:
                position = Position.from_seed(seed)
                began = time.perf_counter()
                try:
                    result = solve(position, variant, timeout=timeout, max_states=max_states)
                    verdict, states = result.result, result.states
                except Exception as error:  # a solver bug: reported with the deal, and the run goes on
                    verdict, states = "unknown", 0
                    problems.append(f"seed {seed}: cardtable raised {type(error).__name__}: {error}")
                ours.add(verdict, time.perf_counter() - began)
                if verdict == "won" and not _replays(position, variant, [str(m) for m in result.moves]):
                    problems.append(f"seed {seed}: cardtable's solution does not replay in the engine")
                pending.append((seed, position, {"mode": name, "seed": seed, "result": verdict,
                                                 "seconds": ours.seconds[-1], "states": states,
                                                 "cardtable_peak_kib": _peak_kib()}))
            try:
                while pending:
                    seed, position, row = pending[0]
                    _peers_on(seed, position, row, ours.decided(timeout)[done], tallies, peers, draw,
                              variant, timeout, folder, problems)
                    pending.pop(0)
                    finish(row)
            finally:  # interrupted: the deals the peers have not played keep cardtable's answer
                for _, _, row in pending:
                    finish(row)
    print(file=sys.stderr)
    out = [f"{name} ({variant.describe()}), {len(seeds)} deals, seeds {seeds[0]}..{seeds[-1]}, timeout {timeout:g} s"]
    if tallies:
        out.append(RULES_NOTE.format(draw=draw))
    peak = _peak_kib()
    out.append(_line(ours, timeout, f"peak {_mb(peak)} (this process; +{_mb(peak - base_kib)} since the warm-up)"))
    for tally in tallies:
        if tally.peaks_kib:
            memory = f"peak {_mb(max(tally.peaks_kib))} (median run {_mb(statistics.median(tally.peaks_kib))})"
        else:
            memory = "peak: no figure (runs in this process)" if tally.name == "Klondike-Solver" else "peak: no figure"
        out.append(_line(tally, timeout, memory))
    for tally in tallies:
        ratio_median = statistics.median(ours.seconds) / max(statistics.median(tally.seconds), 1e-9)
        ratio_mean = statistics.fmean(ours.seconds) / max(statistics.fmean(tally.seconds), 1e-9)
        against = sum({a, b} == {"won", "unwinnable"}
                      for a, b in zip(ours.decided(timeout), tally.decided(timeout), strict=True))
        out.append(f"  cardtable/{tally.name}: median time x{ratio_median:.3g}, mean time x{ratio_mean:.3g};"
                   f" disagreements with cardtable {against}")
        if tally.own_seconds and len(tally.own_seconds) == len(ours.seconds):
            slow = [ours_s for ours_s, their in zip(ours.seconds, tally.own_seconds, strict=True) if ours_s > 3 * their]
            whole = sum(ours_s > 3 * their for ours_s, their in zip(ours.seconds, tally.seconds, strict=True))
            out.append(f"  deals where cardtable took over 3x {tally.name}'s time: {len(slow)} by its own clock"
                       f" ({sum(t > 0.01 for t in slow)} of them over 10 ms), {whole} by its whole process")
    out.append(f"  disagreements: {len(problems)}")
    out.extend(f"    {p}" for p in problems)
    return "\n".join(out)


def _have_pyksolve() -> bool:
    try:
        import pyksolve.solver  # noqa: F401
    except ImportError:
        return False
    return True


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def startup(cases: list[tuple[int, int]], runs: int, lonelybot: str | None, timeout: float) -> str:
    """Whole-process single solves: ``cardtable solve --seed N --variant thoughtfulD``
    (this Python, a fresh process each run) and, when given, lonelybot on the
    same deal, in turn, ``runs`` times each after one warm-up run each; the
    median wall and CPU seconds and peak memory of each, and the CPU ratio."""
    lines = ["| deal | solver | runs | median wall s | median CPU s | median peak MiB | CPU ratio |",
             "|---|---|---|---|---|---|---|"]
    for seed, draw in cases:
        commands = {"cardtable": [sys.executable, "-m", "cardtable", "solve", "--seed", str(seed),
                                  "--variant", f"thoughtful{draw}", "--timeout", f"{timeout:g}"]}
        if lonelybot:
            commands["lonelybot"] = lonelybot_command(lonelybot, Position.from_seed(seed), draw)
        times: dict[str, list[ProcessTime]] = {name: [] for name in commands}
        for run in range(runs + 1):
            for name, argv in commands.items():
                one, _ = time_program(argv, timeout + 30)
                if run and one is not None:  # run 0 is the warm-up
                    times[name].append(one)
        base = _median([m.cpu for m in times["cardtable"]])
        for name, measured in times.items():
            cpu = _median([m.cpu for m in measured])
            # GNU time counts CPU in hundredths of a second: below that, only a bound.
            ratio = "" if name == "cardtable" else f"{base / cpu:.0f}" if cpu else f"> {base / 0.01:.0f}"
            wall = _median([m.wall for m in measured])
            peak = _median([m.peak_kib / 1024 for m in measured])
            lines.append(f"| {seed:,} draw {draw} | {name} | {len(measured)} | {wall:.3f} | {cpu:.3f} | {peak:.1f} "
                         f"| {ratio} |")
        print("\n".join(lines[-len(times):]), flush=True)
    return "\n".join(lines)


def startup_case(text: str) -> tuple[int, int]:
    """``SEED:DRAW`` (a seed >= 0, draw 1 or 3) for ``--startup``; :class:`UsageError` otherwise.

    >>> startup_case("4200012:1")
    (4200012, 1)
    """
    seed, _, draw = text.partition(":")
    try:
        parsed = int(seed), int(draw)
    except ValueError:
        raise UsageError(f"--startup {text!r}: SEED:DRAW, for example 4200012:1") from None
    if parsed[0] < 0 or parsed[1] not in (1, 3):
        raise UsageError(f"--startup {text!r}: a seed >= 0 and draw 1 or 3")
    return parsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per mode (default 1000)")
    parser.add_argument("--start", type=int, default=1_000_000, help="first seed (default 1000000)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per deal and solver (default 60)")
    parser.add_argument("--peer-states", type=int, default=5_000_000,
                        help="Klondike-Solver's state limit (default 5,000,000, its own default)")
    parser.add_argument("--max-states", type=int, default=None,
                        help="cardtable's state budget (default: the solver's own under a time limit, 40,000,000, "
                             "under 2 GiB)")
    parser.add_argument("--no-peer", action="store_true", help="run cardtable alone")
    parser.add_argument("--no-klondike-solver", action="store_true",
                        help="leave Klondike-Solver out (it is the slowest peer)")
    parser.add_argument("--solvitaire", metavar="PATH",
                        help="Solvitaire's program (default: 'solvitaire' on the PATH, if there is one)")
    parser.add_argument("--no-solvitaire", action="store_true",
                        help="leave Solvitaire out even when it is on the PATH (it is far slower than the others)")
    parser.add_argument("--lonelybot", metavar="PATH",
                        help="lonelybot's lonecli (or the lonelybot-solve driver); lonelybot runs only when given")
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--jsonl", metavar="FILE", help="also write one JSON line per deal and mode")
    parser.add_argument("--block", type=int, default=50,
                        help="deals cardtable solves back to back before the peers play them (default 50; 1: "
                             "deal by deal)")
    parser.add_argument("--startup", nargs="+", metavar="SEED:DRAW",
                        help="instead: whole-process single solves of these deals ('cardtable solve' and, with "
                             "--lonelybot, lonelybot), each --runs times, medians of wall and CPU seconds and memory")
    parser.add_argument("--runs", type=int, default=10, help="runs of each command with --startup (default 10)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    try:
        _report.at_least_one("--deals", args.deals)
        _report.a_seed("--start", args.start)
        _report.more_than_zero("--timeout", args.timeout, "seconds")
        cases = [startup_case(text) for text in args.startup or ()]
        _report.at_least_one("--runs", args.runs)
        _report.at_least_one("--block", args.block)
        solvitaire = lonelybot = None
        if not args.no_peer:
            if args.solvitaire is not None:
                if args.no_solvitaire:
                    raise UsageError("--solvitaire and --no-solvitaire: give one of them")
                solvitaire = _report.program(args.solvitaire, "--solvitaire")
            elif not args.no_solvitaire:
                solvitaire = shutil.which("solvitaire")
            if args.lonelybot is not None:
                lonelybot = _report.program(args.lonelybot, "--lonelybot")
        log = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    except (UsageError, OSError) as error:
        print(f"solver.py: error: {error}", file=sys.stderr)
        return 2
    if cases:
        if log is not None:
            log.close()
        table = startup(cases, args.runs, lonelybot, args.timeout)
        if args.markdown:
            body = (f"Whole-process single solves, {args.runs} runs of each command in turn after one warm-up run "
                    f"each; medians. CPU is user plus system seconds, peak the resident set (GNU time).\n\n{table}")
            _report.write_markdown(args.markdown, "## Whole-process single solves", body, note=args.markdown_note)
        return 0
    klondike_solver = not args.no_peer and not args.no_klondike_solver and _have_pyksolve()
    peers = Peers(klondike_solver, solvitaire, lonelybot, args.peer_states)
    if not args.no_peer:
        present = [name for name, there in (("Klondike-Solver", klondike_solver), ("Solvitaire", solvitaire),
                                            ("lonelybot", lonelybot)) if there]
        absent = [name for name, there in (("Klondike-Solver (--no-klondike-solver, or pip install pyksolve)",
                                            klondike_solver),
                                           ("Solvitaire (--no-solvitaire, or none on the PATH)", solvitaire),
                                           ("lonelybot (no --lonelybot)", lonelybot)) if not there]
        print(f"peers: {', '.join(present) or 'none'}" + (f"; not running: {', '.join(absent)}" if absent else ""),
              flush=True)
        if solvitaire:
            with tempfile.TemporaryDirectory() as folder:
                problems = check_solvitaire_interchange(solvitaire, folder)
            print("Solvitaire interchange: " + ("; ".join(problems) if problems else
                  "each reads the other's deal JSON (its --deal-only output; our JSON with foundations)"),
                  flush=True)
    seeds = list(range(args.start, args.start + args.deals))
    solve(Position.from_seed(0), Variant.preset("thoughtful3"), max_states=10)  # load the compiled core
    rows: list[dict[str, object]] = []
    reports: list[str] = []
    try:
        for name in args.modes:
            report = run_mode(name, seeds, args.timeout, peers, rows, args.max_states, log, args.block)
            print(report, flush=True)
            reports.append(report)
    finally:
        if log is not None:
            log.close()
    if args.markdown:
        who = "cardtable alone" if args.no_peer else f"peers: {', '.join(present) or 'none'}"
        body = f"Deals {args.start:,} to {args.start + args.deals - 1:,}, {args.timeout:g} s a deal; {who}.\n\n"
        body += "\n\n".join(f"```text\n{report}\n```" for report in reports)
        _report.write_markdown(args.markdown, "## The solver and its peers", body, note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
