"""Throughput on Dask against plain local processes, and what a chunk costs.

For three jobs it times the library's own entry points on each backend with
1 and 2 workers:

- ``simulate priority``: seed 002's game through the compiled kernel
  (blocks of :data:`~cardtable.sim.runner.KERNEL_CHUNK` games);
- ``simulate greedy``: draw 1 through the rules engine (blocks of
  :data:`~cardtable.sim.runner.ENGINE_CHUNK` games);
- ``solve batch``: deals under thoughtful draw 1 with a state budget, as
  ``cardtable solve --deals`` sends them: one deal a unit to local processes,
  :data:`~cardtable.solver.batch.CLUSTER_CHUNK` deals a unit to Dask.

Backends: ``local`` is :class:`~cardtable.runs.executor.LocalExecutor` (local
processes), ``dask`` a ``LocalCluster`` of that many one-thread worker
processes started by :class:`~cardtable.runs.cluster.DaskExecutor`, or the
scheduler given with ``--cluster tcp://HOST:PORT`` (its workers, whatever
their number, are then measured as they are). Every figure is the best of
``--repeat`` runs after a warm-up run (the compiled core loaded in every worker).

For each it prints units per second, the scaling efficiency from 1 to 2
workers (``rate(2) / (2 * rate(1))``), the work in one chunk (its seconds
played in this process) and the per-chunk overhead: the wall time an empty
task takes through the same executor (a chunk's hand-out, transfer and
collection with no work), as a share of the chunk's work. Default chunk
sizes are meant to keep that share under 5%.

    python benchmarks/cluster.py                    # the default sizes
    python benchmarks/cluster.py --quick            # smaller jobs, for a smoke run
    python benchmarks/cluster.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

import _report

from cardtable.klondike import Position, Variant
from cardtable.runs.cluster import DaskExecutor
from cardtable.runs.executor import Executor, LocalExecutor
from cardtable.sim.runner import ENGINE_CHUNK, KERNEL_CHUNK, RunSpec, play_batch, run_games, uses_kernel
from cardtable.solver import solve_batch
from cardtable.solver.batch import CLUSTER_CHUNK


@dataclass(frozen=True)
class Job:
    """A job: its name, its units, how many chunks they make, and how to run it."""

    name: str
    unit: str
    units: int
    chunks: int
    run: Callable[[Executor], int]
    #: Seconds of work in one chunk, measured in this process.
    chunk_work: Callable[[], float]


def _jobs(priority_games: int, greedy_games: int, deals: int, max_states: int) -> list[Job]:
    seed_002, draw1 = Variant.preset("seed-002"), Variant.preset("draw1")
    priority = RunSpec("priority", seed_002, seed=1, keep_moves=False)
    greedy = RunSpec("greedy", draw1, seed=1, keep_moves=False)
    assert uses_kernel(priority) and not uses_kernel(greedy)
    thoughtful = Variant.preset("thoughtful1")
    batch = [(str(seed), Position.from_seed(seed)) for seed in range(1, deals + 1)]

    def timed(work: Callable[[], object]) -> float:
        started = time.perf_counter()
        work()
        return time.perf_counter() - started

    def solve_deal() -> float:  # the mean deal: the whole batch in this process, once
        return timed(lambda: solve_batch(batch, thoughtful, max_states=max_states, workers=1)) / deals

    return [
        Job("simulate priority", "games", priority_games, -(-priority_games // KERNEL_CHUNK),
            lambda ex: len(run_games(priority, priority_games, executor=ex)),
            lambda: timed(lambda: play_batch(priority, range(KERNEL_CHUNK)))),
        Job("simulate greedy", "games", greedy_games, -(-greedy_games // ENGINE_CHUNK),
            lambda ex: len(run_games(greedy, greedy_games, executor=ex)),
            lambda: timed(lambda: play_batch(greedy, range(ENGINE_CHUNK)))),
        Job("solve batch", "deals", deals, -(-deals // CLUSTER_CHUNK),
            lambda ex: len(solve_batch(batch, thoughtful, max_states=max_states, executor=ex)),
            solve_deal),
    ]


def _deals_a_unit(job: Job, backend: str) -> int:
    """Units of work a chunk holds: one block of games, or a batch's deals a unit."""
    return CLUSTER_CHUNK if job.name == "solve batch" and backend == "dask" else 1


def _best(job: Job, executor: Executor, repeat: int) -> float:
    """Best units per second of ``repeat`` runs, after a warm-up run."""
    job.run(executor)
    best = 0.0
    for _ in range(repeat):
        started = time.perf_counter()
        done = job.run(executor)
        assert done == job.units, f"{job.name}: {done} of {job.units} {job.unit}"
        best = max(best, done / (time.perf_counter() - started))
    return best


def _empty_task_seconds(executor: Executor, tasks: int = 400) -> float:
    """Wall seconds per empty task (``abs`` of an int) through ``executor``."""
    list(executor.map(abs, range(-20, 20)))
    started = time.perf_counter()
    assert len(list(executor.map(abs, range(tasks)))) == tasks
    return (time.perf_counter() - started) / tasks


def _executor(backend: str, workers: int, address: str | None) -> AbstractContextManager[Executor]:
    if backend == "local":
        return nullcontext(LocalExecutor(workers))
    return DaskExecutor(address or "local", workers=workers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--priority-games", type=int, default=400_000)
    parser.add_argument("--greedy-games", type=int, default=2_000)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--max-states", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--cluster", metavar="ADDRESS", help="measure this scheduler's workers instead of a "
                        "LocalCluster")
    parser.add_argument("--quick", action="store_true", help="small jobs (a smoke run, noisy figures)")
    parser.add_argument("--json", action="store_true")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.priority_games, args.greedy_games, args.deals = 100_000, 400, 20
    jobs = _jobs(args.priority_games, args.greedy_games, args.deals, args.max_states)
    work = {job.name: job.chunk_work() for job in jobs}
    rates: dict[tuple[str, str, int], float] = {}
    overhead: dict[tuple[str, int], float] = {}
    for backend in ("local", "dask"):
        for workers in (1, 2):
            with _executor(backend, workers, args.cluster) as executor:
                overhead[(backend, workers)] = _empty_task_seconds(executor)
                for job in jobs:
                    rates[(job.name, backend, workers)] = _best(job, executor, args.repeat)
    rows = []
    for job in jobs:
        for backend in ("local", "dask"):
            one, two = rates[(job.name, backend, 1)], rates[(job.name, backend, 2)]
            rows.append({
                "job": job.name, "backend": backend, "unit": job.unit, "units": job.units,
                "rate_1": one, "rate_2": two, "efficiency": two / (2 * one),
                "chunks": job.chunks if backend == "dask" or job.name != "solve batch" else job.units,
                "chunk_work_s": work[job.name] * _deals_a_unit(job, backend),
                "chunk_overhead_s_1": overhead[(backend, 1)], "chunk_overhead_s_2": overhead[(backend, 2)],
                "overhead_share_2": overhead[(backend, 2)] / (work[job.name] * _deals_a_unit(job, backend)),
            })
    if args.markdown:
        header = ["job", "backend", "units", "chunks", "1 worker/s", "2 workers/s", "scaling", "chunk work",
                  "overhead a chunk (2 workers)", "overhead share"]
        table = _report.table(header, [
            [row["job"], row["backend"], f"{row['units']:,} {row['unit']}", row["chunks"], f"{row['rate_1']:,.1f}",
             f"{row['rate_2']:,.1f}", f"{100 * row['efficiency']:.0f}%", f"{1000 * row['chunk_work_s']:.1f} ms",
             f"{1000 * row['chunk_overhead_s_2']:.2f} ms", f"{100 * row['overhead_share_2']:.2f}%"]
            for row in rows])
        intro = (f"Dask backend: {args.cluster or 'LocalCluster'}; best of {args.repeat} run(s) after a warm-up; "
                 f"scaling is the 2-worker rate over twice the 1-worker rate.")
        _report.write_markdown(args.markdown, "## Workers and the cluster", intro + "\n\n" + table,
                               note=args.markdown_note)
    if args.json:
        print(json.dumps({"machine": platform.machine(), "cpus": os.cpu_count(), "python": sys.version.split()[0],
                          "cluster": args.cluster or "LocalCluster", "rows": rows}, indent=1))
        return 0
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, dask backend: {args.cluster or 'LocalCluster'}")
    print(f"{'job':<18} {'backend':<7} {'units':>8} {'chunks':>6} {'1 worker/s':>11} {'2 workers/s':>12} "
          f"{'scaling':>8} {'chunk work':>11} {'overhead':>9} {'share':>7}")
    for row in rows:
        print(f"{row['job']:<18} {row['backend']:<7} {row['units']:>8,} {row['chunks']:>6} {row['rate_1']:>11,.1f} "
              f"{row['rate_2']:>12,.1f} {100 * row['efficiency']:>7.0f}% {1000 * row['chunk_work_s']:>9.1f}ms "
              f"{1000 * row['chunk_overhead_s_2']:>7.2f}ms {100 * row['overhead_share_2']:>6.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
