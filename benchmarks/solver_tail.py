"""The solver's slow deals against lonelybot, studied one by one.

    python benchmarks/solver_tail.py RUN.jsonl [--clock whole|own] [--factor 3] [--lonelybot PATH]
                                     [--cap 5000000] [--markdown PATH [--markdown-note TEXT]]

Reads the per-deal lines that ``benchmarks/solver.py --lonelybot ... --jsonl
RUN.jsonl`` wrote, takes the deals where cardtable took more than
``--factor`` times lonelybot's time (its whole process with ``--clock
whole``, the default; its own clock with ``--clock own``), and for each one
works out where cardtable's time went:

- the schedule of :func:`cardtable.solver.solve` run again: the states of
  each of its searches and which one settled the question;
- its depth-first searches each alone (the main one, the reveal-first one
  and, when the variant has one, the relaxed one), up to ``--cap`` states:
  verdict, states and milliseconds;
- lonelybot's own states, when ``--lonelybot`` names its ``lonelybot-solve``
  driver (``docs/peers.md``), which prints them, and the states it looked up
  in its table (the children it made, new or not), which it prints as
  ``Visits``, set beside the children cardtable's main search looked at (the
  report also divides each solver's time by its children; that is not the
  cost of a child alone, as a state's own work, generating its moves and
  making it, is in it too: see docs/solver.md, "Children a state").

Each deal then gets the reasons that fit it (a deal can have several):

``relaxed proof larger``
    a loss where the relaxed search ran and its proof alone needs more
    states than the main search's alone;
``relaxed game won``
    the relaxed search's game is won, and it spent a tenth or more of the
    schedule's states finding that win (which proves nothing) before it
    stopped;
``line``
    a win lonelybot finds within 2,000 states, where cardtable's schedule
    used over ten times as many;
``tree``
    not a line, and cardtable's main search alone needs over 1.5 times
    lonelybot's states;
``per state``
    neither: the main search alone needs no more than 1.5 times lonelybot's
    states, so the cost of a state is what is left.

The last three need lonelybot's states; each deal gets one of them. One
more, which can come with any of them:

``children``
    cardtable's main search alone looks at over 1.5 times as many children
    a state (each a key looked up in its table) as lonelybot does (its
    ``Visits`` a state): most of them are states it has seen, reached again
    by other orders of the same moves.

The report gives one line a deal and counts each reason, with the deals
whose main search alone would have come within the factor. Every time but
the run's is this process's, each search run once after the schedule on the
same deal (warm, unlike a benchmark run, where a small solve can take
several times as long: the schedule's time here is beside the run's to show
it); lonelybot's time is the run's, on the clock that chose the deals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import _report
from _peers import lonelybot_command, parse_lonelybot_states, parse_lonelybot_visits, run_program
from solver import MODES

from cardtable.errors import UsageError
from cardtable.klondike import Position, Variant
from cardtable.solver import _ccore
from cardtable.solver._state import state_bytes
from cardtable.solver.search import SearchSchedule, _Search, relaxation

#: The modes of benchmarks/solver.py that lonelybot plays: (variant, draw).
LONELYBOT_MODES = {name: (variant, draw) for name, (variant, draw) in MODES.items() if draw is not None}
#: The fields each line of the run must have, and their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "mode": str, "seed": int, "result": str, "seconds": (int, float), "lonelybot_seconds": (int, float),
    "lonelybot_own_seconds": (int, float),
}
#: A win lonelybot finds within this many states is one it walks in a near-straight line.
LINE_STATES = 2_000
#: The relaxed search's states count as a reason when they are at least this
#: fraction (one in so many) of the schedule's.
RELAXED_SHARE_NOTED = 10
#: Children a state over this many times lonelybot's count as a reason.
CHILDREN_FACTOR = 1.5
REASONS = ("relaxed proof larger", "relaxed game won", "line", "tree", "per state", "children")


@dataclass
class Alone:
    """One depth-first search of the schedule run alone from the deal."""

    verdict: str  # "won", "lost" or "capped"
    states: int
    milliseconds: float
    tried: int = 0  # the children it looked at (its table lookups): those new to it and those it had seen


@dataclass
class Study:
    """What one slow deal's time went to."""

    row: dict[str, object]
    verdict: str  # the solver's, now (the run's may be unknown, or from another build)
    lonelybot_states: int | None
    used: int
    milliseconds: float  # the schedule's, run again here
    settled: str
    parts: dict[str, int]
    main: Alone
    reveal_first: Alone
    relaxed: Alone | None
    reasons: list[str] = field(default_factory=list)
    lonelybot_visits: int | None = None  # the states lonelybot looked up in its table, when its driver says


def read_run(path: str) -> list[dict[str, object]]:
    """The lines of a ``benchmarks/solver.py`` run that have lonelybot's times.
    A line that is not such a JSON object is a :class:`UsageError` naming it.
    Where lonelybot was killed at the time limit (``"lonelybot": "unknown"``)
    and the run kept no time of its own for it, its own time is its whole
    run's, as ``benchmarks/solver.py`` now records it."""
    rows = []
    for number, row in _report.json_lines(path):
        if row.get("lonelybot") == "unknown" and row.get("lonelybot_own_seconds", 0) is None:
            # killed at the limit, in a run from before its own time was taken as the whole run's
            row["lonelybot_own_seconds"] = row.get("lonelybot_seconds")
        _report.check_fields(row, FIELDS, f"{path}, line {number}",
                             " (a run of benchmarks/solver.py with --lonelybot and --jsonl has it)")
        if row["mode"] not in LONELYBOT_MODES:
            raise UsageError(f"{path}, line {number}: mode {row['mode']!r} is not one lonelybot plays "
                             f"({', '.join(LONELYBOT_MODES)})")
        rows.append(row)
    if not rows:
        raise UsageError(f"{path}: no deals in it")
    return rows


def clock_key(clock: str) -> str:
    """The field of a run's line with lonelybot's time on ``clock`` ("whole" or "own")."""
    return "lonelybot_seconds" if clock == "whole" else "lonelybot_own_seconds"


def slow(rows: list[dict[str, object]], clock: str, factor: float) -> list[dict[str, object]]:
    """The rows where cardtable took over ``factor`` times lonelybot's time on ``clock``."""
    key = clock_key(clock)
    return [row for row in rows if float(row["seconds"]) > factor * float(row[key])]  # type: ignore[arg-type]


def alone(state: bytes, variant: Variant, order: int, cap: int) -> Alone:
    """One of the schedule's depth-first searches (``order`` 0: the main one,
    1: reveal-first) run alone up to ``cap`` states."""
    search = _Search(state, variant, cap, wide=True, order=order)
    began = time.perf_counter()
    search.advance(cap, None)
    milliseconds = (time.perf_counter() - began) * 1e3
    verdict = "won" if search.won else "lost" if search.exhausted else "capped"
    core = search.core
    assert isinstance(core, _ccore.Search)  # a depth-first search, which counts the children it looked at
    return Alone(verdict, search.states, milliseconds, core.tried)


def lonelybot_counts(binary: str, position: Position, draw: int, timeout: float) -> tuple[int | None, int | None]:
    """The states and the visits (table lookups) lonelybot's
    ``lonelybot-solve`` driver reports; each None when it does not say
    (another program, an older driver, or it did not finish)."""
    text = run_program(lonelybot_command(binary, position, draw), timeout)[0]
    return parse_lonelybot_states(text), parse_lonelybot_visits(text)


def children(study: Study) -> tuple[float, float] | None:
    """Children a state: cardtable's main search alone and lonelybot's, when both are known."""
    if not study.lonelybot_visits or not study.lonelybot_states or not study.main.tried or not study.main.states:
        return None
    return study.main.tried / study.main.states, study.lonelybot_visits / study.lonelybot_states


def child_nanoseconds(study: Study) -> tuple[float, float] | None:
    """Nanoseconds a child looked at: cardtable's main search alone (here)
    and lonelybot (its own clock in the run), when both are known."""
    if not study.lonelybot_visits or not study.main.tried:
        return None
    own = float(study.row["lonelybot_own_seconds"])  # type: ignore[arg-type]
    return study.main.milliseconds * 1e6 / study.main.tried, own * 1e9 / study.lonelybot_visits


def classify(study: Study) -> list[str]:
    """The reasons (see the module notes) that fit a studied deal: first
    what the relaxed search cost, then one of ``line``, ``tree`` and ``per
    state`` for the searches themselves (when lonelybot's states are known)."""
    reasons = []
    relaxed = study.relaxed
    share = study.parts.get("relaxed", 0)
    if study.verdict == "unwinnable" and share and relaxed is not None and relaxed.verdict == "lost" \
            and relaxed.states > study.main.states:
        reasons.append("relaxed proof larger")
    if relaxed is not None and relaxed.verdict == "won" and share * RELAXED_SHARE_NOTED >= study.used:
        reasons.append("relaxed game won")
    theirs = study.lonelybot_states
    if theirs is not None:
        if study.verdict == "won" and theirs <= LINE_STATES and study.used > 10 * theirs:
            reasons.append("line")
        elif study.main.states > 1.5 * theirs:
            reasons.append("tree")
        else:
            reasons.append("per state")
    pair = children(study)
    if pair is not None and pair[0] > CHILDREN_FACTOR * pair[1]:
        reasons.append("children")
    return reasons


def main_within(study: Study, clock: str, factor: float) -> bool:
    """Whether the main search alone took at most ``factor`` times lonelybot's time (``clock``)."""
    key = clock_key(clock)
    return study.main.verdict != "capped" and study.main.milliseconds <= factor * 1e3 * float(study.row[key])  # type: ignore[arg-type]


def study_deal(row: dict[str, object], lonelybot: str | None, cap: int, timeout: float) -> Study:
    """Run the schedule and each search alone on one deal."""
    variant, draw = LONELYBOT_MODES[str(row["mode"])]
    position = Position.from_seed(int(row["seed"]))  # type: ignore[call-overload]
    schedule = SearchSchedule(position, variant, timeout=timeout)
    began = time.perf_counter()
    result = schedule.run()
    milliseconds = (time.perf_counter() - began) * 1e3
    settled = schedule.finished or schedule.main
    state = state_bytes(position)
    easier = relaxation(variant)
    theirs = visits = None
    if lonelybot is not None:
        theirs, visits = lonelybot_counts(lonelybot, position, draw, timeout)
    return Study(row=row, verdict=result.result, lonelybot_states=theirs, lonelybot_visits=visits,
                 used=schedule.used, milliseconds=milliseconds,
                 settled=settled.label.split(":")[0],
                 parts={search.label.split(":")[0]: search.states for search in schedule.searches},
                 main=alone(state, variant, 0, cap), reveal_first=alone(state, variant, 1, cap),
                 relaxed=alone(state, easier, 0, cap) if easier is not None else None)


def _alone_text(search: Alone | None) -> str:
    return "-" if search is None else f"{search.verdict} {search.states:,} ({search.milliseconds:.1f} ms)"


def report(studies: list[Study], clock: str, factor: float, total: int) -> str:
    """The Markdown table of the studied deals and the count of each reason."""
    key = clock_key(clock)
    clock_text = "its whole process" if clock == "whole" else "its own clock"
    lines = [f"{len(studies)} of {total} deals over {factor:g}× lonelybot's time ({clock_text}).", "",
             "| deal | verdict | cardtable: run, here | lonelybot | states: cardtable / lonelybot | settled by "
             "| main alone | reveal-first alone | relaxed alone (its share in the run) "
             "| children a state: main alone / lonelybot | reasons |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for study in studies:
        row = study.row
        theirs = "?" if study.lonelybot_states is None else f"{study.lonelybot_states:,}"
        verdict = study.verdict if study.verdict == row["result"] else f"{study.verdict} (the run: {row['result']})"
        share = f" ({study.parts['relaxed']:,})" if "relaxed" in study.parts else ""
        pair = children(study)
        kids = "-" if pair is None else f"{pair[0]:.2f} / {pair[1]:.2f}"
        lines.append(
            f"| {row['seed']} {row['mode']} | {verdict} "
            f"| {float(row['seconds']) * 1e3:.1f}, {study.milliseconds:.1f} ms "  # type: ignore[arg-type]
            f"| {float(row[key]) * 1e3:.1f} ms | {study.used:,} / {theirs} | {study.settled} "  # type: ignore[arg-type]
            f"| {_alone_text(study.main)} | {_alone_text(study.reveal_first)} "
            f"| {_alone_text(study.relaxed)}{share if study.relaxed else ''} | {kids} "
            f"| {', '.join(study.reasons) or '-'} |")
    counts = Counter(reason for study in studies for reason in study.reasons)
    within = sum(main_within(study, clock, factor) for study in studies)
    lines += ["", "| reason | deals | of them, the main search alone within the factor |", "|---|---|---|"]
    for reason in REASONS:
        some = [study for study in studies if reason in study.reasons]
        lines.append(f"| {reason} | {counts[reason]} | {sum(main_within(study, clock, factor) for study in some)} |")
    lines += ["", f"The main search alone would have come within {factor:g}× on {within} of the {len(studies)}."]
    pairs = [pair for pair in map(children, studies) if pair is not None]
    costs = [cost for cost in map(child_nanoseconds, studies) if cost is not None]
    if pairs:
        ours, theirs = (statistics.median(side) for side in zip(*pairs, strict=True))
        lines += ["", f"Children a state, the median over the {len(pairs)} deals with lonelybot's visits: "
                      f"cardtable's main search alone {ours:.2f}, lonelybot {theirs:.2f}."]
        if costs:
            ours, theirs = (statistics.median(side) for side in zip(*costs, strict=True))
            lines.append(f"Nanoseconds a child looked at, the median: cardtable's main search alone {ours:.0f} "
                         f"(here), lonelybot {theirs:.0f} (its own clock in the run).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", metavar="RUN.jsonl",
                        help="the --jsonl file of a benchmarks/solver.py run with --lonelybot")
    parser.add_argument("--clock", choices=("whole", "own"), default="whole",
                        help="lonelybot's time to compare with: its whole process (default) or its own clock")
    parser.add_argument("--factor", type=float, default=3.0, help="study the deals over this many times (default 3)")
    parser.add_argument("--lonelybot", metavar="PATH",
                        help="lonelybot's lonelybot-solve driver, for its states and visits (docs/peers.md); "
                             "without it the reasons that need them are left out")
    parser.add_argument("--cap", type=int, default=5_000_000,
                        help="states each search alone may use (default 5,000,000)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for each solve (default 120)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    try:
        _report.more_than_zero("--factor", args.factor)
        _report.at_least_one("--cap", args.cap)
        _report.more_than_zero("--timeout", args.timeout, "seconds")
        if args.lonelybot is not None:
            args.lonelybot = _report.program(args.lonelybot, "--lonelybot")
        rows = read_run(args.run)
    except UsageError as error:
        print(f"solver_tail.py: error: {error}", file=sys.stderr)
        return 2
    chosen = slow(rows, args.clock, args.factor)
    studies = []
    try:
        for count, row in enumerate(chosen, 1):
            print(f"\rstudying {count}/{len(chosen)}", end="", file=sys.stderr, flush=True)
            study = study_deal(row, args.lonelybot, args.cap, args.timeout)
            study.reasons = classify(study)
            studies.append(study)
    except KeyboardInterrupt:
        print(f"\nsolver_tail.py: interrupted after {len(studies)} of {len(chosen)} deals; nothing written",
              file=sys.stderr)
        return 130
    print(file=sys.stderr)
    text = report(studies, args.clock, args.factor, len(rows))
    print(text)
    if args.markdown:
        _report.write_markdown(args.markdown, "## The slow deals, one by one", text, note=args.markdown_note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
