"""The best-first search's estimate under other weights: builds of the patience core side by side.

    python benchmarks/estimate_weights.py --variant stock4-mixed12="-DW_STOCK=4 -DW_MIXED=12" \\
        [--variant NAME="FLAGS" ...] [--variant NAME="@REVISION [FLAGS]"] \\
        [--games spiderette,spider-2-suits] [--deals 301-500] \\
        [--max-states 200000] [--jobs 2] [--jsonl RUN.jsonl]

The estimate that orders the best-first search (``evaluate`` in
``cardtable/solver/_pcore.c``) weighs what is left to do with compile-time
weights (``W_BREAK``, ``W_MIXED``, ``W_STOCK``, ``W_DOWN`` and the others,
each ``#ifndef`` there). This script builds the core once for each
``--variant`` with its ``-D`` flags (the compiler and flags of the wheel's
build, into a temporary directory, not over the installed core), plus the
build with no flags (``default``, the weights of this checkout), and solves
each game's deals under each build, each build and game in a process of its
own (``--jobs`` at a time, ``_weights_worker.py``), with :func:`cardtable.solver.patience.solve_game`
under ``--max-states`` (no time limit: the counts are the same on any
machine; the CPU seconds are not). Every winning line is replayed in the
rules engine by ``solve_game`` itself.

A variant whose flags begin with ``@REVISION`` (a commit, a tag, ``HEAD~1``)
is the core as it was at that revision of this repository (its
``_pcore.c`` and ``patience.h``, from ``git show``), with the flags after
it: the same deals under the search before and after a change, for a change
that should leave every state as it was and only cost less (the states
then match the default build's deal for deal, and the CPU seconds tell the
gain). The revision is resolved to its commit once, which is what the
report and ``--jsonl`` name.

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import _report
from _paired import deal_range, stopped, whole

from cardtable.errors import CardtableError

_SOURCE = Path(__file__).resolve().parent.parent / "cardtable" / "solver" / "_pcore.c"
#: The process that solves a game's deals under one build (a file of its own: it must load the
#: build before anything imports the solver, as this script's siblings do).
_WORKER = Path(__file__).resolve().parent / "_weights_worker.py"
#: The flags of the wheel's build (pyproject.toml's ext-modules).
_CFLAGS = ("-O3", "-std=c11", "-shared", "-fPIC")
#: The fields of a line of ``--jsonl``, with their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "variant": str, "flags": str, "game": str, "deals": list, "max_states": int, "verdicts": dict, "states": int,
    "cpu": (int, float)}


def _variant(text: str) -> tuple[str, list[str]]:
    name, sep, flags = text.partition("=")
    if not sep or not name or not name.replace("-", "").replace("_", "").isalnum() or name == "default":
        raise argparse.ArgumentTypeError(f"--variant {text!r}: give NAME=\"-DW_X=N ...\" or NAME=\"@REVISION\" "
                                         "(NAME of letters, digits, - and _, not 'default')")
    parts = shlex.split(flags)
    if parts and parts[0].startswith("@"):
        parts[0] = "@" + _commit(name, parts[0][1:])
    bad = [part for part in parts[1 if parts and parts[0].startswith("@") else 0:] if not part.startswith("-D")]
    if bad:
        raise argparse.ArgumentTypeError(f"--variant {name}: {bad[0]!r} is not a -D flag")
    return name, parts


def _commit(name: str, revision: str) -> str:
    """The commit that ``revision`` names in this repository (for ``--variant``)."""
    done = subprocess.run(["git", "-C", str(_SOURCE.parent), "rev-parse", "--verify", "--quiet",
                           f"{revision}^{{commit}}"], capture_output=True, text=True, check=False)
    if done.returncode or not revision:
        raise argparse.ArgumentTypeError(f"--variant {name}: @{revision} names no commit of this repository")
    return done.stdout.strip()


def _sources_at(commit: str, where: Path) -> Path:
    """The core's sources as they were at ``commit``, written into ``where``; the ``_pcore.c`` path."""
    where.mkdir(parents=True, exist_ok=True)
    top = subprocess.run(["git", "-C", str(_SOURCE.parent), "rev-parse", "--show-prefix"], capture_output=True,
                         text=True, check=True).stdout.strip()
    for name in ("_pcore.c", "patience.h"):
        done = subprocess.run(["git", "-C", str(_SOURCE.parent), "show", f"{commit}:./{name}"],
                              capture_output=True, check=False)
        if done.returncode:
            raise CardtableError(f"{top}{name} at {commit[:12]}: {done.stderr.decode().strip()}")
        (where / name).write_bytes(done.stdout)
    return where / "_pcore.c"


def build(flags: list[str], where: Path) -> Path:
    """The patience core built with ``flags`` into ``where`` (the sources of
    this checkout, or of the commit that a first flag ``@COMMIT`` names);
    the module's path."""
    where.mkdir(parents=True, exist_ok=True)
    target = where / "_pcore.so"
    source, named = _SOURCE, " ".join(flags) or "no flags"
    if flags and flags[0].startswith("@"):
        source = _sources_at(flags[0][1:], where / "source")
        flags = flags[1:]
    includes = {sysconfig.get_paths()["include"], sysconfig.get_paths()["platinclude"]}
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    command = [compiler, *_CFLAGS, *(f"-I{path}" for path in sorted(includes)), f"-I{source.parent}", *flags,
               str(source), "-o", str(target)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise CardtableError(f"building with {named} failed:\n{done.stderr.strip()}")
    return target


def _run(module: Path, game: str, first: int, last: int, max_states: int) -> dict[str, object]:
    done = subprocess.run([sys.executable, str(_WORKER), str(module), game, str(first), str(last), str(max_states)],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        last_line = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise CardtableError(f"{game} under the build {module.parent.name}: {last_line}")
    row: dict[str, object] = json.loads(done.stdout)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", type=_variant, action="append", default=[], metavar='NAME="FLAGS"',
                        help="a build to compare with the default one (repeatable)")
    parser.add_argument("--games", default="spiderette,spider-2-suits,spider",
                        help="comma-separated game names (default: %(default)s)")
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-100"), metavar="FIRST-LAST")
    parser.add_argument("--max-states", type=whole, default=200_000)
    parser.add_argument("--jobs", type=whole, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--jsonl", help="a line a build and game, written as each finishes; resumed from")
    options = parser.parse_args(argv)
    names = [name for name, _ in options.variant]
    if len(set(names)) < len(names):
        parser.error("--variant: each build needs a name of its own")
    from cardtable.patience.registry import load

    options.games = [name.strip() for name in options.games.split(",") if name.strip()]
    for name in options.games:
        try:
            load(name)
        except CardtableError as error:
            parser.error(f"--games: {error}")
    try:
        return _compare(options)
    except CardtableError as error:
        print(f"estimate_weights.py: {error}", file=sys.stderr)
        return 2


def _compare(options: argparse.Namespace) -> int:
    games = options.games
    variants: dict[str, list[str]] = dict([("default", []), *options.variant])
    first, last = options.deals.start, options.deals.stop - 1
    done: dict[tuple[str, str], dict[str, object]] = {}
    if options.jsonl and Path(options.jsonl).exists():
        # a line is reused for the same build (its flags too), game, deals and budget
        for number, row in _report.json_lines(options.jsonl):
            _report.check_fields(row, FIELDS, f"{options.jsonl}, line {number}")
            name = str(row["variant"])
            if (row["deals"] == [first, last] and row["max_states"] == options.max_states and name in variants
                    and row["flags"] == " ".join(variants[name])):
                done[name, str(row["game"])] = row
    with tempfile.TemporaryDirectory(prefix="cardtable-weights-") as scratch:
        todo = [(name, game) for game in games for name in variants if (name, game) not in done]
        modules = {name: build(variants[name], Path(scratch) / name) for name in dict.fromkeys(
            name for name, _ in todo)}

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
            futures = [pool.submit(one, job) for job in todo]
            try:
                for future in futures:
                    future.result()
            except BaseException:
                # a build that fails, or Ctrl-C: the jobs not begun are not begun (the lines written stay)
                pool.shutdown(wait=False, cancel_futures=True)
                raise
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
        stopped("estimate_weights.py")
