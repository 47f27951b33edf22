"""The best-first search's estimate under other weights: builds of the patience core side by side.

    python benchmarks/estimate_weights.py --variant stock4-mixed12="-DW_STOCK=4 -DW_MIXED=12" \\
        [--variant NAME="FLAGS" ...] [--games spiderette,spider-2-suits] [--deals 301-500] \\
        [--max-states 200000] [--jobs 2] [--jsonl RUN.jsonl]

The estimate that orders the best-first search (``evaluate`` in
``cardtable/solver/_pcore.c``) weighs what is left to do with compile-time
weights (``W_BREAK``, ``W_MIXED``, ``W_STOCK``, ``W_DOWN`` and the others,
each ``#ifndef`` there). This script builds the core once for each
``--variant`` with its ``-D`` flags (the compiler and flags of the wheel's
build, into a temporary directory, not over the installed core), plus the
build with no flags (``default``, the weights of this checkout), and solves
each game's deals under each build, each build and game in a process of its
own (``--jobs`` at a time), with :func:`cardtable.solver.patience.solve_game`
under ``--max-states`` (no time limit: the counts are the same on any
machine; the CPU seconds are not). Every winning line is replayed in the
rules engine by ``solve_game`` itself.

The report gives, for each game and build, the deals won, proved unwinnable
and left undecided, the states and the CPU seconds in all, and the deals whose
verdicts differ from the default build's (there should be none: a weight
orders the search, it never changes what is true). ``--jsonl`` writes a line a
build and game as each finishes and, given again, skips those it already has.
The exit status is 1 when a verdict differs, 2 on bad options or a build that
fails, 130 on Ctrl-C (the lines written stay).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import _report

from cardtable.errors import CardtableError

_SOURCE = Path(__file__).resolve().parent.parent / "cardtable" / "solver" / "_pcore.c"
#: The flags of the wheel's build (pyproject.toml's ext-modules).
_CFLAGS = ("-O3", "-std=c11", "-shared", "-fPIC")


def _variant(text: str) -> tuple[str, list[str]]:
    name, sep, flags = text.partition("=")
    if not sep or not name or not name.replace("-", "").replace("_", "").isalnum():
        raise argparse.ArgumentTypeError(f"--variant {text!r}: give NAME=\"-DW_X=N ...\" (NAME of letters, "
                                         "digits, - and _)")
    parts = shlex.split(flags)
    bad = [part for part in parts if not part.startswith("-D")]
    if bad:
        raise argparse.ArgumentTypeError(f"--variant {name}: {bad[0]!r} is not a -D flag")
    return name, parts


def _deals(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("-")
    try:
        first, last = int(low), int(high if sep else low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--deals {text!r}: give FIRST-LAST, e.g. 1-100") from None
    if first < 1 or last < first:
        raise argparse.ArgumentTypeError(f"--deals {text!r}: give 1 <= FIRST <= LAST")
    return first, last


def build(flags: list[str], where: Path) -> Path:
    """The patience core built with ``flags`` into ``where``; the module's path."""
    where.mkdir(parents=True, exist_ok=True)
    target = where / "_pcore.so"
    includes = {sysconfig.get_paths()["include"], sysconfig.get_paths()["platinclude"]}
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    command = [compiler, *_CFLAGS, *(f"-I{path}" for path in sorted(includes)), f"-I{_SOURCE.parent}", *flags,
               str(_SOURCE), "-o", str(target)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise CardtableError(f"building with {' '.join(flags) or 'no flags'} failed:\n{done.stderr.strip()}")
    return target


def solve_deals(module: str, game: str, first: int, last: int, max_states: int) -> dict[str, object]:
    """Solve deals ``first`` to ``last`` of ``game`` with the core at
    ``module`` loaded in place of the installed one (this process only)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("cardtable.solver._pcore", module)
    if spec is None or spec.loader is None:
        raise CardtableError(f"{module}: not a module")
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    sys.modules["cardtable.solver._pcore"] = core
    from cardtable.patience import PatienceGame
    from cardtable.patience.registry import load
    from cardtable.solver.patience import solve_game

    description = load(game)
    verdicts: dict[str, str] = {}
    states = 0
    began = time.process_time()
    for deal in range(first, last + 1):
        result = solve_game(PatienceGame.from_seed(description, deal), max_states=max_states, core="patience")
        verdicts[str(deal)] = result.result
        states += result.states
    return {"verdicts": verdicts, "states": states, "cpu": round(time.process_time() - began, 2)}


def _run(module: Path, game: str, first: int, last: int, max_states: int) -> dict[str, object]:
    done = subprocess.run([sys.executable, __file__, "--worker", str(module), game, str(first), str(last),
                           str(max_states)], capture_output=True, text=True, check=False)
    if done.returncode:
        raise CardtableError(f"{game} under {module.parent.name}: {done.stderr.strip().splitlines()[-1:]}")
    row: dict[str, object] = json.loads(done.stdout)
    return row


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        module, game, first, last, max_states = argv[1:6]
        print(json.dumps(solve_deals(module, game, int(first), int(last), int(max_states))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", type=_variant, action="append", default=[], metavar='NAME="FLAGS"',
                        help="a build to compare with the default one (repeatable)")
    parser.add_argument("--games", default="spiderette,spider-2-suits,spider",
                        help="comma-separated game names (default: %(default)s)")
    parser.add_argument("--deals", type=_deals, default=(1, 100), metavar="FIRST-LAST")
    parser.add_argument("--max-states", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--jsonl", help="a line a build and game, written as each finishes; resumed from")
    options = parser.parse_args(argv)
    if options.max_states < 1 or options.jobs < 1:
        parser.error("--max-states and --jobs must be at least 1")
    from cardtable.patience.registry import load

    games = [name.strip() for name in options.games.split(",") if name.strip()]
    for name in games:
        try:
            load(name)
        except CardtableError as error:
            parser.error(f"--games: {error}")
    variants = dict([("default", []), *options.variant])
    first, last = options.deals
    done: dict[tuple[str, str], dict[str, object]] = {}
    if options.jsonl and Path(options.jsonl).exists():
        for _, row in _report.json_lines(options.jsonl):
            if row.get("deals") == [first, last] and row.get("max_states") == options.max_states:
                done[str(row["variant"]), str(row["game"])] = row
    with tempfile.TemporaryDirectory(prefix="cardtable-weights-") as scratch:
        todo = [(name, game) for game in games for name in variants if (name, game) not in done]
        try:
            modules = {name: build(variants[name], Path(scratch) / name) for name in dict.fromkeys(
                name for name, _ in todo)}
        except CardtableError as error:
            print(f"estimate_weights.py: {error}", file=sys.stderr)
            return 2

        def one(job: tuple[str, str]) -> None:
            name, game = job
            row = {"variant": name, "flags": " ".join(variants[name]), "game": game, "deals": [first, last],
                   "max_states": options.max_states,
                   **_run(modules[name], game, first, last, options.max_states)}
            done[job] = row
            if options.jsonl:
                with open(options.jsonl, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")

        with ThreadPoolExecutor(options.jobs) as pool:
            for future in [pool.submit(one, job) for job in todo]:
                future.result()
    print(f"Deals {first}-{last}, {options.max_states:,} states a deal\n")
    rows, differ = [], 0
    for game in games:
        base = done[("default", game)]["verdicts"]
        assert isinstance(base, dict)
        for name in variants:
            row = done[(name, game)]
            verdicts = row["verdicts"]
            assert isinstance(verdicts, dict)
            count = {result: sum(value == result for value in verdicts.values())
                     for result in ("won", "unwinnable", "unknown")}
            against = [deal for deal, value in verdicts.items()
                       if "unknown" not in (value, base[deal]) and value != base[deal]]
            differ += len(against)
            rows.append((game, name, row["flags"] or "-", count["won"], count["unwinnable"], count["unknown"],
                         f"{row['states']:,}", row["cpu"], ", ".join(against) or "-"))
    print(_report.table(("game", "build", "flags", "won", "unwinnable", "undecided", "states", "CPU s",
                         "verdicts differing"), rows))
    return 1 if differ else 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("estimate_weights.py: stopped; the lines written stay", file=sys.stderr)
        raise SystemExit(130) from None
