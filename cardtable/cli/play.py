"""``cardtable play``: Klondike or Kings Corner in the terminal (the Textual apps in
:mod:`cardtable.app`; ``--plain`` gives Kings Corner's line-by-line seat).

Everything the user gives is checked here, before the app starts, so bad
input ends in one line and exit status 2. Textual is imported only when the
app runs, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from cardtable.cli._files import check_output, read_text
from cardtable.cli._options import add_variant_arguments, pause, seed, variant_from_args, whole_number
from cardtable.errors import UsageError
from cardtable.klondike import KlondikeGame, Position
from cardtable.klondike.formats import load_start

__all__ = ["register"]

#: The options each game alone takes, as (dest, flag, default): filled in by :func:`register`.
_ONLY: dict[str, list[tuple[str, str, object]]] = {}
_T = TypeVar("_T")
_KINGS_CORNER_DEFAULTS = {"opponents": "3", "level": "strategic", "target": "25", "delay": "0.6"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play", help="play Klondike or Kings Corner in the terminal",
        description="Play Klondike or Kings Corner in the terminal (keyboard and mouse; press ? in the "
                    "game for the keys). Klondike: without --seed, --winnable or --file the game saved "
                    "automatically last time comes back, in its own variant; otherwise a new deal starts. "
                    "Kings Corner: you against bots, hand after hand until a penalty total reaches "
                    "--target.")
    parser.add_argument("game", nargs="?", choices=("klondike", "kings-corner"), default="klondike",
                        help="the game (klondike or kings-corner)")
    before = list(parser._actions)
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--seed", type=seed, metavar="N", help="deal from seed N")
    start.add_argument("--file", metavar="F",
                       help="start from a deal, position, PySol board, Solvitaire JSON or game record "
                            "(a record keeps its variant and its moves)")
    parser.add_argument("--winnable", action="store_true",
                        help="a deal proven winnable (with --seed N: the N-th, as 'cardtable deal "
                             "--winnable' gives)")
    parser.add_argument("--save", metavar="FILE",
                        help="where the s key writes the game record (default ./cardtable-game.txt)")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII cards (suits as c d h s)")
    parser.add_argument("--store", metavar="PATH",
                        help="the results store that keeps your statistics ('cardtable stats'; default: the "
                             "per-user data directory)")
    parser.add_argument("--no-stats", action="store_true", help="keep no statistics of these games")
    add_variant_arguments(parser)
    _ONLY["klondike"] = [(a.dest, a.option_strings[0], a.default) for a in parser._actions
                         if a not in before and a.dest not in ("ascii", "seed")]
    before = list(parser._actions)
    kings = parser.add_argument_group("Kings Corner")
    kings.add_argument("--opponents", metavar="N", help="1 to 5 bots (default 3)")
    kings.add_argument("--level", metavar="LEVEL", help="the bots: random, greedy or strategic (default)")
    kings.add_argument("--target", metavar="POINTS",
                       help="penalty points that end the match (default 25)")
    kings.add_argument("--delay", metavar="SECONDS", help="seconds between the bots' actions (default 0.6)")
    kings.add_argument("--plain", action="store_true",
                       help="the line-by-line seat, for screen readers and pipes")
    _ONLY["kings-corner"] = [(a.dest, a.option_strings[0], a.default) for a in parser._actions
                             if a not in before]
    parser.set_defaults(func=_cmd_play)


def _refuse_others(args: argparse.Namespace) -> None:
    """A one-line UsageError for an option of the other game."""
    for game, options in _ONLY.items():
        if game == args.game:
            continue
        for dest, flag, default in options:
            if getattr(args, dest) != default:
                raise UsageError(f"{flag} is not an option of {args.game} (only of {game})")


def _checked(kind: Callable[[str], _T], text: str, prefix: str = "") -> _T:
    """``kind(text)``, its complaint raised as a UsageError."""
    try:
        return kind(text)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"{prefix}{error}") from None


def _cmd_kings_corner(args: argparse.Namespace) -> int:
    values = {dest: getattr(args, dest) if getattr(args, dest) is not None else default
              for dest, default in _KINGS_CORNER_DEFAULTS.items()}
    opponents = _checked(whole_number(1, "--opponents", 5), values["opponents"])
    target = _checked(whole_number(1, "--target"), values["target"])
    delay = _checked(pause, values["delay"], "--delay: ")
    level = values["level"].strip().lower()
    from cardtable.kings_corner.bots import make_bot

    make_bot(level)  # an unknown level: a one-line error before anything starts
    if args.plain:
        from rich.console import Console

        from cardtable.cli.kings_corner_seat import HumanSeat

        return HumanSeat(opponents=opponents, level=level, seed=args.seed, target=target, delay=delay,
                         unicode=not args.ascii, console=Console(highlight=False)).run()
    from cardtable.app.kings_corner import KingsCornerApp

    KingsCornerApp(opponents=opponents, level=level, seed=args.seed, target=target, delay=delay,
                   ascii_only=args.ascii).run()
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    _refuse_others(args)
    if args.game == "kings-corner":
        return _cmd_kings_corner(args)
    if args.winnable and args.file is not None:
        raise UsageError("--winnable and --file cannot be used together")
    variant = variant_from_args(args)
    check_output(args.save)
    save_path = Path(args.save) if args.save is not None else None

    from cardtable.app import autosave

    autosave_path = autosave.autosave_path()
    game: KlondikeGame | None = None
    number: int | None = None
    notice: str | None = None
    if args.file is not None:
        position, record = load_start(read_text(args.file))
        game = record.replay() if record is not None else KlondikeGame(position, variant)
        number = _header_number(record.headers.get("Seed")) if record is not None else None
    elif args.seed is None and not args.winnable:
        record, notice = autosave.restore(autosave_path)
        if record is not None:
            game = record.replay()
            args.winnable = "Winnable" in record.headers
            number = _header_number(record.headers.get("Winnable" if args.winnable else "Seed"))
            notice = f"Welcome back: your game of {len(game.moves)} moves is restored. Press ? for the keys."
    if game is None:
        import secrets

        number = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
        if args.winnable:
            from cardtable.solver import winnable_deal

            game = KlondikeGame(winnable_deal(number, variant), variant)
        else:
            game = KlondikeGame(Position.from_seed(number), variant)

    from cardtable.app.klondike import KlondikeApp
    from cardtable.sim.store import default_store_path

    stats_path = None if args.no_stats else Path(args.store) if args.store else default_store_path()
    KlondikeApp(game, seed=number, winnable=args.winnable, save_path=save_path, autosave_path=autosave_path,
                stats_path=stats_path, ascii_only=args.ascii, notice=notice).run()
    return 0


def _header_number(text: str | None) -> int | None:
    """A seed header's number, or None when absent or not a number."""
    if text is None or not text.isdigit():
        return None
    return int(text)
