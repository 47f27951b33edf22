"""Solver commands: ``solve`` (one deal or a batch) and ``hint``.

The solver (numba) is imported inside the commands, so building the parser
does not compile or load it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from cardtable.cli._files import atomic_write_text, check_output, read_deals_file, read_text
from cardtable.cli._options import (
    add_variant_arguments,
    progress_bar,
    seconds,
    seed,
    variant_from_args,
    whole_number,
    worker_count,
)
from cardtable.klondike.formats import load_start, read_layout
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant

if TYPE_CHECKING:
    from cardtable.solver import SolveResult

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``solve`` and ``hint`` commands."""
    p = subparsers.add_parser(
        "solve", help="decide whether a deal can be won (with a winning line) or prove it cannot",
        description="Exact search over the full-information deal: won (with a solution the engine "
        "replays), unwinnable (exhaustive search) or unknown (a budget ran out).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", metavar="STRING", help="a deal string or position string")
    src.add_argument("--seed", type=seed, help="deal number")
    src.add_argument("--file", metavar="F", help="a deal string, position, PySol board, Solvitaire JSON "
                     "or game record (solves from its last position) ('-' for stdin)")
    src.add_argument("--deals", metavar="FILE",
                     help="batch: one seed number, deal string or position string a line")
    p.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS",
                   help="give up after this long (default 60)")
    p.add_argument("--max-states", type=whole_number(1), default=None, metavar="N",
                   help="give up after N states (this bounds memory too: at most about 70 bytes a state)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--output", "-o", metavar="FILE", help="batch: write the JSON lines here (atomically)")
    p.add_argument("--workers", type=worker_count, default=None, metavar="N",
                   help=f"batch: processes to use (default 1; this machine has {os.cpu_count()} cores)")
    add_variant_arguments(p, default="draw1")
    p.set_defaults(func=_cmd_solve)

    p = subparsers.add_parser("hint", help="the next move of a winning line for a saved game or layout")
    p.add_argument("file", metavar="FILE", help="a game record or layout ('-' for stdin)")
    p.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                   help="search this long for a win (default 10)")
    p.add_argument("--max-states", type=whole_number(1), default=None, metavar="N", help="state budget")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_arguments(p, default="draw1")
    p.set_defaults(func=_cmd_hint)


def _result_line(result: SolveResult) -> str:
    extra = f" ({result.reason})" if result.reason else ""
    moves = f", {len(result.moves)} moves" if result.result == "won" else ""
    return f"{result.result}{extra}: {result.states} states, {result.seconds:.3f} s{moves}"


def _cmd_batch(args: argparse.Namespace, variant: Variant) -> int:
    """Solve every deal of the file. Interrupted (Ctrl-C, SIGTERM), it keeps
    the rows solved so far (the output file is written with them, empty when
    none finished), says how many, and returns 130 (143 for SIGTERM)."""
    from cardtable.solver import solve_batch, summarize_solves

    check_output(args.output)  # before the work, not after it
    deals = read_deals_file(args.deals)
    rows: list[dict[str, object]] = []

    def keep(row: dict[str, object], advance: Callable[[int], None]) -> None:
        rows.append(row)
        advance(1)

    interrupted = False
    with progress_bar(len(deals), "solving", transient=False) as advance:
        try:
            solve_batch(deals, variant, timeout=args.timeout, max_states=args.max_states,
                        workers=args.workers or 1, on_result=lambda row: keep(row, advance))
        except KeyboardInterrupt:
            interrupted = True
    text = "".join(json.dumps(row) + "\n" for row in rows)
    if args.output:
        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    print(summarize_solves(rows).text(), file=sys.stderr)
    if interrupted:
        from cardtable.cli import interruption

        what, status = interruption()
        print(f"cardtable: {what}: kept the {len(rows):,} of {len(deals):,} deals solved", file=sys.stderr)
        return status
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    variant = variant_from_args(args)
    if args.deals is not None:
        return _cmd_batch(args, variant)
    if args.seed is not None:
        position = Position.from_seed(args.seed)
    elif args.deal is not None:
        position = read_layout(args.deal)
    else:
        position, record = load_start(read_text(args.file))
        if record is not None:
            variant = record.variant
    from cardtable.solver import solve

    result = solve(position, variant, timeout=args.timeout, max_states=args.max_states)
    if args.json:
        print(json.dumps({**result.to_dict(), "variant": variant.options()}))
    else:
        print(_result_line(result))
        if result.moves:
            print(" ".join(str(m) for m in result.moves))
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from cardtable.solver import hint

    variant = variant_from_args(args)
    position, record = load_start(read_text(args.file))
    game = record.replay() if record is not None else KlondikeGame(position, variant)
    found = hint(game, timeout=args.timeout, max_states=args.max_states)
    if args.json:
        print(json.dumps({"move": str(found.move) if found.move else None, "winning": found.winning,
                          **found.search.to_dict()}))
    else:
        print(found.describe())
    return 0
