"""``solve --game``: the exact solver for every patience game of the registry
(or a description file), with Klondike's answers and JSON.

One deal (``--seed N|ms:N|pysol:N``, ``--deal`` a position string,
``--file`` a position, PySol board, Solvitaire JSON or game record) prints
its verdict; ``--deals FILE`` solves one deal a line (a seed, ``ms:N``,
``pysol:N`` or a position string of the game) and prints one JSON line a
deal as each is decided, so that an interrupted batch keeps every line
printed (and, with ``--output``, writes them).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from cardtable._text import plural
from cardtable.cli._options import interrupted, result_line, solve_timeout
from cardtable.errors import CardtableError, UsageError

if TYPE_CHECKING:
    from cardtable.patience import Description, PatienceGame

__all__ = ["solve"]

#: What ``solve --game`` does not take (Klondike's batch store and workers).
_KLONDIKE_ONLY = ("--resume", "--cluster", "--store", "--no-store", "--workers", "--no-progress")


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


def solve(args: argparse.Namespace, description: Description) -> int:
    """``solve --game``: one deal, or a batch with ``--deals``."""
    from cardtable.cli._patience import _refuse_klondike_options

    _refuse_klondike_options(args, description, variant_default="draw1", extra=_KLONDIKE_ONLY)
    if args.deals is not None:
        return _batch(args, description)
    if args.output is not None:
        raise UsageError("--output is for batches (--deals FILE): one deal is printed")
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


def _deal_lines(path: str) -> list[tuple[int, str]]:
    """The deals of a batch file, with their line numbers (blank lines and
    ``#`` comments skipped)."""
    from cardtable._files import read_text

    deals = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        text = line.strip()
        if text and not text.startswith("#"):
            deals.append((number, text))
    if not deals:
        raise UsageError(f"{path}: no deals (one a line: a number, ms:N, pysol:N or a position string)")
    return deals


def _batch(args: argparse.Namespace, description: Description) -> int:
    """Every deal of ``--deals``, one JSON line each as it is decided; Ctrl-C
    keeps the lines printed (and writes them to ``--output``)."""
    from cardtable._files import atomic_write_text, check_outputs
    from cardtable.solver.patience import solve_game

    check_outputs({"--output": args.output}, {"--deals": args.deals})
    lines = _deal_lines(args.deals)
    games = [(text, _game_of(description, text, f"{args.deals}, line {number}")) for number, text in lines]
    timeout = solve_timeout(args)
    rows: list[str] = []
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    stopped = False
    try:
        for text, game in games:
            result = solve_game(game, timeout=timeout, max_states=args.max_states)
            row = json.dumps({"deal": text, **result.to_dict(), "game": description.name})
            rows.append(row)
            counts[result.result] += 1
            if args.output is None:
                print(row, flush=True)
    except KeyboardInterrupt:
        stopped = True
    if args.output is not None:
        atomic_write_text(args.output, "".join(row + "\n" for row in rows))
    summary = ", ".join(f"{count:,} {name}" for name, count in counts.items())
    print(f"{description.title}: {plural(len(rows), 'deal')} solved: {summary}", file=sys.stderr)
    if stopped:
        return interrupted(f"kept the {len(rows):,} of {len(games):,} deals solved", "")
    return 0

