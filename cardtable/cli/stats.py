"""``cardtable stats``: a person's record in each Klondike variant they played,
or (``cardtable stats kings-corner``) at each Kings Corner table, or
(``cardtable stats --game NAME``) in any patience game.

The figures come from the results store (:func:`~cardtable.sim.played.play_stats`,
:func:`~cardtable.sim.played.hand_stats`), opened read-only: this
command never creates or changes a file.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING

from cardtable.cli._options import add_variant_arguments, variant_from_args
from cardtable.errors import UsageError
from cardtable.klondike.variant import PRESET_TITLES

if TYPE_CHECKING:
    from cardtable.patience import Description
    from cardtable.sim.played import DailyStats, HandStats, PlayStats

__all__ = ["register"]

_VARIANT_FLAGS = ("draw", "passes", "empty", "foundation_return", "scoring")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``stats`` command."""
    p = subparsers.add_parser(
        "stats", help="your statistics in each variant you played",
        description="Klondike: games played and won, win rate, current and best winning streak, best time and "
                    "fewest moves (both over wins), for each variant you played, or for one; and for the daily "
                    "deals ('play --daily'): days played and won, and the daily streak (days won in a row, up to "
                    "today, or yesterday until today's is won; a day lost or missed ends it). A custom variant is "
                    "named by its preset and flags (e.g. --variant draw1 --passes 3) or by its label as listed. "
                    "Kings Corner ('cardtable stats kings-corner'): for each table (bots and target), hands played "
                    "and won, the mean penalty a hand, matches finished and won, and streaks of matches won.")
    p.add_argument("game", nargs="?", choices=("klondike", "kings-corner"), default="klondike",
                   help="the game (default klondike)")
    p.add_argument("--game", dest="described", metavar="NAME|FILE.json",
                   help="one game's statistics: a name ('cardtable games' lists them), with options after colons "
                        "(klondike:draw-3), or a description file; a game of Klondike's rules gives Klondike's "
                        "statistics (of those rules), another patience game's its games in the results store "
                        "('cardtable play' keeps them)")
    p.add_argument("--json", action="store_true", help="the statistics as JSON on stdout")
    p.add_argument("--store", metavar="PATH", help="results store (default: the per-user data directory)")
    add_variant_arguments(p, default=None)
    p.set_defaults(func=_cmd_stats)


def _label(args: argparse.Namespace, listed: set[str]) -> str | None:
    """The variant label asked for, or None for every variant: a preset and
    flags, or a label exactly as listed (custom ones too)."""

    flags = [f"--{name.replace('_', '-')}" for name in _VARIANT_FLAGS if getattr(args, name) is not None]
    if args.variant is None:
        if flags:
            raise UsageError(f"{flags[0]} changes a variant: name it too, e.g. 'cardtable stats --variant draw1 "
                             f"{flags[0]} ...'")
        return None
    if not flags and (args.variant in listed or args.variant.startswith("custom: ")):
        return str(args.variant)
    return variant_from_args(args).label  # an unknown preset is a VariantError


def _time_text(seconds: float | None) -> str:
    """``M:SS`` (or ``H:MM:SS``), whole seconds rounded down; ``-`` for none."""
    if seconds is None:
        return "-"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _table(rows: list[PlayStats]) -> list[str]:
    """One line a variant, under a header; the label last, as custom ones are long (a
    preset's followed by its player's name)."""
    header = (f"{'played':>7} {'won':>7} {'win rate':>8} {'streak':>6} {'best streak':>11} {'best time':>9} "
              f"{'fewest moves':>12}  variant")
    lines = [header, "-" * len(header)]
    for s in rows:
        lines.append(f"{s.played:>7,} {s.won:>7,} {100 * s.win_rate:>7.1f}% {s.current_streak:>6,} "
                     f"{s.best_streak:>11,} {_time_text(s.best_seconds):>9} "
                     f"{'-' if s.fewest_moves is None else format(s.fewest_moves, ','):>12}  {s.variant}"
                     f"{f': {PRESET_TITLES[s.variant]}' if s.variant in PRESET_TITLES else ''}")
    return lines


def _daily_table(rows: list[DailyStats]) -> list[str]:
    """The daily deals: one line a variant, under a header."""
    header = f"{'days':>7} {'won':>7} {'daily streak':>12} {'best streak':>11}  variant (daily deals)"
    lines = [header, "-" * len(header)]
    lines += [f"{d.days:>7,} {d.days_won:>7,} {d.current_streak:>12,} {d.best_streak:>11,}  {d.variant}" for d in rows]
    return lines


def _hands_table(rows: list[HandStats]) -> list[str]:
    """One line a Kings Corner table, under a header."""
    header = (f"{'hands':>7} {'won':>7} {'penalty/hand':>12} {'matches':>7} {'won':>7} {'win rate':>8} {'streak':>6} "
              f"{'best streak':>11}  table")
    lines = [header, "-" * len(header)]
    for s in rows:
        lines.append(f"{s.hands:>7,} {s.hands_won:>7,} {s.mean_penalty:>12.2f} {s.matches:>7,} {s.matches_won:>7,} "
                     f"{100 * s.match_win_rate:>7.1f}% {s.current_streak:>6,} {s.best_streak:>11,}  {s.label}")
    return lines


def _cmd_kings_corner(args: argparse.Namespace) -> int:
    from cardtable.runs.store import ResultsStore, default_store_path
    from cardtable.sim.played import hand_stats

    flags = [f"--{name.replace('_', '-')}" for name in ("variant", *_VARIANT_FLAGS) if getattr(args, name) is not None]
    if flags:
        raise UsageError(f"{flags[0]} is a Klondike option: Kings Corner statistics are kept by table")
    path = args.store or default_store_path()
    rows: list[HandStats] = []
    if os.path.exists(path):
        with ResultsStore(path, create=False) as store:
            rows = [s for s in hand_stats(store) if s.hands]
    if args.json:
        print(json.dumps([s.to_dict() for s in rows], indent=1))
    elif not rows:
        print("no Kings Corner hands played yet" + ("" if os.path.exists(path) else f" ({path} does not exist)"))
    else:
        print("\n".join(_hands_table(rows)))
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    import datetime

    from cardtable.runs.store import ResultsStore, default_store_path
    from cardtable.sim.played import daily_stats, play_stats

    if args.described is not None:
        if args.game != "klondike":
            raise UsageError(f"--game {args.described} names the game already; leave out {args.game}")
        if args.described == "kings-corner":
            return _cmd_kings_corner(args)
        from cardtable.cli._patience import klondike_rules
        from cardtable.patience import load

        description = load(args.described)
        if not klondike_rules(args, description, args.described):
            return _patience_stats(args, description)
    if args.game == "kings-corner":
        return _cmd_kings_corner(args)
    path = args.store or default_store_path()
    if not os.path.exists(path):
        _label(args, set())  # bad options are still an error
        print("[]" if args.json else f"no games played yet ({path} does not exist)")
        return 0
    with ResultsStore(path, create=False) as store:
        label = _label(args, {s.variant for s in play_stats(store)})
        rows = [s for s in play_stats(store, label) if s.played]
        dailies = daily_stats(store, datetime.date.today(), label)
    if args.json:
        by_label = {d.variant: d for d in dailies}
        print(json.dumps([{**s.to_dict(), **_daily_fields(by_label.get(s.variant))} for s in rows], indent=1))
    elif not rows:
        print("no games played yet" if label is None else f"no games of {label} played yet")
    else:
        print("\n".join(_table(rows)))
        if dailies:
            print()
            print("\n".join(_daily_table(dailies)))
    return 0


def _patience_stats(args: argparse.Namespace, description: Description) -> int:
    """``stats --game NAME`` for a patience game other than Klondike: its
    games in the results store (those ``cardtable play NAME`` and the
    the terminal app's person's), after the figures of its statistics file of before, and its daily deals."""
    import datetime
    from pathlib import Path

    from cardtable.app.patience_books import PatienceBooks, stats_lines
    from cardtable.patience.record import rules_name
    from cardtable.runs.store import ResultsStore, default_store_path
    from cardtable.sim.played import daily_stats

    flags = [f"--{name.replace('_', '-')}" for name in ("variant", *_VARIANT_FLAGS) if getattr(args, name) is not None]
    if flags:
        raise UsageError(f"{flags[0]} is a Klondike option; {description.title}'s rules come from --game")
    path = Path(args.store or default_store_path())
    stats, trouble = PatienceBooks(description, autosave_folder=None, store_path=path).stats()
    if trouble:
        raise UsageError(trouble.strip().removeprefix("Could not read the statistics: ")
                         .removeprefix("Could not read the earlier statistics: ").rstrip("."))
    dailies = []
    if path.exists():
        with ResultsStore(path, create=False) as store:
            dailies = daily_stats(store, datetime.date.today(), game=description.name, rules=description.rules_key)
    daily = dailies[0] if dailies else None
    if args.json:
        print(json.dumps({"game": description.name, "rules": rules_name(description), "title": description.title,
                          **stats.to_dict(), **_daily_fields(daily)}, indent=1))
    else:
        lines = stats_lines(stats, description.title)
        if daily is not None:
            lines.append(f"daily deals: {daily.days} played, {daily.days_won} won, "
                         f"streak of days won: {daily.current_streak} now, {daily.best_streak} at best")
        print("\n".join(lines))
    return 0


def _daily_fields(daily: DailyStats | None) -> dict[str, int]:
    """A variant's daily figures for its JSON row (zeros when it has no daily deal played)."""
    return {"daily_days": daily.days if daily else 0, "daily_won": daily.days_won if daily else 0,
            "daily_streak": daily.current_streak if daily else 0,
            "best_daily_streak": daily.best_streak if daily else 0}
