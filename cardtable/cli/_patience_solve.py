"""``solve --game``: the exact solver for every patience game of the registry
(or a description file), with Klondike's answers and JSON.

One deal (``--seed N|ms:N|pysol:N``, ``--deal`` a position string,
``--file`` a position, PySol board, Solvitaire JSON or game record) prints
its verdict; ``--deals FILE`` solves one deal a line (a seed, ``ms:N``,
``pysol:N`` or a position string of the game) as Klondike's batches do
(``cardtable.cli.solve``): on ``--workers`` processes or a ``--cluster``,
each deal kept in the results store as it is solved (unless
``--no-store``), the rows printed (or written to ``--output``) in deal
order, an interrupted batch finished with ``solve --resume RUN``.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from cardtable.cli._options import result_line, solve_timeout
from cardtable.errors import CardtableError, UsageError

if TYPE_CHECKING:
    from cardtable.patience import Description, PatienceGame

__all__ = ["solve"]

#: What one deal does not take: a batch's store, processes and progress.
_BATCH_ONLY = ("--cluster", "--store", "--no-store", "--workers", "--no-progress")


def _game_of(description: Description, text: str, where: str) -> PatienceGame:
    """A deal of the game from one line: a seed, ``ms:N``, ``pysol:N`` or a position string."""
    from cardtable.cli._patience import _NUMBERED, _read_layout
    from cardtable.patience import PatienceGame

    value = text.strip()
    try:
        if value.isdigit() or _NUMBERED.fullmatch(value):
            return PatienceGame.from_seed(description, value.replace(" ", ""))
        return _read_layout(description, value)
    except CardtableError as error:
        raise UsageError(f"{where}: {error}") from None


def refuse_options(args: argparse.Namespace, description: Description) -> None:
    """Klondike's rule options have no meaning for another game: refused in one line."""
    from cardtable.cli._patience import _refuse_klondike_options

    _refuse_klondike_options(args, description, variant_default="draw1")


def solve(args: argparse.Namespace, description: Description) -> int:
    """``solve --game`` of one deal (a batch, ``--deals``, is Klondike's
    batch command with the game's description: ``cardtable.cli.solve``)."""
    refuse_options(args, description)
    if args.output is not None:
        raise UsageError("--output is for batches (--deals FILE): one deal is printed")
    for flag in _BATCH_ONLY:
        if getattr(args, flag.removeprefix("--").replace("-", "_"), None) not in (None, False):
            raise UsageError(f"{flag} is for batches (--deals FILE): one deal is solved here")
    from cardtable.solver.patience import solve_game

    if args.seed is not None:
        game = _game_of(description, str(args.seed), "--seed")
    elif args.deal is not None:
        game = _game_of(description, args.deal, "--deal")
    else:
        game = _from_file(args.file, description)
    result = solve_game(game, timeout=solve_timeout(args), max_states=args.max_states)
    if args.json:
        print(json.dumps({**result.to_dict(), "game": description.name}))
    else:
        print(result_line(result))
        if result.moves:
            print(" ".join(str(m) for m in result.moves))
    return 0


def _from_file(path: str, description: Description) -> PatienceGame:
    """The position of a file: a position string, a PySol board, Solvitaire's
    deal JSON, or a game record (its last position)."""
    from cardtable._files import read_text
    from cardtable.cli._patience import _read_layout, _record
    from cardtable.patience.record import PatienceRecord

    text = read_text(path)
    if PatienceRecord.is_patience_record(text):
        return _record(text, description).replay()
    return _read_layout(description, text)


def read_game_lines(path: str, description: Description) -> list[tuple[str, PatienceGame]]:
    """The deals of a batch file, one a line (a seed, ``ms:N``, ``pysol:N``
    or a position string; blank lines and ``#`` comments skipped), each with
    its label and its game; a bad line is a :class:`UsageError` naming the
    file and the line."""
    from cardtable._files import read_text

    deals = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        text = line.strip()
        if text and not text.startswith("#"):
            deals.append((text, _game_of(description, text, f"{path}, line {number}")))
    if not deals:
        raise UsageError(f"{path}: no deals (one a line: a number, ms:N, pysol:N or a position string)")
    return deals
