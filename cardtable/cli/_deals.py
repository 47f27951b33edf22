"""Deals worth playing on the command line: ``--daily [--date YYYY-MM-DD]``
and ``--difficulty LEVEL``, shared by ``cardtable deal`` and ``cardtable play``.

The options are checked before any search (one line and exit 2 for a bad
date, an unknown level or options that do not go together); the search
itself is the library's (:func:`cardtable.solver.daily.daily_deal`,
:func:`cardtable.sim.grade.deal_of_grade`).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from dataclasses import dataclass

from cardtable.errors import UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant

__all__ = ["FRESH_SEEDS", "LEVELS", "DealChoice", "add_deal_arguments", "check_deal_arguments", "choose_deal"]

#: The grades, as :data:`cardtable.sim.grade.LEVELS` names them (written out here so that building
#: the parser loads no player; a test holds the two equal).
LEVELS = ("easy", "medium", "hard", "expert")


def add_deal_arguments(parser: argparse.ArgumentParser, group: argparse._MutuallyExclusiveGroup) -> None:
    """Add ``--daily`` (to ``group``, beside ``--seed`` and ``--file``), ``--date`` and ``--difficulty``."""
    group.add_argument("--daily", action="store_true",
                       help="the daily deal: one deal a day for each set of rules, the same for everyone, "
                            "proven winnable (today's, in local time, or --date's)")
    parser.add_argument("--date", metavar="YYYY-MM-DD", help="with --daily: the daily deal of this date")
    parser.add_argument("--difficulty", metavar="LEVEL",
                        help=f"a deal of this grade ({', '.join(LEVELS)}): the first one at or after --seed, "
                             "or after a random seed without it (see 'Deal grades' in the docs)")


@dataclass(frozen=True)
class DealChoice:
    """What ``--daily`` or ``--difficulty`` asked for, checked: the daily
    deal's ``day`` (None: not daily) and the ``level`` (None: any)."""

    day: datetime.date | None
    level: str | None

    @property
    def asked(self) -> bool:
        """True when either was asked for."""
        return self.day is not None or self.level is not None


def check_deal_arguments(args: argparse.Namespace) -> DealChoice:
    """The checked ``--daily``, ``--date`` and ``--difficulty`` (a one-line
    :class:`UsageError` for a bad one, before any search)."""
    if args.date is not None and not args.daily:
        raise UsageError("--date goes with --daily")
    level = None
    if args.difficulty is not None:  # the grader and the solver load only when a deal is to be chosen
        from cardtable.sim.grade import check_level

        level = check_level(args.difficulty)
    if args.daily and level is not None:
        raise UsageError("--difficulty picks a deal from --seed, not from --daily (the daily deal has its own)")
    if args.winnable and (args.daily or level is not None):
        raise UsageError(f"{'--daily' if args.daily else '--difficulty'} deals are already proven winnable: "
                         "leave out --winnable")
    if level is not None and getattr(args, "file", None) is not None:
        raise UsageError("--difficulty goes with --seed, not --file")
    day = None
    if args.daily:
        from cardtable.solver.daily import parse_date

        day = parse_date(args.date) if args.date is not None else datetime.date.today()
    return DealChoice(day, level)


#: Where a ``--difficulty`` search starts without ``--seed``: a random seed below this.
FRESH_SEEDS = 1_000_000


def choose_deal(choice: DealChoice, seed: int | None, variant: Variant) -> tuple[int, Position, str]:
    """The deal asked for: its seed, the deal, and a line that says what it is.
    ``seed`` is where a ``--difficulty`` search starts (None: a random seed
    below :data:`FRESH_SEEDS`, so that a grade alone deals a fresh game)."""
    if choice.day is not None:
        from cardtable.solver.daily import daily_deal

        deal = daily_deal(choice.day, variant)
        return deal.seed, deal.position, f"the daily deal of {choice.day.isoformat()} (seed {deal.seed})"
    assert choice.level is not None
    from cardtable.sim.grade import deal_of_grade

    if seed is None:
        import secrets

        seed = secrets.randbelow(FRESH_SEEDS)
    if sys.stderr.isatty():
        print(f"cardtable: looking for a {choice.level} deal from seed {seed}...", file=sys.stderr, flush=True)
    found, grade = deal_of_grade(seed, choice.level, variant)
    return found, Position.from_seed(found), (
        f"seed {found}, graded {grade.level} ({grade.points} points: greedy {'won' if grade.greedy_won else 'lost'}, "
        f"quick expert won {grade.expert_wins} of {grade.expert_games}, solver proof {grade.solver_states:,} states)")
