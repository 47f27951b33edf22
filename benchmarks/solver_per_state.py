"""The solver's cost a state: its main depth-first search alone, on known deals.

    python benchmarks/solver_per_state.py [--deals 300] [--start 6000000] [--draw 3] [--passes N]
                                          [--max-states 200000] [--against PATH/_ccore*.so] [--rounds 3]
                                          [--with-path-rules | --pruning] [--lonelybot PATH/lonelybot-solve]
    python benchmarks/solver_per_state.py --schedule RUN.jsonl [--against PATH/_ccore*.so] [--rounds 1]
    python benchmarks/solver_per_state.py --path-rules [--deals 300] [--start 6000000] [--draw 3] [--rounds 3]

Runs the compiled main search (:class:`cardtable.solver._ccore.Search`, the
rules and options of ``solve``'s default: foundation return, unlimited passes
unless ``--passes`` says how many, kings only in empty piles, ``wide``) from each deal's start for up to
``--max-states`` states, and reports the states, the moves tried, the CPU
seconds and the microseconds a state. Nothing else of ``solve`` runs (no
probes, no relaxed search, no line written out), so the figure is the cost
of the search itself.

``--against`` loads a second build of the core (another checkout's
``cardtable/solver/_ccore*.so``) and runs it on the same deals, the two
alternating deal by deal for ``--rounds`` rounds, so that both see the same
machine; the report gives each build's CPU and the ratio. The two must search
the same states (the same moves in the same order): a difference is reported
and the run exits 1, since the ratio would then mean nothing.
``--with-path-rules`` runs the main search (both builds, with ``--against``)
with the path rules on. Two builds of the rules may leave out different
moves, so then the builds must only agree on each deal both decide (the
same verdict, and on a loss the same states: the rules leave out only moves
to states the search meets anyway), and each build's moves tried a state is
reported. ``--pruning`` compares two builds so with the path rules off: builds
whose move generators leave out different moves (each one a move whose child
another move of the state makes) must search the same states on a loss, not
try the same moves.

``--lonelybot`` runs lonelybot (its ``lonelybot-solve`` driver, which
prints its states and table lookups: docs/peers.md) on each deal this
checkout's search proves lost, in turns with the builds, for as many
rounds; on those losses, where both programs must search their whole tree,
the report sets each build's children a state (moves tried) and CPU
nanoseconds a state beside lonelybot's (its table lookups a state, and the
CPU of its whole process, start-up included, a state), with the ratio of
each build's cost a state to lonelybot's.

``--path-rules`` runs this checkout's main search with the path rules
(``Search(..., path=True)``: the notes in ``cardtable/solver/klondike.h``)
and without them, in turns deal by deal as ``--against`` does. The rules
change which children a state tries, not the states a loss searches, so
each side's states and moves tried a state are reported; the run exits 1 if
a deal both decide gets two verdicts, or a loss two counts of states. The
deals both searches prove lost (where the two trees are the same states and
only the children a state differ) are reported again on their own.

Instruction counts, which do not depend on what else the machine is doing,
come from running this under ``valgrind --tool=callgrind`` with a small
``--deals``.

``--schedule`` times the whole of ``solve`` instead (the main search, the
reveal-first search, the restarts, the relaxed and probe searches, and the line written out), on
the deals of a ``benchmarks/solver.py --lonelybot --jsonl`` run (each line
its mode and seed, and lonelybot's times), by the wall clock as that run
does. For each mode it reports the mean and p90 and the deals over three
times lonelybot's time on its own clock (and of those, the ones over 10 ms)
and on its whole process. With ``--against`` the second build takes the
solver's place deal by deal, the two alternating: a build change that keeps
the search must give the same verdicts and states (else exit 1), so the
counts compare the builds on the same deals and the same machine, which a
second benchmark run cannot.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from _peers import lonelybot_command, parse_lonelybot, parse_lonelybot_states, parse_lonelybot_visits, run_program
from solver import p90
from solver_tail import LONELYBOT_MODES, clock_key, read_run

from cardtable.errors import UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver import _ccore, search, solve
from cardtable.solver._state import params, state_bytes
from cardtable.solver.search import _START_BITS, _table_bits

T = TypeVar("T")

#: What lonelybot's time is multiplied by to call a deal slow, and the time under which a slow deal is small.
FACTOR, SMALL = 3.0, 0.010

#: The seconds lonelybot may take on one loss before it is stopped (and the run with it).
LONELYBOT_TIMEOUT = 120.0


def _load(path: Path) -> ModuleType:
    """A second build of the core, loaded beside the first under its own name."""
    spec = importlib.util.spec_from_file_location("against._ccore", path)
    if spec is None or spec.loader is None:
        print(f"solver_per_state.py: --against: {path} is not a Python extension module", file=sys.stderr)
        raise SystemExit(2)
    try:
        module = importlib.util.module_from_spec(spec)  # an extension module is loaded here
        spec.loader.exec_module(module)
    except ImportError as error:
        print(f"solver_per_state.py: --against: cannot load {path}: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    return module


def _search(core: ModuleType, state: bytes, v: tuple[int, ...], budget: int,
            path: bool = False) -> tuple[int, int, int, float]:
    """(status, states, tried, CPU seconds) of one main search (with the path rules when ``path``)."""
    bits = _table_bits(budget)
    search = core.Search(state, v, bits, min(bits, _START_BITS), path=True) if path else \
        core.Search(state, v, bits, min(bits, _START_BITS))
    began = time.process_time()
    status = search.run(budget)
    return int(status), int(search.states), int(search.tried), time.process_time() - began


def _lonelybot(binary: str, position: Position, draw: int) -> tuple[str, int, int, float]:
    """(verdict, states, table lookups, CPU seconds of its whole process) of lonelybot on one deal."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    text, _, _, killed, _ = run_program(lonelybot_command(binary, position, draw), LONELYBOT_TIMEOUT,
                                        gnu_time=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    states, visits = parse_lonelybot_states(text), parse_lonelybot_visits(text)
    if killed or states is None or visits is None:
        print(f"solver_per_state.py: --lonelybot: no states and lookups from {binary} (killed at "
              f"{LONELYBOT_TIMEOUT:g} s, or not the lonelybot-solve driver)", file=sys.stderr)
        raise SystemExit(2)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return parse_lonelybot(text)[0], states, visits, cpu


def _solve(core: ModuleType, position: Position, variant: Variant) -> tuple[str, int, float]:
    """(verdict, states, wall seconds) of the whole ``solve`` with ``core`` as the searches' core."""
    kept = search._ccore
    search._ccore = core  # type: ignore[assignment]  # the same module, another build
    try:
        began = time.perf_counter()
        result = solve(position, variant, timeout=60)
        return result.result, result.states, time.perf_counter() - began
    finally:
        search._ccore = kept


def _in_turn(builds: list[tuple[str, ModuleType]], k: int, run: Callable[[ModuleType], T]) -> list[T]:
    """``run(core)`` for each build's core, the first build first when ``k`` is even and last when it is
    odd, so that neither build always runs on a machine the other has just warmed; in build order."""
    order = range(len(builds)) if k % 2 == 0 else range(len(builds) - 1, -1, -1)
    done = {b: run(builds[b][1]) for b in order}
    return [done[b] for b in range(len(builds))]


def schedule(run: str, builds: list[tuple[str, ModuleType]], rounds: int) -> int:
    """The ``--schedule`` report (see the module notes); the exit status."""
    try:
        rows = read_run(run)
    except UsageError as error:
        print(f"solver_per_state.py: --schedule: {error}", file=sys.stderr)
        return 2
    for core in {id(core): core for _, core in builds}.values():  # each build warmed up once
        _solve(core, Position.from_seed(0), LONELYBOT_MODES["draw3"][0])
    seconds = [[0.0] * len(rows) for _ in builds]
    for r in range(rounds):
        for k, row in enumerate(rows):
            position, variant = Position.from_seed(int(row["seed"])), LONELYBOT_MODES[str(row["mode"])][0]
            done = _in_turn(builds, k + r, lambda core: _solve(core, position, variant))  # noqa: B023 (called at once)
            for b, (_, _, took) in enumerate(done):
                seconds[b][k] += took / rounds
            if len({(verdict, states) for verdict, states, _ in done}) > 1:
                print(f"{row['mode']} seed {row['seed']}: the builds searched differently: "
                      f"{[(verdict, states) for verdict, states, _ in done]}", file=sys.stderr)
                return 1
    print(f"the whole solve on the {len(rows):,} deals of {run}, {rounds} round(s), wall clock; "
          f"lonelybot's times from the run")
    for mode in dict.fromkeys(str(row["mode"]) for row in rows):
        picked = [k for k, row in enumerate(rows) if row["mode"] == mode]
        for (label, _), times in zip(builds, seconds, strict=True):
            ours = [times[k] for k in picked]
            own = [k for k in picked if times[k] > FACTOR * float(rows[k][clock_key("own")])]
            whole = sum(times[k] > FACTOR * float(rows[k][clock_key("whole")]) for k in picked)
            small = sum(times[k] <= SMALL for k in own)
            print(f"{mode} ({len(picked):,} deals), {label}: mean {sum(ours) / len(ours) * 1e3:.2f} ms, "
                  f"p90 {p90(ours) * 1e3:.2f} ms; over {FACTOR:g}x lonelybot's time: {len(own)} on its own clock "
                  f"({len(own) - small} over {SMALL * 1e3:g} ms), {whole} on its whole process")
        if len(builds) == 2:
            ratio = sum(seconds[0][k] for k in picked) / sum(seconds[1][k] for k in picked)
            print(f"{mode}: time ratio (this checkout / {builds[1][0]}): {ratio:.3f}")
    return 0


def path_rules(deals: list[bytes], v: tuple[int, ...], start: int, budget: int, rounds: int) -> int:
    """The ``--path-rules`` report (see the module notes); the exit status."""
    sides = (True, False)
    cpu = [0.0, 0.0]
    totals = [[0, 0], [0, 0]]  # states and moves tried, with and without the rules
    losses = [[0, 0, 0.0], [0, 0, 0.0]]  # the same and the CPU seconds, on the deals both prove lost
    lost = 0
    for r in range(rounds):
        for k, state in enumerate(deals):
            order = sides if (k + r) % 2 == 0 else sides[::-1]
            done = {path: _search(_ccore, state, v, budget, path) for path in order}
            (got, states, _, _), (want, states_without, _, _) = done[True], done[False]
            both_lost = got == want == _ccore.EXHAUSTED
            lost += both_lost and r == 0
            for b, path in enumerate(sides):
                cpu[b] += done[path][3]
                if both_lost:
                    losses[b][2] += done[path][3]
                if r == 0:
                    totals[b][0] += done[path][1]
                    totals[b][1] += done[path][2]
                    if both_lost:
                        losses[b][0] += done[path][1]
                        losses[b][1] += done[path][2]
            decided = _ccore.RUNNING not in (got, want)
            if decided and (got != want or (got == _ccore.EXHAUSTED and states != states_without)):
                print(f"seed {start + k}: the path rules changed the search: {done[True][:3]} against "
                      f"{done[False][:3]}", file=sys.stderr)
                return 1
    for b, label in enumerate(("with the path rules", "without them")):
        states, tried = totals[b]
        per = cpu[b] / rounds
        print(f"{label}: states {states:,}, moves tried {tried:,} ({tried / states:.2f} a state), "
              f"{per:.3f} CPU s a round, {per / states * 1e6:.3f} µs a state")
    print(f"ratio (with / without), CPU: {cpu[0] / cpu[1]:.3f}, moves tried: {totals[0][1] / totals[1][1]:.3f}")
    if lost:
        states = losses[0][0]
        print(f"on the {lost} losses ({states:,} states, {states // lost:,} a deal): moves tried a state "
              f"{losses[0][1] / states:.2f} with the rules, {losses[1][1] / states:.2f} without; "
              f"{losses[0][2] / rounds / states * 1e6:.3f} and {losses[1][2] / rounds / states * 1e6:.3f} µs a state")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, help="deals (default 300)")
    parser.add_argument("--start", type=int, help="first seed (default 6000000)")
    parser.add_argument("--draw", type=int, choices=(1, 3), help="draw 1 or 3 (default 3)")
    parser.add_argument("--passes", type=int, help="passes through the stock (default unlimited)")
    parser.add_argument("--max-states", type=int, help="states a deal (default 200,000)")
    parser.add_argument("--against", type=Path, help="another build of the core to compare, run alternately")
    parser.add_argument("--rounds", type=int, help="rounds with --against (default 3) or --schedule (default 1)")
    parser.add_argument("--path-rules", action="store_true",
                        help="this checkout's search with the path rules against without them, run alternately")
    parser.add_argument("--with-path-rules", action="store_true",
                        help="the main search with the path rules on (both builds, with --against)")
    parser.add_argument("--pruning", action="store_true",
                        help="with --against: the builds may try different moves (the same verdicts and, on a "
                             "loss, the same states)")
    parser.add_argument("--lonelybot", metavar="PATH",
                        help="lonelybot's lonelybot-solve driver, run in turns on the deals this checkout proves lost")
    parser.add_argument("--schedule", metavar="RUN.jsonl",
                        help="time the whole solve on the deals of a benchmarks/solver.py --lonelybot --jsonl run")
    args = parser.parse_args(argv)
    if args.schedule is not None:
        given = [name for name in ("deals", "start", "draw", "passes", "max_states") if getattr(args, name) is not None]
        if given:
            parser.error(f"--schedule takes its deals from the run: --{given[0].replace('_', '-')} is not for it")
    for name, default in (("deals", 300), ("start", 6_000_000), ("draw", 3), ("max_states", 200_000),
                          ("rounds", 1 if args.schedule else 3)):
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.passes is not None and args.passes < 1:
        parser.error(f"--passes must be at least 1, not {args.passes}")
    for name, value, low in (("--deals", args.deals, 1), ("--max-states", args.max_states, 1),
                             ("--rounds", args.rounds, 1), ("--start", args.start, 0)):
        if value < low:
            parser.error(f"{name} must be at least {low}, not {value}")
    if args.path_rules and (args.against is not None or args.schedule is not None or args.with_path_rules):
        parser.error("--path-rules compares this checkout with itself: not with --against, --schedule or "
                     "--with-path-rules")
    if args.pruning and (args.against is None or args.with_path_rules or args.path_rules):
        parser.error("--pruning compares two builds of the main search: it needs --against, and not "
                     "--with-path-rules or --path-rules")
    if args.with_path_rules and args.schedule is not None:
        parser.error("--with-path-rules is for the main search alone: not with --schedule")
    if args.lonelybot is not None and (args.schedule is not None or args.path_rules or args.passes is not None):
        parser.error("--lonelybot is for the main search alone with unlimited passes (lonelybot's game): not with "
                     "--schedule, --path-rules or --passes")
    if args.lonelybot is not None and not Path(args.lonelybot).is_file():
        parser.error(f"--lonelybot: no such file: {args.lonelybot}")
    if args.against is not None and not args.against.is_file():
        parser.error(f"--against: no such file: {args.against}")
    builds: list[tuple[str, ModuleType]] = [("this checkout", _ccore)]
    if args.against is not None:
        builds.append((str(args.against), _load(args.against)))
    if args.schedule is not None:
        return schedule(args.schedule, builds, args.rounds)
    variant = Variant(draw=args.draw, passes=args.passes, foundation_return=True)
    v = params(variant, wide=True)
    deals = [state_bytes(Position.from_seed(seed)) for seed in range(args.start, args.start + args.deals)]
    if args.path_rules:
        return path_rules(deals, v, args.start, args.max_states, args.rounds)
    rounds = args.rounds if args.against is not None or args.lonelybot is not None else 1
    lenient = args.with_path_rules or args.pruning  # the builds may try different moves
    cpu = [0.0] * len(builds)
    deal_cpu = [[0.0] * args.deals for _ in builds]
    totals: list[tuple[int, int, int]] = []
    tried_by = [[0] * args.deals for _ in builds]  # each build's moves tried on each deal
    peer: dict[int, list[tuple[str, int, int, float]]] = {}  # lonelybot's runs on this checkout's losses

    def run_peer(k: int) -> None:
        peer.setdefault(k, []).append(_lonelybot(args.lonelybot, Position.from_seed(args.start + k), args.draw))

    for r in range(rounds):
        for k, state in enumerate(deals):
            if k in peer and (k + r) % 2 == 1:  # lonelybot first on odd turns (its losses known from round 0)
                run_peer(k)
            done = _in_turn(builds, k, lambda core: _search(core, state, v, args.max_states,  # noqa: B023 (called at once)
                                                            args.with_path_rules))
            for b, (_, _, _, seconds) in enumerate(done):
                cpu[b] += seconds
                deal_cpu[b][k] += seconds
            seen = [(status, states, tried) for status, states, tried, _ in done]
            # with the path rules two builds may leave out different moves: the same verdict when both decide,
            # the same states on a loss
            decided = [(status, states if status == _ccore.EXHAUSTED else 0) for status, states, _ in seen
                       if status != _ccore.RUNNING]
            if len(set(decided) if lenient else set(seen)) > 1:
                print(f"seed {args.start + k}: the builds searched differently: {seen}", file=sys.stderr)
                return 1
            if r == 0:
                totals.append(seen[0])
                for b, (_, _, tried) in enumerate(seen):
                    tried_by[b][k] = tried
            if args.lonelybot is not None and seen[0][0] == _ccore.EXHAUSTED and (r == 0 or (k + r) % 2 == 0):
                run_peer(k)
    states = sum(t[1] for t in totals)
    tried = sum(t[2] for t in totals)
    won = sum(1 for t in totals if t[0] == _ccore.WON)
    lost = sum(1 for t in totals if t[0] == _ccore.EXHAUSTED)
    print(f"draw {args.draw}{f', {args.passes} pass(es)' if args.passes else ''}, "
          f"seeds {args.start:,} to {args.start + args.deals - 1:,}, "
          f"up to {args.max_states:,} states a deal{', the path rules on' if args.with_path_rules else ''}: "
          f"{won} won, {lost} lost, {args.deals - won - lost} undecided")
    print(f"states {states:,}, moves tried {tried:,} ({tried / states:.2f} a state)")
    for (label, _), seconds, tries in zip(builds, cpu, tried_by, strict=True):
        per = seconds / rounds
        print(f"{label}: {per:.3f} CPU s a round, {per / states * 1e6:.3f} µs a state"
              + (f", {sum(tries) / states:.2f} moves tried a state" if lenient else ""))
    if len(builds) == 2:
        print(f"ratio (this checkout / {builds[1][0]}): {cpu[0] / cpu[1]:.3f}")
    if args.lonelybot is not None:
        return _against_lonelybot(builds, peer, totals, tried_by, deal_cpu, rounds, args.start)
    return 0


def _against_lonelybot(builds: list[tuple[str, ModuleType]], peer: dict[int, list[tuple[str, int, int, float]]],
                       totals: list[tuple[int, int, int]], tried_by: list[list[int]], deal_cpu: list[list[float]],
                       rounds: int, start: int) -> int:
    """The ``--lonelybot`` report on this checkout's losses (see the module notes); the exit status."""
    losses = sorted(peer)
    for k in losses:
        if peer[k][0][0] != "unwinnable":
            print(f"seed {start + k}: lonelybot says {peer[k][0][0]}, this checkout's search proves it lost",
                  file=sys.stderr)
            return 1
    if not losses:
        print("lonelybot: no loss decided within the budget to compare on")
        return 0
    ours = sum(totals[k][1] for k in losses)
    theirs = sum(peer[k][0][1] for k in losses)
    lookups = sum(peer[k][0][2] for k in losses)
    their_ns = sum(sum(run[3] for run in peer[k]) / len(peer[k]) for k in losses) / theirs * 1e9
    print(f"the {len(losses)} losses: states {ours:,} here, {theirs:,} lonelybot's; lonelybot: "
          f"{lookups / theirs:.2f} children (table lookups) a state, {their_ns:.0f} ns a state (CPU, whole process)")
    for b, (label, _) in enumerate(builds):
        children = sum(tried_by[b][k] for k in losses) / ours
        ns = sum(deal_cpu[b][k] for k in losses) / rounds / ours * 1e9
        ratios = [deal_cpu[b][k] / rounds / totals[k][1] / (sum(run[3] for run in peer[k]) / len(peer[k])
                                                             / peer[k][0][1]) for k in losses]
        print(f"{label}: {children:.2f} children a state, {ns:.0f} ns a state; cost a state / lonelybot's: "
              f"{ns / their_ns:.2f} over the losses, {statistics.median(ratios):.2f} the median deal")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # nothing is written, so nothing is lost: say so and stop
        print("solver_per_state.py: interrupted; no figures", file=sys.stderr)
        sys.exit(130)
