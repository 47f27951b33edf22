"""Markdown results files for the benchmarks (``--markdown PATH``), stamped with where they come from.

Every benchmark that prints a table can also write it to a Markdown file that
``docs/results.md`` includes. The file starts with a stamp, so a figure on the
site always says how it was made:

- the command line that produced it (``python benchmarks/NAME.py ARGS``);
- the date, in UTC;
- the machine: ``platform.platform()``, the CPU model (from ``/proc/cpuinfo``
  when there is one), ``os.cpu_count()`` and the Python version;
- the commit: ``git rev-parse --short HEAD``, with ``-dirty`` when the working
  tree has changes, or ``unknown`` outside a checkout.

The file is written atomically (:func:`cardtable._files.atomic_write_text`): a
reader sees the old file or the new one, never half of one, and an interrupted
run leaves no temporary file behind.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "demo.md")
    >>> write_markdown(path, "## Demo", table(["a", "b"], [[1, "x|y"]]), argv=["demo.py", "--n", "1"])
    >>> text = open(path).read()
    >>> "`python demo.py --n 1`" in text, "| 1 | x\\\\|y |" in text
    (True, True)
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from cardtable._files import atomic_write_text, check_output
from cardtable.errors import CardtableError, UsageError

__all__ = ["add_option", "check_fields", "command_line", "commit", "cpu_model", "json_lines", "stamp", "table",
           "write_markdown"]

_REPOSITORY = Path(__file__).resolve().parents[1]


def _writable(path: str) -> str:
    """``path`` if a file can be written there, checked before the benchmark runs (exit 2 otherwise)."""
    try:
        check_output(path)
    except (CardtableError, OSError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return path


def add_option(parser: argparse.ArgumentParser) -> None:
    """Give a benchmark's parser ``--markdown PATH`` and ``--markdown-note TEXT``."""
    parser.add_argument("--markdown", metavar="PATH", type=_writable,
                        help="also write the table(s) to this Markdown file, stamped with the command, "
                             "date, machine and commit (docs/results/*.md)")
    parser.add_argument("--markdown-note", metavar="TEXT",
                        help="a line to set under the stamp (how loaded the machine was, say)")


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command that ran, as a user would type it again: ``python benchmarks/NAME.py ARGS``."""
    words = list(sys.argv if argv is None else argv)
    script = Path(words[0]) if words else Path("?")
    try:
        shown = script.resolve().relative_to(_REPOSITORY).as_posix()
    except ValueError:
        shown = script.as_posix()
    return shlex.join(["python", shown, *words[1:]])


def cpu_model(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The CPU's model name from ``/proc/cpuinfo``, else what :mod:`platform` knows."""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "cpu model") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def commit(where: str | os.PathLike[str] = _REPOSITORY) -> str:
    """``git rev-parse --short HEAD`` in ``where``, ``-dirty`` added when the tree has changes;
    ``unknown`` outside a checkout or without git."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True,
                              check=True, timeout=30).stdout.strip()
    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}-dirty" if dirty else head


def stamp(argv: Sequence[str] | None = None, note: str | None = None) -> str:
    """The Markdown lines that say how a results file was made (command, date, machine, commit)."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = (f"{platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs; "
               f"Python {platform.python_version()}")
    lines = [f"- **command:** `{command_line(argv)}`",
             f"- **date:** {now}",
             f"- **machine:** {machine}",
             f"- **commit:** `{commit()}`"]
    if note:
        lines += ["", note]
    return "\n".join(lines)


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table; ``|`` inside a cell is escaped."""
    lines = ["| " + " | ".join(_cell(name) for name in header) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def write_markdown(path: str | os.PathLike[str], title: str, body: str, *,
                   argv: Sequence[str] | None = None, note: str | None = None) -> None:
    """Write ``title``, the stamp, then ``body`` (the tables, in Markdown) to ``path``, atomically.

    ``title`` is a Markdown heading (or empty); ``argv`` defaults to
    :data:`sys.argv`; ``note`` is a line set under the stamp (how loaded the
    machine was, say).
    """
    parts = [title, stamp(argv, note), body.strip()] if title else [stamp(argv, note), body.strip()]
    atomic_write_text(path, "\n\n".join(parts) + "\n")


def json_lines(path: str) -> Iterator[tuple[int, dict[str, object]]]:
    """The JSON objects of a benchmark's ``--jsonl`` file, with their line
    numbers (blank lines skipped). A line that is not a JSON object, or a
    file that cannot be read as text, is a :class:`UsageError` naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as error:
                    raise UsageError(f"{path}, line {number}: not JSON ({error.msg})") from None
                if not isinstance(row, dict):
                    raise UsageError(f"{path}, line {number}: not a JSON object")
                yield number, row
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text file") from None
    except OSError as error:
        raise UsageError(f"{path}: {error.strerror}") from None


def program(path: str, option: str) -> str:
    """The program ``path`` names (a path, or a name looked up on ``PATH``)
    when it is an executable file, else a :class:`UsageError` naming ``option``."""
    found = shutil.which(path) if os.sep not in path else (path if os.access(path, os.X_OK) else None)
    if found is None or not os.path.isfile(found):
        raise UsageError(f"{option} {path}: not an executable program")
    return found


def at_least_one(option: str, value: int) -> None:
    """A :class:`UsageError` unless the count ``value`` of ``option`` is 1 or more."""
    if value < 1:
        raise UsageError(f"{option} {value}: at least 1")


def a_seed(option: str, value: int) -> None:
    """A :class:`UsageError` unless ``value`` of ``option`` is a seed (0 or more)."""
    if value < 0:
        raise UsageError(f"{option} {value}: a seed is a whole number >= 0")


def more_than_zero(option: str, value: float, unit: str = "") -> None:
    """A :class:`UsageError` unless ``value`` of ``option`` is above 0 (a NaN is not);
    ``unit`` ends the message ("seconds")."""
    if not value > 0:
        raise UsageError(f"{option} {value:g}: more than 0{' ' + unit if unit else ''}")


def check_fields(row: Mapping[str, object], fields: Mapping[str, type | tuple[type, ...]], where: str,
                 hint: str = "") -> None:
    """A :class:`UsageError` at ``where`` (a file and line) unless ``row`` has
    each of ``fields`` with a value of its type (a bool is no number);
    ``hint`` follows the message of a missing field."""
    for name, kind in fields.items():
        if name not in row:
            raise UsageError(f"{where}: no field {name!r}{hint}")
        if isinstance(row[name], bool) or not isinstance(row[name], kind):
            raise UsageError(f"{where}: field {name!r} is {row[name]!r}")
