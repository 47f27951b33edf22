"""Benchmark: how well the solver's search heuristics do on known deals.

The tests (``tests/solver``) check that the solver is right; this script
checks that it is quick about it, on deals where the heuristics made a
difference when they were added: which probe finds a win the main search
misses, how many states a search needs, which search settles a deal, and
the order the probes join in. It prints what it measured, marks each check
``ok`` or ``FAIL`` and exits with status 1 when one fails, so a change that
makes a heuristic worse shows up here rather than as a failing unit test.

    python benchmarks/solver_heuristics.py
    python benchmarks/solver_heuristics.py --checks probes relaxation --deals 0
    python benchmarks/solver_heuristics.py --deals 100 --max-states 1000000
    python benchmarks/solver_heuristics.py --checks --deals 0 --fill-deals 300 --start 7100000 --max-states 5000000
    python benchmarks/solver_heuristics.py --checks --deals 0 --pair-deals 300 --start 7400000 --max-states 5000000
    python benchmarks/solver_heuristics.py --checks --deals 1000 --start 6000000 --first-probe 50000
    python benchmarks/solver_heuristics.py --checks --deals 1000 --start 6003000 --max-states 5000000 --relaxed-share 2

After the checks it can compare the main search with and without the fill
rule (``--fill-deals``) or the pair rule (``--pair-deals``): the same
verdicts, and the states saved. It also
surveys ``--deals`` deals per mode (thoughtful1 and thoughtful3): how many
were decided, the states they took (median, mean, p90) and which search
settled each one, and the CPU seconds a deal; ``--first-probe``,
``--first-relaxed`` and ``--relaxed-share`` change the schedule for the
survey, and ``--passes`` gives its variants a pass limit.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

import cardtable.solver.search as search_module
from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.solver import _ccore, solve
from cardtable.solver.search import _START_BITS, SearchSchedule, _BestSearch, _probe_order, _Search, _solution

THOUGHTFUL1 = Variant.preset("thoughtful1")
THOUGHTFUL3 = Variant.preset("thoughtful3")


class Checker:
    """Collects the measurements and pass/fail lines of one check."""

    def __init__(self) -> None:
        self.failed = 0

    def note(self, text: str) -> None:
        """A measurement, printed as is."""
        print(f"    {text}")

    def expect(self, condition: bool, text: str) -> None:
        """A check: printed with ``ok`` or ``FAIL``."""
        print(f"    {'ok  ' if condition else 'FAIL'} {text}")
        if not condition:
            self.failed += 1


def _replays(position: Position, variant: Variant, moves: list[Move]) -> bool:
    game = KlondikeGame(position, variant)
    for move in moves:
        game.play(move)
    return game.is_won()


def _alone(search: _Search, states: int) -> _Search:
    search.advance(states, None)
    return search


def check_probe_order(c: Checker) -> None:
    """The probes join in the documented order."""
    order = [_probe_order(k) for k in range(9)]
    for k, (kind, weight_or_salt, width) in enumerate(order):
        c.note(f"probe {k}: {kind}-first, {'weight' if kind == 'best' else 'salt'} {weight_or_salt}, width {width}")
    c.expect(order == [("best", 1, 3), ("best", 1, 4), ("best", 2, 0), ("depth", 0, 2), ("depth", 1, 0),
                       ("depth", 0, 3), ("depth", 1, 2), ("depth", 2, 0), ("depth", 1, 3)],
             "three best-first probes, then depth-first ones of widths 2, every move, 3 in turn")


def check_probes(c: Checker) -> None:
    """Seed 1000902 (thoughtful1): the main search alone spends over 30
    million states without finding the win; a probe finds it."""
    position = Position.from_seed(1000902)
    main = _alone(_Search(position, THOUGHTFUL1, 300_000), 300_000)
    c.note(f"main search alone: {main.states} states, {'won' if main.won else 'no win'}")
    c.expect(main.running and not main.won, "the main search alone finds no win in 300,000 states")
    schedule = SearchSchedule(position, THOUGHTFUL1, max_states=1_000_000)
    first = schedule.run()
    c.note(f"solve: {first.result} in {first.states} states, settled by "
           f"{schedule.finished.label if schedule.finished else 'the main search'}")
    c.expect(first.result == "won" and first.states < 300_000, "solve wins in under 300,000 states")
    c.expect(first.result == "won" and _replays(position, THOUGHTFUL1, first.moves), "the win replays")


def check_best_first(c: Checker) -> None:
    """Seed 1000268 (thoughtful3): depth-first search spends over 36 million
    states; best-first over the three best moves of each state wins in a few
    thousand."""
    position = Position.from_seed(1000268)
    main = _alone(_Search(position, THOUGHTFUL3, 300_000), 300_000)
    c.note(f"depth-first alone: {main.states} states, {'won' if main.won else 'no win'}")
    c.expect(main.running and not main.won, "depth-first finds no win in 300,000 states")
    best = _alone(_BestSearch(position, THOUGHTFUL3, 300_000, 1, 3), 300_000)
    c.note(f"best-first (weight 1, 3 best moves): {best.states} states, {'won' if best.won else 'no win'}")
    c.expect(best.won and best.states < 100_000, "best-first wins in under 100,000 states")
    c.expect(best.won and _replays(position, THOUGHTFUL3, _solution(position, THOUGHTFUL3, best.winning_path())),
             "its win replays")


def check_narrow(c: Checker) -> None:
    """Seed 1000268 (thoughtful1): trying only the best move of each state
    runs out after a few dozen states (and proves nothing)."""
    position = Position.from_seed(1000268)
    narrow = _alone(_Search(position, THOUGHTFUL1, 10_000, 0, 1), 10_000)
    c.note(f"width-1 depth-first search: {narrow.states} states")
    c.expect(narrow.states < 10_000 and not narrow.running and not narrow.won and not narrow.exhausted,
             "it runs out within 10,000 states without a win or a proof")


def check_relaxation(c: Checker) -> None:
    """Seed 1000749 is lost in draw 1 and draw 3; the draw-3 search alone
    needs about two million states, the draw-1 relaxation a few thousand."""
    position = Position.from_seed(1000749)
    main = _alone(_Search(position, THOUGHTFUL3, 200_000), 200_000)
    c.note(f"draw-3 depth-first alone: {main.states} states, {'still open' if main.running else 'stopped'}")
    c.expect(main.running, "the draw-3 search alone is still open after 200,000 states")
    draw1 = solve(position, THOUGHTFUL1, max_states=200_000)
    draw3 = solve(position, THOUGHTFUL3, max_states=200_000)
    c.note(f"solve draw 1: {draw1.result} in {draw1.states} states; draw 3: {draw3.result} in {draw3.states} states")
    c.expect(draw1.result == "unwinnable", "draw 1 is proven lost within 200,000 states")
    c.expect(draw3.result == "unwinnable" and draw3.states < 200_000,
             "draw 3 is proven lost (through the relaxation) within 200,000 states")


def check_growth(c: Checker) -> None:
    """A best-first search past its first node and table sizes."""
    position = Position.from_seed(1000000)
    best = _alone(_BestSearch(position, THOUGHTFUL3, 1_000_000, 2, 0), 700_000)
    core = best.core
    assert isinstance(core, _ccore.BestSearch)
    nodes, table = int(core.nodes), int(core.table_size)
    c.note(f"{best.states} states: {nodes} nodes stored, a table of {table} entries "
           f"(it starts at {1 << _START_BITS})")
    c.expect(best.states >= 700_000 and nodes > 1 << _START_BITS and table > 1 << _START_BITS,
             "the table grew, the nodes outgrew its first size, and the search went on")


def check_schedule(c: Checker) -> None:
    """The schedule's budgets round by round, for seed 1000000 (thoughtful3)."""
    position = Position.from_seed(1000000)
    schedule = SearchSchedule(position, THOUGHTFUL3, max_states=1_000_000)
    c.note(f"{'round':>5} {'main':>8} {'used':>8} {'left':>8} {'next probe':>10} {'relaxed to':>10} "
           f"{'allowance':>9} probes")
    going = True
    while going:
        going = schedule.step()
        c.note(f"{schedule.rounds:>5} {schedule.main.states:>8} {schedule.used:>8} {schedule.left:>8} "
               f"{schedule.next_probe:>10} {schedule.relaxed_budget:>10} {schedule.allowance:>9} "
               f"{len(schedule.probes)}")
    result = schedule.run()
    for search in schedule.searches:
        c.note(f"{search.label}: {search.states} states")
    c.note(f"result: {result.result} ({result.reason or 'decided'})")
    again = solve(position, THOUGHTFUL3, max_states=1_000_000)
    c.expect((again.result, again.states) == (result.result, result.states), "solve gives the same answer")


def rule_survey(c: Checker, rule: str, seeds: list[int], max_states: int) -> None:
    """The fill rule or the pair rule (see ``cardtable/solver/klondike.h``):
    the main search alone, with the wide rule and the other rules of ``wide``,
    with and without ``rule``, on ``seeds`` in four variants where it applies:
    the verdicts must agree, and the states it saves are counted."""
    from cardtable.solver._state import V_FILL, V_PAIR, params, state_bytes

    bits = 10
    while (1 << bits) * 3 // 4 <= max_states + 1:
        bits += 1
    if rule == "fill":
        index = V_FILL
        variants = {"thoughtful1": THOUGHTFUL1, "thoughtful3": THOUGHTFUL3,
                    "thoughtful3, 3 passes": THOUGHTFUL3.replace(passes=3),
                    "thoughtful1, 1 pass": THOUGHTFUL1.replace(passes=1)}
    else:
        index = V_PAIR
        variants = {"thoughtful1": THOUGHTFUL1, "thoughtful1, no return": THOUGHTFUL1.replace(foundation_return=False),
                    "thoughtful1, any card to empty piles": THOUGHTFUL1.replace(empty="any"),
                    "thoughtful1, no return, any card": THOUGHTFUL1.replace(foundation_return=False, empty="any")}
    for name, variant in variants.items():
        totals = {"with": [0, 0.0], "without": [0, 0.0]}
        lost = {"with": 0, "without": 0}
        agree = decided = 0
        for seed in seeds:
            state = state_bytes(Position.from_seed(seed))
            on = params(variant, wide=True)
            verdicts, states = {}, {}
            off = tuple(0 if k == index else x for k, x in enumerate(on))
            for label, v in (("with", on), ("without", off)):
                search = _ccore.Search(state, v, bits, min(bits, _START_BITS))
                began = time.process_time()
                verdicts[label] = int(search.run(max_states))
                states[label] = int(search.states)
                totals[label][0] += states[label]
                totals[label][1] += time.process_time() - began
            if set(verdicts.values()) == {_ccore.EXHAUSTED}:
                for label in lost:
                    lost[label] += states[label]
            if _ccore.RUNNING not in verdicts.values():
                decided += 1
                agree += verdicts["with"] == verdicts["without"]
        c.note(f"{name}: {len(seeds)} deals, {decided} decided by both; states {totals['without'][0]:,} -> "
               f"{totals['with'][0]:,} (x{totals['with'][0] / max(totals['without'][0], 1):.3f}), CPU "
               f"{totals['without'][1]:.2f} s -> {totals['with'][1]:.2f} s; deals both proved lost "
               f"{lost['without']:,} -> {lost['with']:,} states")
        c.expect(agree == decided, f"{name}: the same verdict on every deal both decided")


CHECKS: dict[str, Callable[[Checker], None]] = {
    "probe-order": check_probe_order,
    "probes": check_probes,
    "best-first": check_best_first,
    "narrow": check_narrow,
    "relaxation": check_relaxation,
    "growth": check_growth,
    "schedule": check_schedule,
}


def survey(variant: Variant, seeds: list[int], max_states: int) -> None:
    """Which search settles each deal, and how many states it takes."""
    results: Counter[str] = Counter()
    settled: Counter[str] = Counter()
    states: list[int] = []
    cpu: list[float] = []
    began = time.perf_counter()
    for seed in seeds:
        started = time.process_time()
        schedule = SearchSchedule(Position.from_seed(seed), variant, max_states=max_states)
        result = schedule.run()
        cpu.append(time.process_time() - started)
        results[result.result] += 1
        states.append(result.states)
        if result.decided:
            finished = schedule.finished
            settled["main" if finished is None else finished.label.split(":")[0]] += 1
    print(f"  {variant.describe()}: {len(seeds)} deals, {time.perf_counter() - began:.1f} s")
    print("    " + ", ".join(f"{name} {results[name]}" for name in ("won", "unwinnable", "unknown")))
    p90 = statistics.quantiles(states, n=10, method="inclusive")[-1] if len(states) > 1 else states[0]
    print(f"    states: median {statistics.median(states):.0f}, mean {statistics.fmean(states):.0f}, p90 {p90:.0f}")
    cpu_p90 = statistics.quantiles(cpu, n=10, method="inclusive")[-1] if len(cpu) > 1 else cpu[0]
    print(f"    CPU s a deal: mean {statistics.fmean(cpu):.4f}, p90 {cpu_p90:.4f}")
    print("    settled by: " + ", ".join(f"{name} {n}" for name, n in sorted(settled.items())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checks", nargs="*", choices=list(CHECKS), default=list(CHECKS),
                        help="the checks to run (default: all)")
    parser.add_argument("--deals", type=int, default=20, help="deals per mode in the survey (default 20; 0: none)")
    parser.add_argument("--start", type=int, default=1_000_000, help="first survey seed (default 1000000)")
    parser.add_argument("--max-states", type=int, default=300_000,
                        help="state budget per survey deal (default 300,000)")
    parser.add_argument("--fill-deals", type=int, default=0,
                        help="also compare the main search with and without the fill rule on this many deals "
                             "from --start per variant (default 0: not run)")
    parser.add_argument("--pair-deals", type=int, default=0,
                        help="also compare the main search with and without the pair rule on this many deals "
                             "from --start per free-talon variant (default 0: not run)")
    parser.add_argument("--first-probe", type=int, default=None,
                        help="main-search states at which the first probe joins, for the survey "
                             "(default: the solver's own, 5,000)")
    parser.add_argument("--first-relaxed", type=int, default=None,
                        help="main-search states at which the relaxed search joins, for the survey "
                             "(default: the solver's own, 10,000)")
    parser.add_argument("--relaxed-share", type=int, default=None,
                        help="how many times the main search's states the relaxed search may hold, for the "
                             "survey (default: the solver's own, 8)")
    parser.add_argument("--passes", type=int, default=None,
                        help="the survey's variants with this pass limit (default: unlimited)")
    args = parser.parse_args(argv)
    limits = {"--first-probe": (args.first_probe, 1), "--first-relaxed": (args.first_relaxed, 1),
              "--relaxed-share": (args.relaxed_share, 1), "--passes": (args.passes, 1),
              "--deals": (args.deals, 0), "--fill-deals": (args.fill_deals, 0), "--pair-deals": (args.pair_deals, 0)}
    for option, (value, least) in limits.items():
        if value is not None and value < least:
            parser.error(f"{option} must be at least {least}, not {value}")
    solve(Position.from_seed(0), THOUGHTFUL3, max_states=10)  # load the compiled core
    failed = []
    for name in args.checks:
        print(f"{name}:")
        checker = Checker()
        began = time.perf_counter()
        CHECKS[name](checker)
        print(f"    ({time.perf_counter() - began:.2f} s)")
        if checker.failed:
            failed.append(name)
    rules = [(rule, n) for rule, n in (("fill", args.fill_deals), ("pair", args.pair_deals)) if n > 0]
    for rule, n in rules:
        print(f"{rule} rule, seeds {args.start}..{args.start + n - 1}, {args.max_states} states each:")
        checker = Checker()
        rule_survey(checker, rule, list(range(args.start, args.start + n)), args.max_states)
        if checker.failed:
            failed.append(f"{rule} rule")
    if args.first_probe is not None:
        search_module._FIRST_PROBE = args.first_probe
    if args.first_relaxed is not None:
        search_module._FIRST_RELAXED = args.first_relaxed
    if args.relaxed_share is not None:
        search_module._RELAXED_SHARE = args.relaxed_share
    if args.deals > 0:
        print(f"survey, seeds {args.start}..{args.start + args.deals - 1}, {args.max_states} states each"
              f" (first probe at {search_module._FIRST_PROBE:,} states; relaxed search from"
              f" {search_module._FIRST_RELAXED:,}, up to {search_module._RELAXED_SHARE} times the main search):")
        seeds = list(range(args.start, args.start + args.deals))
        for variant in (THOUGHTFUL1, THOUGHTFUL3):
            survey(variant.replace(passes=args.passes) if args.passes else variant, seeds, args.max_states)
    print(f"{len(args.checks) + len(rules) - len(failed)} of "
          f"{len(args.checks) + len(rules)} checks passed"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
