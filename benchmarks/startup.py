"""Start-up: whole-process time of single commands, each the median of several runs.

Run: ``python benchmarks/startup.py [--runs 10] [--tree LABEL=PATH ...]``

Each run starts a new interpreter that does what the installed ``cardtable``
script does (``from cardtable.cli import main; sys.exit(main())``) with the
checkout's folder first on ``PYTHONPATH``, and waits for it to end. As an
installed package does, it runs from compiled bytecode: an untimed first run
of each command writes it (``PYTHONDONTWRITEBYTECODE`` is taken out of the
runs' environment), so no timed run compiles a module. Two figures
are kept for a run: the wall time from start to exit, and the CPU time the
process used (user + system, from :func:`os.wait4`), which a loaded machine
disturbs less than the wall time. The table shows the median of each over
``--runs`` runs, for every command and every checkout.

With several ``--tree`` options (``before=/path/to/old/checkout``, say), the
checkouts take turns run by run, so a change in the machine's load falls on
both alike. The first line of the table is the interpreter alone
(``python -c pass``): the floor under every command, which no change in
cardtable can lower.

The commands are ``cardtable solve --seed 1`` (an easy deal, 1,012 states),
``cardtable solve --seed 4200012 --variant thoughtful3`` (a medium one, which
needs the best-first probes) and ``cardtable --help``; ``--command 'ARGS'``
replaces them (repeatable).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import _report

_REPOSITORY = Path(__file__).resolve().parents[1]

#: The commands measured unless ``--command`` is given.
COMMANDS = ("solve --seed 1", "solve --seed 4200012 --variant thoughtful3", "--help")

#: What the installed ``cardtable`` script runs.
_SCRIPT = "import sys; from cardtable.cli import main; sys.exit(main())"


def _tree(text: str) -> tuple[str, Path]:
    label, sep, path = text.partition("=")
    if not sep or not label or not path:
        raise argparse.ArgumentTypeError(f"{text!r} is not LABEL=PATH")
    folder = Path(path).expanduser().resolve()
    if not (folder / "cardtable" / "cli" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{path}: no cardtable checkout there")
    return label, folder


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def run_once(argv: Sequence[str], tree: Path | None, where: str) -> tuple[float, float]:
    """Run ``python ARGV`` once in a new process in the folder ``where``
    (empty: ``python -c`` looks for modules in the current folder first,
    which could hold another checkout), with ``tree`` first on
    ``PYTHONPATH``: its wall time and its CPU time (user + system), in
    seconds. Its output is thrown away; a failing command stops the
    benchmark."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, *argv], env=env, cwd=where, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read() if process.stderr is not None else b""
    if process.stderr is not None:
        process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"startup.py: {shlex.join(argv)} failed with status {process.returncode}: "
                         f"{stderr.decode(errors='replace').strip()[-300:]}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(commands: Sequence[str], trees: Sequence[tuple[str, Path | None]],
            runs: int) -> list[list[object]]:
    """The table's rows: for each command and checkout, the median wall and CPU time in ms."""
    with tempfile.TemporaryDirectory(prefix="cardtable-startup-") as where:
        return _measure(commands, trees, runs, where)


def _measure(commands: Sequence[str], trees: Sequence[tuple[str, Path | None]], runs: int,
             where: str) -> list[list[object]]:
    rows: list[list[object]] = []
    plans: list[tuple[str, list[str]]] = [("python -c pass", ["-c", "pass"])]
    plans += [(f"cardtable {command}", ["-c", _SCRIPT, *shlex.split(command)]) for command in commands]
    for shown, argv in plans:
        floor = argv == ["-c", "pass"]
        chosen = trees[:1] if floor else trees
        walls: dict[str, list[float]] = {label: [] for label, _ in chosen}
        cpus: dict[str, list[float]] = {label: [] for label, _ in chosen}
        for _, tree in chosen:  # one untimed run each: the bytecode is written, the files are in the page cache
            run_once(argv, tree, where)
        for _ in range(runs):
            for label, tree in chosen:
                wall, cpu = run_once(argv, tree, where)
                walls[label].append(wall)
                cpus[label].append(cpu)
        for label, _ in chosen:
            rows.append([shown, "" if floor else label, f"{statistics.median(walls[label]) * 1000:.0f}",
                         f"{statistics.median(cpus[label]) * 1000:.0f}",
                         f"{min(walls[label]) * 1000:.0f}-{max(walls[label]) * 1000:.0f}"])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=_positive, default=10, help="runs of each command (default 10)")
    parser.add_argument("--tree", type=_tree, action="append", metavar="LABEL=PATH",
                        help="a checkout to measure (repeatable; default: this one)")
    parser.add_argument("--command", action="append", metavar="ARGS",
                        help="the arguments of a cardtable command to measure (repeatable)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    trees: list[tuple[str, Path | None]] = list(args.tree or [("this checkout", _REPOSITORY)])
    commands = args.command or list(COMMANDS)
    rows = measure(commands, trees, args.runs)
    header = ["command", "checkout", "wall ms (median)", "CPU ms (median)", "wall ms (range)"]
    body = (f"Each figure is over {args.runs} whole-process runs; CPU is user + system time.\n\n"
            + _report.table(header, rows))
    print(body)
    if args.markdown:
        _report.write_markdown(args.markdown, "## Start-up", body, argv=sys.argv if argv is None else
                               ["benchmarks/startup.py", *argv], note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
