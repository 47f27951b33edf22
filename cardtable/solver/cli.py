"""Solver commands: ``solve`` (one deal or a batch) and ``hint``."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Iterable

from cardtable.argtypes import seconds, seed, whole_number
from cardtable.files import atomic_write_text, read_text
from cardtable.klondike.cli import add_variant_arguments, load_start, variant_from_args
from cardtable.klondike.formats import read_layout
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver.hint import hint
from cardtable.solver.search import SolverError, SolveResult, solve
from cardtable.stats import wilson

__all__ = ["read_deals", "register", "summarize"]


def read_deals(text: str) -> list[tuple[str, Position]]:
    """The deals of a batch file: one a line, a seed number or a layout (deal
    string or position string); blank lines and ``#`` comments are skipped.
    Returns ``(label, position)`` pairs; the label is the line as written."""
    deals = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            position = Position.from_seed(int(line)) if line.isdigit() else read_layout(line)
        except ValueError as error:
            raise SolverError(f"deals file, line {number}: {error}") from None
        deals.append((line, position))
    if not deals:
        raise SolverError("the deals file holds no deals")
    return deals


def summarize(results: Iterable[dict[str, object]]) -> str:
    """A few lines: counts, winnability with its 95% interval, times."""
    rows = list(results)
    won = sum(r["result"] == "won" for r in rows)
    lost = sum(r["result"] == "unwinnable" for r in rows)
    unknown = len(rows) - won - lost
    times = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    lines = [f"{len(rows)} deals: {won} won, {lost} unwinnable, {unknown} unknown"]
    if won + lost:
        low, high = wilson(won, won + lost)
        lines.append(f"winnable: {100 * won / (won + lost):.2f}% of decided deals "
                     f"(95% interval {100 * low:.2f}%..{100 * high:.2f}%)")
        if unknown:
            low_all, high_all = 100 * won / len(rows), 100 * (won + unknown) / len(rows)
            lines.append(f"bounds over all deals: {low_all:.2f}%..{high_all:.2f}%")
    if times:
        lines.append(f"time per deal: median {statistics.median(times):.4f} s, mean {statistics.fmean(times):.4f} s")
    return "\n".join(lines)


def _result_line(result: SolveResult) -> str:
    extra = f" ({result.reason})" if result.reason else ""
    moves = f", {len(result.moves)} moves" if result.result == "won" else ""
    return f"{result.result}{extra}: {result.states} states, {result.seconds:.3f} s{moves}"


def _solve_one(job: tuple[str, str, dict[str, object], float | None, int | None]) -> dict[str, object]:
    label, position_text, options, timeout, max_states = job
    result = solve(Position.parse(position_text), Variant.from_options(options),
                   timeout=timeout, max_states=max_states)
    return {"deal": label, **result.to_dict()}


def _cmd_batch(args: argparse.Namespace, variant: Variant) -> int:
    deals = read_deals(read_text(args.deals))
    jobs = [(label, str(pos), variant.options(), args.timeout, args.max_states) for label, pos in deals]
    workers = args.workers or 1
    results: list[dict[str, object]] = []
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("solving"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=_stderr_console(), transient=False) as progress:
        task = progress.add_task("solve", total=len(jobs))
        if workers == 1:
            for job in jobs:
                results.append(_solve_one(job))
                progress.advance(task)
        else:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=workers) as pool:
                for row in pool.map(_solve_one, jobs, chunksize=1):
                    results.append(row)
                    progress.advance(task)
    text = "".join(json.dumps(row) + "\n" for row in results)
    if args.output:
        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    print(summarize(results), file=sys.stderr)
    return 0


def _stderr_console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console(stderr=True)


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
    result = solve(position, variant, timeout=args.timeout, max_states=args.max_states)
    if args.json:
        print(json.dumps({**result.to_dict(), "variant": variant.options()}))
    else:
        print(_result_line(result))
        if result.moves:
            print(" ".join(str(m) for m in result.moves))
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
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
    src.add_argument("--deals", metavar="FILE", help="batch: one seed number or deal string a line")
    p.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS",
                   help="give up after this long (default 60)")
    p.add_argument("--max-states", type=whole_number(1), default=None, metavar="N",
                   help="give up after N states (this bounds memory too: at most about 70 bytes a state)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--output", "-o", metavar="FILE", help="batch: write the JSON lines here (atomically)")
    p.add_argument("--workers", type=whole_number(1), default=None, metavar="N",
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
