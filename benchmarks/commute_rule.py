"""The patience core's commute rule against none: the same verdicts, deal by deal, and the time it saves.

    python benchmarks/commute_rule.py [--games beleaguered-castle,king-albert ...] [--deals 1-200]
                                      [--max-states 150000] [--search hybrid] [--jsonl RUN.jsonl]

Each deal of each game is solved twice in this one process, by
:func:`cardtable.solver.patience.solve_game` with the commute rule
(``cardtable/solver/patience.h``, "Single moves that commute, tried in one
order": two single moves of four different piles, after which no card goes
home by itself, are tried in one order only) and without it
(``commute=False``), each up to ``--max-states`` states; the two runs of a
deal take turns at going first, so neither gains from a warm cache. A deal
both searches decide must get one verdict, and when it is "unwinnable" (a
search run to its end, which counts every state reachable) the same count of
states: the rule leaves out only orders of moves, never a state. Every winning
line was replayed in the rules engine by ``solve_game`` itself.

For each game the report gives the deals decided with and without the rule,
the deals proved unwinnable with the same states, the disagreements (each
listed: there should be none), the states in all, and the CPU seconds of the
two searches in all with their ratio. ``--jsonl`` writes a line a deal as it
goes and, given again, skips the deals the file already has, so an
interrupted run resumes where it stopped. The exit status is 1 when any deal
disagrees, 2 on bad options, 130 on Ctrl-C (the lines written stay).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import _report

from cardtable.errors import CardtableError
from cardtable.patience import PatienceGame
from cardtable.patience.registry import load
from cardtable.solver.patience import SEARCHES, Search, solve_game

#: The games whose search the rule changes (its conditions in patience.h).
GAMES = ("beleaguered-castle", "streets-and-alleys", "king-albert", "bakers-dozen", "bakers-game", "freecell",
         "la-belle-lucie")


#: The fields of a deal's line in ``--jsonl``, with their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str, "deal": int, "with": str, "without": str, "with_states": int, "without_states": int,
    "with_cpu": (int, float), "without_cpu": (int, float)}


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


def _range(text: str) -> range:
    """``A-B`` (or ``N``), deals A to B, for argparse (which reports the error, exit 2)."""
    low, _, high = text.partition("-")
    if not low.isdigit() or (high and not high.isdigit()) or int(low) < 1 or int(high or low) < int(low):
        raise argparse.ArgumentTypeError(f"deals as A-B with 1 <= A <= B, not {text!r}")
    return range(int(low), int(high or low) + 1)


def _whole(text: str) -> int:
    """A whole number of at least 1, for argparse (which reports the error, exit 2)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1 up, not {text!r}")
    return int(text)


def solve_both(game: PatienceGame, max_states: int, search: Search, rule_first: bool) -> dict[str, object]:
    """One deal with the rule and without it: each search's result, states and CPU seconds."""
    row: dict[str, object] = {}
    for commute in (True, False) if rule_first else (False, True):
        began = time.process_time()
        result = solve_game(game, max_states=max_states, search=search, core="patience", commute=commute)
        side = "with" if commute else "without"
        row[side] = result.result
        row[f"{side}_states"] = result.states
        row[f"{side}_cpu"] = round(time.process_time() - began, 5)
    return row


def disagrees(row: dict[str, object]) -> str | None:
    """Why the two searches of a deal disagree, or None."""
    if "unknown" in (row["with"], row["without"]):
        return None
    if row["with"] != row["without"]:
        return f"{row['with']} with the rule, {row['without']} without"
    if row["with"] == "unwinnable" and row["with_states"] != row["without_states"]:
        return f"unwinnable in {row['with_states']} states with the rule, {row['without_states']} without"
    return None


def report(game: str, rows: list[dict[str, object]]) -> str:
    """The game's line of the table."""
    def count(side: str) -> int:
        return sum(row[side] != "unknown" for row in rows)

    proofs = sum(row["with"] == row["without"] == "unwinnable" and row["with_states"] == row["without_states"]
                 for row in rows)
    wrong = sum(disagrees(row) is not None for row in rows)
    states = [sum(int(str(row[f"{side}_states"])) for row in rows) for side in ("with", "without")]
    cpu = [sum(float(str(row[f"{side}_cpu"])) for row in rows) for side in ("with", "without")]
    ratio = f"{cpu[0] / cpu[1]:.2f}" if cpu[1] else "-"
    return (f"| {game} | {len(rows)} | {count('with')} / {count('without')} | {proofs} | {wrong} | "
            f"{states[0]:,} / {states[1]:,} | {cpu[0]:.2f} / {cpu[1]:.2f} | {ratio} |")


def paired_parser(doc: str | None, deals: str, max_states: int) -> argparse.ArgumentParser:
    """The options of a benchmark that solves each deal two ways: ``--games``,
    ``--deals``, ``--max-states`` and ``--jsonl`` (``GAMES`` of the caller
    given as ``--games``'s default afterwards)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", help="games or description files, by commas")
    parser.add_argument("--deals", type=_range, default=_range(deals), help="deal numbers, A-B")
    parser.add_argument("--max-states", type=_whole, default=max_states, help="each search's budget of states")
    parser.add_argument("--jsonl", type=Path, help="a line a deal, kept and resumed from")
    return parser


def run_paired(parser: argparse.ArgumentParser, args: argparse.Namespace, header: tuple[str, ...],
               solve: Callable[[PatienceGame, int], dict[str, object]],
               why: Callable[[dict[str, object]], str | None],
               line: Callable[[str, list[dict[str, object]]], str]) -> int:
    """Each deal of each game of ``args`` solved both ways (``solve(game, deal)``
    gives the two sides' fields) or read back from ``--jsonl``, the file written
    a line a deal as it goes; ``header`` is the report's lines above its
    table's rows (its title, the table's head), ``line`` a game's row and ``why`` a deal's disagreement. The exit
    status: 1 when any deal disagrees, else 0 (``parser.error``, 2, on a game
    or a ``--jsonl`` line it cannot read)."""
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
        if out:
            out.close()
    for text in wrong:
        print(f"DISAGREES: {text}")
    print(f"(load average {os.getloadavg()[0]:.1f})")
    return 1 if wrong else 0


def main(argv: list[str] | None = None) -> int:
    parser = paired_parser(__doc__, "1-200", 150_000)
    parser.add_argument("--search", choices=tuple(SEARCHES), default="hybrid", help="the search's order")
    parser.set_defaults(games=",".join(GAMES))
    args = parser.parse_args(argv)
    header = (f"# the commute rule, deals {args.deals.start}-{args.deals.stop - 1}, {args.max_states:,} states a "
              f"search, {args.search}",
              "| game | deals | decided with / without | unwinnable, same states | disagree | states with / without "
              "| CPU s with / without | ratio |",
              "|---|--:|---|--:|--:|--:|--:|--:|")
    return run_paired(parser, args, header,
                      lambda game, deal: solve_both(game, args.max_states, args.search, rule_first=deal % 2 == 1),
                      disagrees, report)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("commute_rule.py: stopped (the lines above and in --jsonl are complete)", file=sys.stderr)
        raise SystemExit(130) from None
