"""The ``cardtable`` command line: a thin layer over the library.

Each front end module registers its own sub-commands with a function
``register(subparsers)``; every sub-command sets ``func``, a callable that takes
the parsed arguments and returns the exit status. Bad input raises
:class:`ValueError` (cards, deals, records, variants all raise subclasses of
it); :func:`main` turns it into one clear line on stderr and exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Sequence

__all__ = ["CommandError", "build_parser", "main"]


class CommandError(ValueError):
    """A command was given input it cannot use; the message says which and why."""


def _registrars() -> list[Callable[[argparse._SubParsersAction], None]]:
    from cardtable.klondike import cli as klondike_cli

    registrars = [klondike_cli.register]
    for module_name in (
        "cardtable.bots.cli",
        "cardtable.sim.cli",
        "cardtable.solver.cli",
        "cardtable.kings_corner.cli",
    ):
        try:
            module = __import__(module_name, fromlist=["register"])
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                continue  # that front end is not part of this installation
            raise
        registrars.append(module.register)
    return registrars


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="Play, study and solve solitaire-family card games.",
    )
    from cardtable import __version__

    parser.add_argument("--version", action="version", version=f"cardtable {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _registrars():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("cardtable: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as error:
        print(f"cardtable: error: {error}", file=sys.stderr)
        return 2
    except sqlite3.Error as error:
        print(f"cardtable: error: results store: {error}", file=sys.stderr)
        return 2
