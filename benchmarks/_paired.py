"""What the benchmarks that solve each deal two ways share (``commute_rule.py``,
``quick_scans.py``, ``depth_probe.py``, ``through_spaces.py``,
``cell_onto.py``): their options,
their ``--jsonl`` file of a line a deal (written as they go, read back to
resume), their loop over the games' deals, a deal's two solves timed, the
totals of a game's deals, the table of the deals only one side decides, and
the line of a run stopped by Ctrl-C."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import _report

from cardtable.errors import CardtableError
from cardtable.patience import PatienceGame
from cardtable.patience.registry import load
from cardtable.solver.patience import PatienceSolveResult

#: The fields of a deal's line in ``--jsonl``, with their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str, "deal": int, "with": str, "without": str, "with_states": int, "without_states": int,
    "with_cpu": (int, float), "without_cpu": (int, float)}


def solve_sides(solves: dict[str, Callable[[], PatienceSolveResult]], first: str) -> dict[str, object]:
    """A deal's line: each side's result, states and CPU seconds, ``solves``
    giving each side's solve; the side ``first`` is solved first (the two take
    turns from deal to deal, so that neither always finds the caches warm)."""
    row: dict[str, object] = {}
    for side in sorted(solves, key=lambda side: side != first):
        began = time.process_time()
        result = solves[side]()
        row[side] = result.result
        row[f"{side}_states"] = result.states
        row[f"{side}_cpu"] = round(time.process_time() - began, 5)
    return row


def totals(rows: list[dict[str, object]]) -> tuple[list[int], list[float], str]:
    """The states and CPU seconds of a game's deals in all, ``with`` then
    ``without``, and the ratio of the CPU (``-`` when ``without`` took none)."""
    states = [sum(int(str(row[f"{side}_states"])) for row in rows) for side in ("with", "without")]
    cpu = [sum(float(str(row[f"{side}_cpu"])) for row in rows) for side in ("with", "without")]
    return states, cpu, f"{cpu[0] / cpu[1]:.3f}" if cpu[1] else "-"


def disagreement(row: dict[str, object], with_: str, without: str, *, proofs_alike: bool = False) -> str | None:
    """Why the two sides of a deal disagree (each decided, with opposite
    verdicts; with ``proofs_alike``, also both unwinnable in different counts
    of states, where the two searches key the same positions), or None;
    ``with_`` and ``without`` name the two sides' searches."""
    if "unknown" in (row["with"], row["without"]):
        return None
    if row["with"] != row["without"]:
        return f"{row['with']} {with_}, {row['without']} {without}"
    if proofs_alike and row["with"] == "unwinnable" and row["with_states"] != row["without_states"]:
        return f"unwinnable in {row['with_states']} states {with_}, {row['without_states']} {without}"
    return None


#: The head of the table of ``only_report``.
ONLY_HEAD = ("| game | deals | decided with / without | won | unwinnable | decided only with | decided only "
             "without | disagree | states with / without | CPU s with / without | ratio |",
             "|---|--:|---|---|---|---|---|--:|--:|--:|--:|")


def only_report(game: str, rows: list[dict[str, object]], why: Callable[[dict[str, object]], str | None]) -> str:
    """A game's row of ``ONLY_HEAD``'s table: the deals decided, won and proved
    unwinnable by each side, the deals only one side decides (by number), the
    deals ``why`` finds disagreeing, and the states and CPU of each side."""
    def count(side: str, *results: str) -> int:
        return sum(row[side] in results for row in rows)

    def only(side: str, other: str) -> str:
        deals = [str(row["deal"]) for row in rows if row[side] != "unknown" and row[other] == "unknown"]
        return ", ".join(deals) or "-"

    wrong = sum(why(row) is not None for row in rows)
    states, cpu, ratio = totals(rows)
    return (f"| {game} | {len(rows)} | {count('with', 'won', 'unwinnable')} / "
            f"{count('without', 'won', 'unwinnable')} | {count('with', 'won')} / {count('without', 'won')} | "
            f"{count('with', 'unwinnable')} / {count('without', 'unwinnable')} | {only('with', 'without')} | "
            f"{only('without', 'with')} | {wrong} | {states[0]:,} / {states[1]:,} | {cpu[0]:.2f} / {cpu[1]:.2f} | "
            f"{ratio} |")


def only_main(argv: list[str] | None, doc: str | None, games: Sequence[str], title: str,
              sides: Callable[[PatienceGame, int], dict[str, Callable[[], PatienceSolveResult]]],
              labels: tuple[str, str], *, proofs_alike: bool = False, max_states: int = 1_000_000) -> int:
    """The whole of a benchmark whose table is ``ONLY_HEAD``'s: its options
    (deals 1-100 and ``max_states`` states by default), then each deal solved by
    ``sides(game, max_states)``'s two solves, ``with`` first on odd deals;
    ``labels`` name the two sides' searches in a disagreement (and
    ``proofs_alike`` counts proofs in different states as one, see
    :func:`disagreement`), ``title`` the report."""
    parser = paired_parser(doc, games, "1-100", max_states)
    args = parser.parse_args(argv)

    def why(row: dict[str, object]) -> str | None:
        return disagreement(row, *labels, proofs_alike=proofs_alike)

    header = (f"# {title}, deals {args.deals.start}-{args.deals.stop - 1}, {args.max_states:,} states a search",
              *ONLY_HEAD)
    return run_paired(parser, args, header,
                      lambda game, deal: solve_sides(sides(game, args.max_states), "with" if deal % 2 else "without"),
                      why, lambda game, rows: only_report(game, rows, why))


def stopped(name: str) -> None:
    """Ctrl-C's (or SIGTERM's, :func:`run_paired`) line on standard error (the lines written stay), and
    exit 130."""
    print(f"{name}: stopped (the lines above and in --jsonl are complete)", file=sys.stderr)
    raise SystemExit(130) from None


def read_done(path: Path) -> dict[tuple[str, int], dict[str, object]]:
    """The deals of a ``--jsonl`` file, by game and deal (a file not yet made has none); a line
    that is not a deal's line of this benchmark is a :class:`UsageError` naming it."""
    done: dict[tuple[str, int], dict[str, object]] = {}
    if not path.exists():
        return done
    for number, row in _report.json_lines(str(path)):
        _report.check_fields(row, FIELDS, f"{path}, line {number}")
        done[(str(row["game"]), int(str(row["deal"])))] = row
    return done


def deal_range(text: str) -> range:
    """``A-B`` (or ``N``), deals A to B, for argparse (which reports the error, exit 2)."""
    low, _, high = text.partition("-")
    if not low.isdigit() or (high and not high.isdigit()) or int(low) < 1 or int(high or low) < int(low):
        raise argparse.ArgumentTypeError(f"deals as A-B with 1 <= A <= B, not {text!r}")
    return range(int(low), int(high or low) + 1)


def whole(text: str) -> int:
    """A whole number of at least 1, for argparse (which reports the error, exit 2)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1 up, not {text!r}")
    return int(text)


def paired_parser(doc: str | None, games: Sequence[str], deals: str, max_states: int) -> argparse.ArgumentParser:
    """The options of a benchmark that solves each deal two ways, with their
    defaults: ``--games``, ``--deals``, ``--max-states`` and ``--jsonl``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(games), help="games or description files, by commas")
    parser.add_argument("--deals", type=deal_range, default=deal_range(deals), help="deal numbers, A-B")
    parser.add_argument("--max-states", type=whole, default=max_states, help="each search's budget of states")
    parser.add_argument("--jsonl", type=Path, help="a line a deal, kept and resumed from")
    return parser


def run_paired(parser: argparse.ArgumentParser, args: argparse.Namespace, header: tuple[str, ...],
               solve: Callable[[PatienceGame, int], dict[str, object]],
               why: Callable[[dict[str, object]], str | None],
               line: Callable[[str, list[dict[str, object]]], str]) -> int:
    """Each deal of each game of ``args`` solved both ways (``solve(game, deal)``
    gives the two sides' fields) or read back from ``--jsonl``, the file written
    a line a deal as it goes; ``header`` is the report's lines above its
    table's rows (its title, the table's head), ``line`` a game's row and
    ``why`` a deal's disagreement. The exit status: 1 when any deal
    disagrees, else 0 (``parser.error``, 2, on a game or a ``--jsonl`` line it
    cannot read). SIGTERM stops it as Ctrl-C does (a ``KeyboardInterrupt`` between two deals'
    searches, for the script's :func:`stopped`): every deal finished is in ``--jsonl``."""
    games = [name for name in args.games.split(",") if name]
    try:
        descriptions = {name: load(name) for name in games}
    except CardtableError as error:
        parser.error(f"--games: {error}")
    try:
        done = read_done(args.jsonl) if args.jsonl else {}
    except CardtableError as error:
        parser.error(f"--jsonl: {error}")
    out = args.jsonl.open("a") if args.jsonl else None

    def terminated(_signal: int, _frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, terminated)
    for text in header:
        print(text)
    wrong: list[str] = []
    try:
        for name in games:
            rows = []
            for deal in args.deals:
                row = done.get((name, deal))
                if row is None:
                    row = {"game": name, "deal": deal, **solve(PatienceGame.from_seed(descriptions[name], deal), deal)}
                    if out:
                        out.write(json.dumps(row) + "\n")
                        out.flush()
                rows.append(row)
                reason = why(row)
                if reason:
                    wrong.append(f"{name} deal {deal}: {reason}")
            print(line(name, rows), flush=True)
    finally:
        signal.signal(signal.SIGTERM, before)
        if out:
            out.close()
    for text in wrong:
        print(f"DISAGREES: {text}")
    print(f"(load average {os.getloadavg()[0]:.1f})")
    return 1 if wrong else 0
