"""Games per second of the ``priority`` bot in seed 002's game, on one core.

The compiled kernel runs in a single thread, so the
figure is per core; ``--cpu N`` also pins the process to one CPU.

Times the compiled fast path (:mod:`cardtable.sim.fast`: C, compiled at
install; deals shuffled in compiled code from seeds 0..N-1) with its loading
excluded and reported on its own, then the pure-Python reference playing through the rules engine on a
smaller sample of the same seeds, and prints the ratio. The two must agree on
every sampled game's foundation count, or the run fails.

With ``--default-run N`` it also runs the command itself, ``cardtable
simulate --games N`` (the default ``--record 2``: two records printed)
against the same with ``--record 0``, in pairs whose order alternates, each
a fresh process with its own results store, and reports the median time,
the peak memory (the largest resident set of the command or any of its
workers) and the store's size of each, and their ratios: printing two
records must cost no more than printing none.

    python benchmarks/simulate.py                 # 200,000 fast games, 500 Python games
    python benchmarks/simulate.py --games 50000 --python-games 200 --json
    python benchmarks/simulate.py --default-run 50000 --pairs 5
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _report
import numpy as np


def _pin(cpu: int | None) -> int | None:
    """Pin the process to ``cpu`` when asked (Linux); the kernel is single-threaded either way."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    return cpu


def end_to_end(games: int, workers: int, repeat: int) -> dict[str, object]:
    """Seed 002's main job through the library, as ``cardtable simulate`` runs
    it: ``run_games`` with the priority strategy from seed 1, chunked, spread
    over ``workers`` processes and gathered into one result. Best of
    ``repeat`` runs (the first run also loads the kernel)."""
    from cardtable.klondike import Variant
    from cardtable.sim.runner import RunSpec, run_games

    spec = RunSpec("priority", Variant.preset("seed-002"), 1, None, keep_moves=False)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        results = run_games(spec, games, workers=workers)
        win_rate = float(results.won.mean())
        best = min(best, time.perf_counter() - start)
    return {"end_to_end_games": games, "workers": workers, "end_to_end_seconds": round(best, 3),
            "end_to_end_games_per_second": round(games / best), "end_to_end_win_rate": win_rate}


def _command_run(args: list[str], store: Path) -> tuple[float, float, int, int]:
    """``cardtable simulate ARGS --store STORE`` once, its output thrown away:
    its wall-clock seconds, its CPU seconds (user and system, the command's
    and its workers'), its peak memory in bytes (the largest resident set
    of the command and its workers, as the kernel counts a waited-for process
    tree) and the size of the store it left (the file and its journal)."""
    command = [str(Path(sys.executable).with_name("cardtable")), "simulate", *args, "--store", str(store),
               "--no-progress"]
    env = {**os.environ, "CARDTABLE_DATA": str(store.parent / "data")}
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): "
                         f"{process.stderr.read().decode() if process.stderr else ''}")
    size = sum(path.stat().st_size for path in store.parent.glob(store.name + "*") if path.is_file())
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, size


def default_against_record_0(games: int, pairs: int, workers: int) -> dict[str, object]:
    """The default ``simulate`` run (two records printed) against ``--record
    0``, ``pairs`` times each, alternating which goes first; medians and ratios."""
    common = ["--games", str(games), "--workers", str(workers)]
    figures: dict[str, list[tuple[float, float, int, int]]] = {"default": [], "record 0": []}
    with tempfile.TemporaryDirectory(prefix="cardtable-simulate-bench-") as folder:
        for pair in range(pairs):
            order = ("default", "record 0") if pair % 2 == 0 else ("record 0", "default")
            for name in order:
                store = Path(folder) / f"{name.replace(' ', '-')}-{pair}.sqlite"
                figures[name].append(_command_run(common + (["--record", "0"] if name == "record 0" else []), store))

    def median(name: str, k: int) -> float:
        return float(statistics.median(run[k] for run in figures[name]))

    report: dict[str, object] = {"default_run_games": games, "default_run_pairs": pairs, "default_run_workers": workers}
    for name, key in (("default", "default"), ("record 0", "record_0")):
        report[f"{key}_seconds"] = round(median(name, 0), 3)
        report[f"{key}_cpu_seconds"] = round(median(name, 1), 3)
        report[f"{key}_peak_mib"] = round(median(name, 2) / 2**20, 1)
        report[f"{key}_store_mib"] = round(median(name, 3) / 2**20, 2)
    report["default_time_ratio"] = round(median("default", 0) / median("record 0", 0), 3)
    report["default_cpu_ratio"] = round(median("default", 1) / median("record 0", 1), 3)
    report["default_memory_ratio"] = round(median("default", 2) / median("record 0", 2), 3)
    report["default_store_ratio"] = round(median("default", 3) / median("record 0", 3), 3)
    report["default_pair_time_ratios"] = [round(a[0] / b[0], 3)
                                          for a, b in zip(figures["default"], figures["record 0"], strict=True)]
    return report


def run(games: int, python_games: int, repeat: int, cpu: int | None = None) -> dict[str, object]:
    cpu = _pin(cpu)

    start = time.perf_counter()
    from cardtable.sim import fast  # here, so that loading the kernel counts as start-up time

    fast.warm_up()
    load_seconds = time.perf_counter() - start

    seeds = np.arange(games, dtype=np.uint64)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fast.priority_batch(seeds)
        best = min(best, time.perf_counter() - start)
    fast_rate = games / best

    from cardtable.bots.klondike.priority import play_priority_game
    from cardtable.klondike import KlondikeGame, Variant

    name = "cardtable.bots.klondike.priority.play_priority_game"
    variant = Variant.preset("seed-002")
    python_foundation = []
    start = time.perf_counter()
    for seed in range(python_games):
        game = KlondikeGame.from_seed(seed, variant)
        play_priority_game(game)
        python_foundation.append(game.foundation_count())
    python_seconds = time.perf_counter() - start
    python_rate = python_games / python_seconds if python_seconds else float("nan")
    agree = bool(np.array_equal(np.array(python_foundation), result.foundation[:python_games]))

    return {
        "strategy": "priority",
        "variant": "seed-002",
        "cpu": cpu,
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "load_seconds": round(load_seconds, 3),
        "fast_games": games,
        "fast_seconds": round(best, 4),
        "fast_games_per_second": round(fast_rate),
        "python_reference": name,
        "python_games": python_games,
        "python_seconds": round(python_seconds, 3),
        "python_games_per_second": round(python_rate, 1),
        "speed_ratio": round(fast_rate / python_rate, 1),
        "python_agrees": agree,
        "win_rate": float(result.won.mean()),
        "mean_foundation": float(result.foundation.mean()),
        "mean_net_dollars": float(result.net.mean()),
        "mean_moves": float(result.moves.mean()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000, help="fast-path games (at least 20,000)")
    parser.add_argument("--python-games", type=int, default=500, help="pure-Python reference games")
    parser.add_argument("--cpu", type=int, default=None, help="pin the run to this CPU (Linux)")
    parser.add_argument("--repeat", type=int, default=5, help="time the fast batch this many times, keep the best")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--end-to-end", type=int, default=0, metavar="N",
                        help="also time N games of the main job through the library (run_games and the summary)")
    parser.add_argument("--workers", type=int, default=1, help="processes for --end-to-end and --default-run "
                        "(default 1)")
    parser.add_argument("--default-run", type=int, default=0, metavar="N",
                        help="also time 'cardtable simulate --games N' (two records printed, the default) against "
                             "the same with --record 0: time, peak memory and store size")
    parser.add_argument("--pairs", type=int, default=5, help="pairs of runs for --default-run (default 5)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    if args.games < 20_000:
        parser.error("--games must be at least 20000 for a stable figure")
    if args.python_games < 1 or args.python_games > args.games:
        parser.error("--python-games must be between 1 and --games")

    report = run(args.games, args.python_games, max(1, args.repeat), args.cpu)
    if args.end_to_end:
        report.update(end_to_end(args.end_to_end, args.workers, max(1, args.repeat)))
    if args.default_run:
        report.update(default_against_record_0(args.default_run, max(1, args.pairs), args.workers))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        where = "one thread" if report["cpu"] is None else f"one thread pinned to cpu {report['cpu']}"
        print(f"priority, seed 002 (draw 1, one pass, Vegas), {where}")
        print(f"  load and first games   {report['load_seconds']:.2f} s (excluded)")
        print(f"  fast path              {report['fast_games_per_second']:>12,} games/s  "
              f"({report['fast_games']:,} games in {report['fast_seconds']:.3f} s, best of {args.repeat})")
        print(f"  Python reference       {report['python_games_per_second']:>12,.1f} games/s  "
              f"({report['python_games']:,} games in {report['python_seconds']:.2f} s; {report['python_reference']})")
        print(f"  ratio                  {report['speed_ratio']:>12,.1f} x")
        print(f"  results                win rate {report['win_rate']:.4%}, mean foundation "
              f"{report['mean_foundation']:.3f}, mean net ${report['mean_net_dollars']:.2f}, "
              f"mean moves {report['mean_moves']:.1f}")
        print(f"  Python agrees with the fast path on all {report['python_games']} sampled games: "
              f"{'yes' if report['python_agrees'] else 'NO'}")
        if args.end_to_end:
            print(f"  end to end             {report['end_to_end_games_per_second']:>12,} games/s  "
                  f"({report['end_to_end_games']:,} games in {report['end_to_end_seconds']:.3f} s, "
                  f"{report['workers']} worker(s), best of {args.repeat})")
        if args.default_run:
            print(f"  simulate --games {report['default_run_games']:,} (--workers {report['default_run_workers']}), "
                  f"median of {report['default_run_pairs']} alternating pairs:")
            for name, key in (("default (--record 2)", "default"), ("--record 0", "record_0")):
                print(f"    {name:<22} {report[key + '_seconds']:>7.2f} s  {report[key + '_cpu_seconds']:>7.2f} s CPU  "
                      f"{report[key + '_peak_mib']:>7.1f} MiB peak  "
                      f"store {report[key + '_store_mib']:.2f} MiB")
            print(f"    ratios                 time {report['default_time_ratio']:.3f}, CPU "
                  f"{report['default_cpu_ratio']:.3f}, memory "
                  f"{report['default_memory_ratio']:.3f}, store {report['default_store_ratio']:.3f} "
                  f"(pairs: {', '.join(str(r) for r in report['default_pair_time_ratios'])})")  # type: ignore[attr-defined]
    if args.markdown:
        _report.write_markdown(args.markdown, "## Simulator speed: priority, seed 002", markdown(report, args.repeat),
                               note=args.markdown_note)
    return 0 if report["python_agrees"] else 1


def markdown(report: dict[str, object], repeat: int) -> str:
    """The report as a Markdown table, one figure a row."""
    rows: list[list[object]] = [
        ["load and first games (excluded)", f"{report['load_seconds']} s", "the kernel's import and a first call"],
        ["fast path", f"{report['fast_games_per_second']:,} games/s",
         f"{report['fast_games']:,} games in {report['fast_seconds']} s, best of {repeat}"],
        ["Python reference", f"{report['python_games_per_second']:,} games/s",
         f"{report['python_games']:,} games in {report['python_seconds']} s"],
        ["ratio", f"{report['speed_ratio']} x", ""],
        ["win rate", f"{report['win_rate']:.4%}", f"mean foundation {report['mean_foundation']:.3f}, "
         f"mean net ${report['mean_net_dollars']:.2f}, mean moves {report['mean_moves']:.1f}"],
        ["Python agrees on every sampled game", "yes" if report["python_agrees"] else "NO", ""],
    ]
    if "default_run_games" in report:
        for name, key in (("simulate, default (two records)", "default"), ("simulate --record 0", "record_0")):
            rows.append([name, f"{report[key + '_seconds']} s",
                         f"{report['default_run_games']:,} games; {report[key + '_cpu_seconds']} s CPU, "
                         f"{report[key + '_peak_mib']} MiB peak, store "
                         f"{report[key + '_store_mib']} MiB; median of {report['default_run_pairs']} pairs"])
        rows.append(["default / --record 0", f"{report['default_time_ratio']} x time",
                     f"CPU {report['default_cpu_ratio']} x, memory {report['default_memory_ratio']} x, "
                     f"store {report['default_store_ratio']} x"])
    if "end_to_end_games" in report:
        rows.append(["end to end (run_games)", f"{report['end_to_end_games_per_second']:,} games/s",
                     f"{report['end_to_end_games']:,} games in {report['end_to_end_seconds']} s, "
                     f"{report['workers']} worker(s)"])
    return ("Draw 1, one pass, Vegas, one thread.\n\n"
            + _report.table(["figure", "value", "how"], rows))


if __name__ == "__main__":
    sys.exit(main())
