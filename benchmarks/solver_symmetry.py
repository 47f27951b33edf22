"""The same deals with their suits renamed: how much of a solver's time on a deal is its luck.

    python benchmarks/solver_symmetry.py --lonelybot PATH [--start 6026000] [--deals 1000]
                                         [--modes draw1 draw3] [--namings 8] [--timeout 60] [--factor 3]
                                         [--jsonl RUN.jsonl] [--markdown PATH [--markdown-note TEXT]]
    python benchmarks/solver_symmetry.py --from RUN.jsonl [--factor 3] [--markdown PATH]

Renaming the suits of a deal so that the colours stay apart (clubs and
spades swapped, diamonds and hearts swapped, the black suits made red and
the red ones black, or several of these: eight namings with the one as
dealt) gives the same game: a move of one is a move of the other, and the
verdict is the same. A depth-first search whose order of moves looks at a
card's suit (lonelybot orders its moves by a card's bit, suit by suit)
searches another tree on each naming, and where a win is found early on
one naming and late on another, the difference is luck: which part of the
tree came first.

Each deal of each mode is played under ``--namings`` namings (the first is
the deal as dealt; 8, the default, is every one): cardtable in this process
(:func:`cardtable.solver.solve`, timed as ``benchmarks/solver.py`` times
it, every deal of a block of 50 under every naming back to back), then
lonelybot as a child process on each, started straight (its own clock, and
its whole process from this one). The report gives, per mode:

- the verdicts: every naming of a deal must get the same verdict from both
  solvers (a difference is listed; there should be none);
- each solver against itself: the deals where some renamed run took over
  ``--factor`` times the run as dealt (lonelybot on its own clock; cardtable
  in this process), how many renamed runs did, and the median and 90th
  percentile of the ratio;
- cardtable against lonelybot under each naming: the deals where
  cardtable took over ``--factor`` times lonelybot's time (its whole process
  and its own clock), the figure of ``benchmarks/solver.py``, once for each
  naming of the same deals;
- how many deals lonelybot would have over ``--factor`` times its own time
  if it were measured against itself: its runs under the second naming
  against its runs as dealt, on the clocks above.

``--jsonl`` writes one line per deal, mode and naming as it goes, so an
interrupted run keeps what it did; ``--from`` reads such a file and
reports it again (another ``--factor``, say) without playing.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from typing import TextIO

import _report
from _peers import lonelybot_command, parse_lonelybot, parse_lonelybot_states, run_program
from solver import MODES, p90
from solver_tail import LONELYBOT_MODES

from cardtable.cards import Card, Suit
from cardtable.errors import UsageError
from cardtable.klondike import Position
from cardtable.solver import solve


def namings() -> list[tuple[Suit, ...]]:
    """The eight renamings of the suits that keep the colours apart, the
    identity first: ``naming[s]`` is the new suit of suit ``s``.

    >>> [name(n) for n in namings()]
    ['cdhs', 'chds', 'dcsh', 'dsch', 'hcsd', 'hscd', 'sdhc', 'shdc']
    """
    found = []
    for order in itertools.permutations(Suit):
        # clubs and spades (the black suits) go to one colour, so the red ones go to the other
        if order[Suit.CLUBS].colour == order[Suit.SPADES].colour:
            found.append(tuple(order))
    return found


def name(naming: tuple[Suit, ...]) -> str:
    """A naming written as the new letters of clubs, diamonds, hearts, spades (``cdhs``: as dealt)."""
    return "".join(suit.letter for suit in naming)


def renamed(position: Position, naming: tuple[Suit, ...]) -> Position:
    """``position`` with every card's suit renamed by ``naming`` (the
    foundations too); a naming that keeps the colours apart gives the same
    game.

    >>> deal = Position.from_seed(7)
    >>> swap = namings()[1]  # diamonds and hearts swapped
    >>> renamed(renamed(deal, swap), swap) == deal, renamed(deal, swap) == deal
    (True, False)
    """
    if sorted(naming) != list(Suit) or naming[Suit.CLUBS].colour != naming[Suit.SPADES].colour:
        raise ValueError(f"{name(naming)} is not a naming that keeps the colours apart")

    def card(old: Card) -> Card:
        return Card(old.rank, naming[old.suit])

    foundation = [0, 0, 0, 0]
    for suit, top in zip(Suit, position.foundation, strict=True):
        foundation[naming[suit]] = top
    return Position(tableau=tuple(tuple(card(c) for c in pile) for pile in position.tableau),
                    face_down=position.face_down, stock=tuple(card(c) for c in position.stock),
                    waste=tuple(card(c) for c in position.waste),
                    foundation=(foundation[0], foundation[1], foundation[2], foundation[3]),
                    pass_number=position.pass_number)


@dataclass
class Run:
    """One solver's run on one naming of one deal."""

    verdict: str
    seconds: float  # cardtable: in this process; lonelybot: its whole process
    own: float  # lonelybot's own clock (cardtable: the same as seconds)
    states: int | None


def run_cardtable(position: Position, mode: str, timeout: float) -> Run:
    variant, _ = MODES[mode]
    began = time.perf_counter()
    result = solve(position, variant, timeout=timeout)
    seconds = time.perf_counter() - began
    return Run(result.result, seconds, seconds, result.states)


def run_lonelybot(binary: str, position: Position, mode: str, timeout: float) -> Run:
    _, draw = MODES[mode]
    assert draw is not None
    text, seconds, _, killed, _ = run_program(lonelybot_command(binary, position, draw), timeout, gnu_time=False)
    verdict, own = parse_lonelybot(text)
    if killed or own is None:
        return Run("unknown", seconds, seconds, None)
    return Run(verdict, seconds, own, parse_lonelybot_states(text))


def against_itself(runs: list[list[Run]], factor: float, clock: str) -> tuple[int, int, int, float, float]:
    """For one solver, each deal's runs (as dealt first): the deals where a
    renamed run took over ``factor`` times the run as dealt, those where such
    a run also took over 10 ms, the renamed runs over ``factor`` times, and
    the median and 90th percentile of the ratio (``clock``: ``own`` or
    ``whole``)."""
    deals = long = pairs = 0
    ratios = []
    for deal in runs:
        base = deal[0].own if clock == "own" else deal[0].seconds
        slow = [run.own if clock == "own" else run.seconds for run in deal[1:]]
        ratios += [seconds / max(base, 1e-9) for seconds in slow]
        over = [seconds for seconds in slow if seconds > factor * base]
        deals += bool(over)
        long += any(seconds > 0.01 for seconds in over)
        pairs += len(over)
    if not ratios:
        return deals, long, pairs, 1.0, 1.0
    return deals, long, pairs, statistics.median(ratios), p90(ratios)


def over(ours: list[float], theirs: list[float], factor: float) -> int:
    """How many of ``ours`` took over ``factor`` times the matching one of ``theirs``."""
    return sum(a > factor * b for a, b in zip(ours, theirs, strict=True))


def report(mode: str, seeds: list[int], names: list[str], cardtable: list[list[Run]], lonelybot: list[list[Run]],
           factor: float) -> str:
    """The text report of one mode (see the module notes)."""
    lines = [f"{mode}: {len(seeds)} deals (seeds {seeds[0]:,} to {seeds[-1]:,}), {len(names)} namings "
             f"({', '.join(names)}; the first as dealt)", ""]
    differ = []
    for seed, ours, theirs in zip(seeds, cardtable, lonelybot, strict=True):
        verdicts = {run.verdict for run in ours + theirs if run.verdict != "unknown"}
        if len(verdicts) > 1:
            shown = ", ".join(f"{n}: {a.verdict}/{b.verdict}" for n, a, b in zip(names, ours, theirs, strict=True))
            differ.append(f"  {seed}: {shown}")
    unknown = sum(run.verdict == "unknown" for deal in cardtable + lonelybot for run in deal)
    lines.append(f"verdicts that differ between namings or solvers: {len(differ)} deals; runs undecided: {unknown}")
    lines.extend(differ)
    rows = []
    for who, runs, clocks in (("lonelybot", lonelybot, ("own", "whole")), ("cardtable", cardtable, ("own",))):
        for clock in clocks:
            deals, long, pairs, median, tail = against_itself(runs, factor, clock)
            label = {"own": "own clock", "whole": "whole process"}[clock] if who == "lonelybot" else "in this process"
            renamed_runs = len(runs) * (len(names) - 1)
            rows.append([f"{who} ({label})", f"{deals:,}", f"{long:,}", f"{pairs:,} of {renamed_runs:,}",
                         f"{median:.2f}", f"{tail:.2f}"])
    lines += ["", f"Each solver against itself: a renamed run over {factor:g}× the run as dealt.", "",
              _report.table(["solver", "deals with one", "(and that run over 10 ms)", "renamed runs",
                             "ratio: median", "p90"], rows)]
    rows = []
    for k, naming in enumerate(names):
        mine = [deal[k].seconds for deal in cardtable]
        whole = [deal[k].seconds for deal in lonelybot]
        own = [deal[k].own for deal in lonelybot]
        mean = statistics.fmean(mine) / max(statistics.fmean(whole), 1e-9)
        rows.append([naming, f"{over(mine, whole, factor):,}", f"{over(mine, own, factor):,}",
                     f"{sum(a > factor * b and a > 0.01 for a, b in zip(mine, own, strict=True)):,}",
                     f"{statistics.fmean(mine) * 1e3:.1f}", f"{statistics.fmean(own) * 1e3:.1f}", f"{mean:.2f}"])
    lines += ["", f"cardtable against lonelybot under each naming: deals over {factor:g}× lonelybot's time.", "",
              _report.table(["naming", "its whole process", "its own clock", "(own clock, and over 10 ms)",
                             "cardtable mean, ms", "lonelybot mean (own), ms", "mean ratio (whole)"], rows)]
    # lonelybot's search on each renamed deal judged as cardtable's is: against lonelybot's runs as dealt
    base_whole = [deal[0].seconds for deal in lonelybot]
    base_own = [deal[0].own for deal in lonelybot]
    rows = []
    for k in range(1, len(names)):
        renamed_own = [deal[k].own for deal in lonelybot]
        rows.append([names[k], f"{over(renamed_own, base_whole, factor):,}", f"{over(renamed_own, base_own, factor):,}",
                     f"{sum(a > factor * b and a > 0.01 for a, b in zip(renamed_own, base_own, strict=True)):,}",
                     f"{statistics.fmean(renamed_own) * 1e3:.1f}"])
    lines += ["", f"lonelybot's search on each renamed deal (its own clock) against lonelybot on the deal as dealt "
              f"({names[0]}): deals over {factor:g}× its time, as cardtable is counted above.", "",
              _report.table(["naming", "its whole process", "its own clock", "(own clock, and over 10 ms)",
                             "lonelybot mean (own), ms"], rows)]
    return "\n".join(lines)


#: The fields of each line of a run (--jsonl), and their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "mode": str, "seed": int, "naming": str, "result": str, "seconds": (int, float), "lonelybot": str,
    "lonelybot_seconds": (int, float), "lonelybot_own_seconds": (int, float),
}


def read_run(path: str) -> dict[str, tuple[list[int], list[str], list[list[Run]], list[list[Run]]]]:
    """The runs of a ``--jsonl`` file, by mode: the seeds, the namings (as
    dealt first) and each deal's runs of cardtable and lonelybot. A line that
    is not such a JSON object, or a deal without every naming of its mode, is
    a :class:`UsageError` naming it."""
    order = [name(n) for n in namings()]
    found: dict[str, dict[int, dict[str, tuple[Run, Run]]]] = {}
    for number, row in _report.json_lines(path):
        where = f"{path}, line {number}"
        _report.check_fields(row, FIELDS, where)
        mode, seed, naming = str(row["mode"]), int(row["seed"]), str(row["naming"])  # type: ignore[call-overload]
        if mode not in LONELYBOT_MODES:
            raise UsageError(f"{where}: mode {mode!r} is not one lonelybot plays")
        if naming not in order:
            raise UsageError(f"{where}: naming {naming!r} is not one of {', '.join(order)}")
        ours = Run(str(row["result"]), float(row["seconds"]), float(row["seconds"]),  # type: ignore[arg-type]
                   row.get("states"))  # type: ignore[arg-type]
        theirs = Run(str(row["lonelybot"]), float(row["lonelybot_seconds"]),  # type: ignore[arg-type]
                     float(row["lonelybot_own_seconds"]), row.get("lonelybot_states"))  # type: ignore[arg-type]
        found.setdefault(mode, {}).setdefault(seed, {})[naming] = (ours, theirs)
    if not found:
        raise UsageError(f"{path}: no runs in it")
    runs = {}
    for mode, deals in found.items():
        names = [n for n in order if any(n in deal for deal in deals.values())]
        if names[0] != order[0]:
            raise UsageError(f"{path}: mode {mode} has no runs of the deals as dealt ({order[0]})")
        seeds = sorted(deals)
        for seed in seeds:
            missing = [n for n in names if n not in deals[seed]]
            if missing:
                raise UsageError(f"{path}: {mode} seed {seed} has no run under {', '.join(missing)}")
        runs[mode] = (seeds, names, [[deals[seed][n][0] for n in names] for seed in seeds],
                      [[deals[seed][n][1] for n in names] for seed in seeds])
    return runs


def _in_turn(turn: list[int], played: list[Run]) -> list[Run]:
    """The runs ``played`` under the namings of ``turn``, in that order, put in naming order."""
    runs = dict(zip(turn, played, strict=True))
    return [runs[k] for k in sorted(runs)]


def run_mode(mode: str, seeds: list[int], count: int, binary: str, timeout: float, factor: float,
             log: TextIO | None, block: int = 50) -> str:
    """Play every deal of ``mode`` under the first ``count`` namings with both solvers; the report."""
    chosen = namings()[:count]
    names = [name(n) for n in chosen]
    variant, _ = MODES[mode]
    with contextlib.suppress(Exception):  # warm code, as benchmarks/solver.py has it
        solve(Position.from_seed(seeds[0] - 1 if seeds[0] > 0 else seeds[-1] + 1), variant, max_states=200_000)
    cardtable: list[list[Run]] = []
    lonelybot: list[list[Run]] = []
    for first in range(0, len(seeds), block):
        part = seeds[first:first + block]
        deals = [[renamed(Position.from_seed(seed), naming) for naming in chosen] for seed in part]
        # each deal's namings in turn from a different one (the i-th deal from naming i), so that the first
        # solve of a deal, slower on small solves (about 0.2 ms against 0.1 ms), falls on every naming alike
        turns = [[(first + i + k) % count for k in range(count)] for i in range(len(part))]
        ours = [_in_turn(turn, [run_cardtable(deal[k], mode, timeout) for k in turn])
                for deal, turn in zip(deals, turns, strict=True)]
        for seed, deal, turn, mine in zip(part, deals, turns, ours, strict=True):
            theirs = _in_turn(turn, [run_lonelybot(binary, deal[k], mode, timeout) for k in turn])
            cardtable.append(mine)
            lonelybot.append(theirs)
            if log is not None:
                for naming, a, b in zip(names, mine, theirs, strict=True):
                    log.write(json.dumps({"mode": mode, "seed": seed, "naming": naming, "result": a.verdict,
                                          "seconds": a.seconds, "states": a.states, "lonelybot": b.verdict,
                                          "lonelybot_seconds": b.seconds, "lonelybot_own_seconds": b.own,
                                          "lonelybot_states": b.states}) + "\n")
                log.flush()
            print(f"\r{mode}: {len(cardtable)}/{len(seeds)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return report(mode, seeds, names, cardtable, lonelybot, factor)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lonelybot", metavar="PATH",
                        help="lonelybot's lonelybot-solve driver (docs/peers.md), which prints its states")
    parser.add_argument("--from", dest="source", metavar="RUN.jsonl",
                        help="report the runs of this --jsonl file again instead of playing (--factor applies)")
    parser.add_argument("--start", type=int, default=6_026_000, help="first seed (default 6026000)")
    parser.add_argument("--deals", type=int, default=1000, help="deals per mode (default 1000)")
    parser.add_argument("--modes", nargs="+", choices=list(LONELYBOT_MODES), default=list(LONELYBOT_MODES))
    parser.add_argument("--namings", type=int, default=8,
                        help="namings of each deal, the one as dealt first (2 to 8; default 8, every one)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--factor", type=float, default=3.0, help="a run over this many times counts (default 3)")
    parser.add_argument("--jsonl", metavar="FILE", help="also write one JSON line per deal, mode and naming")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    try:
        _report.at_least_one("--deals", args.deals)
        _report.a_seed("--start", args.start)
        if not 2 <= args.namings <= 8:
            raise UsageError(f"--namings {args.namings}: 2 to 8 (the deal as dealt and at least one renamed)")
        _report.more_than_zero("--timeout", args.timeout, "seconds")
        _report.more_than_zero("--factor", args.factor)
        if args.source is not None:
            if args.jsonl:
                raise UsageError("--from and --jsonl: the runs are read, not played, with --from")
            stored = read_run(args.source)
        elif args.lonelybot is None:
            raise UsageError("--lonelybot PATH is needed to play the deals (or --from RUN.jsonl to report a run)")
        else:
            args.lonelybot = _report.program(args.lonelybot, "--lonelybot")
        log = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    except (UsageError, OSError) as error:
        print(f"solver_symmetry.py: error: {error}", file=sys.stderr)
        return 2
    if args.source is not None:
        reports = [report(mode, seeds, names, ours, theirs, args.factor)
                   for mode, (seeds, names, ours, theirs) in stored.items()]
        for text in reports:
            print(text)
        if args.markdown:
            first = min(seeds[0] for seeds, *_ in stored.values())
            last = max(seeds[-1] for seeds, *_ in stored.values())
            body = (f"Deals {first:,} to {last:,}, each under the namings of its suits below; the runs of "
                    f"{os.path.basename(args.source)}.\n\n" + "\n\n".join(reports))
            _report.write_markdown(args.markdown, "## The same deals with their suits renamed", body,
                                   note=args.markdown_note)
        return 0
    seeds = list(range(args.start, args.start + args.deals))
    reports = []
    try:
        for mode in args.modes:
            text = run_mode(mode, seeds, args.namings, args.lonelybot, args.timeout, args.factor, log)
            print(text, flush=True)
            reports.append(text)
    except KeyboardInterrupt:
        print(f"\nsolver_symmetry.py: interrupted; {len(reports)} of {len(args.modes)} modes reported"
              + (f", every finished deal in {args.jsonl}" if args.jsonl else ""), file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()
    if args.markdown:
        body = (f"Deals {args.start:,} to {args.start + args.deals - 1:,}, {args.timeout:g} s a run, each deal under "
                f"{args.namings} namings of its suits.\n\n" + "\n\n".join(reports))
        _report.write_markdown(args.markdown, "## The same deals with their suits renamed", body,
                               note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
