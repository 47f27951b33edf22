"""The ``review`` command: a played Klondike game weighed move by move; a
played game of any other patience game weighed by the patience search
(:mod:`cardtable.solver.patience_review`), from its record or from the
results store (``--played NAME``).

A thin face over :mod:`cardtable.bots.klondike.review`: it reads the record,
weighs each position (with a progress bar on a terminal; in ``--workers``
processes when asked, the peek staying in this one) and prints a table,
the largest drops in words and a summary, or one JSON object. Ctrl-C stops
it: what was weighed so far is printed, marked as stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from cardtable.cli._options import MAX_SAMPLES, guess_states, progress_bar, samples, whole_number, worker_count
from cardtable.cli._options import MAX_STATES as MAX_SEARCH_STATES
from cardtable.errors import UsageError

__all__ = ["register"]

#: The review's default budget, as the library's (``tests/test_review.py`` holds them equal): written
#: here so that building the parser loads neither the players nor the solver.
SAMPLES, MAX_STATES, VERDICT_STATES = 96, 50_000, 20_000


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``review`` command."""
    p = subparsers.add_parser(
        "review",
        help="weigh every move of a played game: Klondike's by the expert's win chance, any patience game's by "
             "the solver's verdict, before and after",
        description="For each move of a game record: the expert's estimated chance of winning before and "
                    "after it, from what the player saw at that point (the share of its guessed deals it "
                    "wins; the same game always gets the same figures), the move the expert would have "
                    "played, and, apart, the peek: the solver's verdict with every card known. The largest "
                    "drops are called out. The budget is counted in guesses and states, not seconds.")
    p.add_argument("file", metavar="RECORD", nargs="?",
                   help="a game record, text or JSON ('-' for stdin): Klondike's, weighed by the expert and the "
                        "solver's peek, or any other patience game's, weighed by the patience search (every card "
                        "known: shown once the game is over, or with --peek)")
    p.add_argument("--played", metavar="NAME|FILE.json",
                   help="instead of a record, your latest finished game of this patience game in the results "
                        "store ('cardtable play NAME' keeps them), weighed by the patience search")
    p.add_argument("--store", metavar="PATH", help="with --played: results store (default: the per-user data "
                                                   "directory)")
    p.add_argument("--samples", type=samples, default=SAMPLES, metavar="N",
                   help=f"the expert's guessed deals at each position, 1 to {MAX_SAMPLES:,} (default {SAMPLES})")
    p.add_argument("--max-states", type=guess_states, default=MAX_STATES,
                   metavar="N", help=f"state budget of the search of each guess (default {MAX_STATES:,})")
    p.add_argument("--verdict-states", type=whole_number(0, "--verdict-states", MAX_SEARCH_STATES),
                   default=VERDICT_STATES,
                   metavar="N", help=f"state budget of the peek's search of each position (default "
                                     f"{VERDICT_STATES:,}; 0: no peek); the peek comes once the game is over, or "
                                     f"with --peek")
    p.add_argument("--peek", action="store_true",
                   help="the peek for a game that is not over too (it would tell where the hidden cards lie)")
    p.add_argument("--drops", type=whole_number(0, "--drops", 1000), default=3, metavar="N",
                   help="how many of the largest drops to call out (default 3)")
    p.add_argument("--workers", type=worker_count, default=1, metavar="N",
                   help="weigh the positions in N processes (default 1: in this one); the figures do not change")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--ascii", action="store_true", help="name cards in ASCII (Qh) rather than with suit symbols")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_review)


def _cmd_review(args: argparse.Namespace) -> int:
    from cardtable._files import read_text
    from cardtable.bots.klondike.review import PositionReview, build_review, review_positions
    from cardtable.cli import interruption
    from cardtable.errors import RecordError
    from cardtable.klondike.record import KlondikeRecord
    from cardtable.solver import peek_verdict

    if (args.file is None) == (args.played is None):
        raise UsageError("review a game record (RECORD) or your latest game of a patience game (--played NAME), "
                         "one of them")
    if args.played is not None:
        return _review_patience(args, _latest_played(args), finished=True)
    if args.store is not None:
        raise UsageError("--store goes with --played: a record is read from its file")
    text = read_text(args.file)
    try:
        record = KlondikeRecord.parse(text)
    except RecordError as klondike_error:
        from cardtable.patience.record import PatienceRecord

        try:
            other = PatienceRecord.parse(text)
        except (RecordError, ValueError):
            raise klondike_error from None
        return _review_patience(args, other, finished=False)
    end = record.replay()  # a bad move is named before any work
    over = end.is_won() or end.outcome() is not None
    if args.peek and not args.verdict_states:
        raise UsageError("--peek asks for the solver's verdict, which --verdict-states 0 leaves out")
    verdict = peek_verdict(args.verdict_states) if args.verdict_states and (over or args.peek) else None
    unicode = not args.ascii
    weighed: list[PositionReview] = []
    stopped = False
    pool = None
    with progress_bar(len(record.moves) + 1, "positions", enabled=not args.no_progress) as advance:
        try:
            mapper = None
            if args.workers > 1:
                from concurrent.futures import ProcessPoolExecutor

                pool = ProcessPoolExecutor(args.workers, initializer=_worker_starts, initargs=(os.getpid(),))
                mapper = pool.map
            for position in review_positions(record, samples=args.samples, max_states=args.max_states,
                                             verdict=verdict, unicode=unicode, mapper=mapper):
                weighed.append(position)
                advance(1)
        except KeyboardInterrupt:
            stopped = True
        finally:
            if pool is not None:  # the positions under way finish; the others are dropped
                pool.shutdown(wait=True, cancel_futures=True)
    if not weighed:
        what, status = interruption()
        print(f"cardtable: {what}: no position weighed", file=sys.stderr)
        return status
    review = build_review(record, weighed, samples=args.samples, max_states=args.max_states, unicode=unicode)
    if args.json:
        data = review.to_dict()
        data["drops"] = [{"number": move.number, "text": move.callout()} for move in review.drops(args.drops)]
        data["verdict_states"] = args.verdict_states if verdict is not None else 0
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(_table(review, peek=verdict is not None, count=args.drops))
        if verdict is None and args.verdict_states:
            print("no peek: the game is not over, and the solver's verdict would tell where the hidden cards "
                  "lie (--peek shows it)")
    if stopped:
        what, status = interruption()
        print(f"cardtable: {what}: weighed {len(weighed)} of {len(record.moves) + 1} positions", file=sys.stderr)
        return status
    return 0


def _latest_played(args: argparse.Namespace) -> object:
    """The record of the latest game of ``--played``'s game kept in the store (the terminal's person's)."""
    from pathlib import Path

    from cardtable.klondike.patience import game_key
    from cardtable.patience import load
    from cardtable.patience.record import PatienceRecord
    from cardtable.runs.store import ResultsStore, default_store_path
    from cardtable.sim.played import played_games

    description = load(args.played)
    path = Path(args.store or default_store_path())
    game, rules = game_key(description)
    if not path.exists():
        raise UsageError(f"no game of {description.title} played yet ({path} does not exist)")
    with ResultsStore(path, create=False) as store:
        kept = [played for played in played_games(store, game=game, rules=rules) if played.record is not None]
    if not kept:
        raise UsageError(f"no game of {description.title} with its record in {path} yet")
    return PatienceRecord.parse(kept[-1].record or "")


def _review_patience(args: argparse.Namespace, record: object, *, finished: bool) -> int:
    """Weigh a patience game's record with the patience search and print it
    (``finished``: a game the store kept, over once it was left)."""
    from cardtable.patience.record import PatienceRecord
    from cardtable.solver.patience_review import has_hidden_cards, review_game

    assert isinstance(record, PatienceRecord)
    end = record.replay()  # a bad move is named before any work
    if not (finished or end.is_won() or end.is_over() or args.peek) and has_hidden_cards(record.start()):
        raise UsageError("the game is not over: its review, with every card known, would tell where the hidden "
                         "cards lie (--peek reviews it all the same)")
    if not args.verdict_states:
        raise UsageError(f"--verdict-states 0 leaves out the search, which is the whole review of "
                         f"{record.description.title}")
    review = review_game(record, max_states=args.verdict_states)
    if args.json:
        print(json.dumps({**review.to_dict(), "title": record.description.title}, ensure_ascii=False))
        return 0
    rows = [("#", "move", "before", "after", "the search would")]
    rows += [(str(move.number), move.move, move.before, move.after,
              "the same" if move.best == move.move else move.best or "-") for move in review.moves]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [f"{record.description.title}, deal {review.deal or 'from a position'}: the start is {review.start}"]
    lines += ["  ".join(cell.rjust(width) if column == 0 else cell.ljust(width)
                        for column, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip()
              for row in rows]
    thrown = review.thrown_away()
    if thrown:
        lines += ["", "Wins thrown away:", *[f"  {move.callout()}" for move in thrown[:args.drops or len(thrown)]]]
    lines += ["", review.summary(),
              f"won, lost, unknown: the patience search's verdict with every card known, within "
              f"{review.max_states:,} states a position (--verdict-states)"]
    print("\n".join(lines))
    return 0


def _table(review: object, *, peek: bool, count: int) -> str:
    from cardtable.bots.klondike.review import DROP_THRESHOLD, GameReview

    assert isinstance(review, GameReview)
    rows = [("#", "move", "before", "after", "change", "the expert would", "peek after" if peek else "")]
    for move in review.moves:
        drop = move.drop
        change = "" if drop is None else "0%" if round(drop * 100) == 0 else f"{-drop:+.0%}"
        expert = "the same" if move.is_experts else _clip(move.before.expert_words or "-", 32)
        rows.append((str(move.number), _clip(move.words, 44), _percent(move.before.chance),
                     _percent(move.after.chance), change, expert, (move.after.verdict or "") if peek else ""))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    right = {0, 2, 3, 4}
    lines = ["  ".join(cell.rjust(width) if column in right else cell.ljust(width)
                       for column, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    drops = review.drops(count)
    lines.append("")
    if count:
        if drops:
            lines.append("The largest drops:")
            lines += [f"  {move.callout()}" for move in drops]
        else:
            lines.append(f"No move that was not the expert's cost {DROP_THRESHOLD:.0%} or more of the chance.")
    lines.append(review.summary())
    if peek:
        lines.append("peek: the solver's verdict with every card known (winnable, lost, or unknown within "
                     "its budget), not what the player could see")
    return "\n".join(lines)


def _percent(chance: float | None) -> str:
    return "?" if chance is None else f"{chance:.0%}"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _worker_starts(parent: int) -> None:
    """A worker process leaves Ctrl-C, SIGTERM and SIGHUP to the command, which stops the pool, and
    dies with the command (``kill -9`` of it leaves no worker weighing on for nobody)."""
    import signal

    from cardtable.runs.executor import die_with_parent

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    die_with_parent(parent)
