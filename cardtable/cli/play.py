"""``cardtable play``: Klondike in the terminal (the Textual app in :mod:`cardtable.app`).

Everything the user gives is checked here, before the app starts, so bad
input ends in one line and exit status 2. Textual is imported only when the
app runs, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.cli._files import check_output, read_text
from cardtable.cli._options import add_variant_arguments, seed, variant_from_args
from cardtable.errors import UsageError
from cardtable.klondike import KlondikeGame, Position
from cardtable.klondike.formats import load_start

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play", help="play Klondike in the terminal",
        description="Play Klondike in the terminal (keyboard and mouse; press ? in the game for "
                    "the keys). Without --seed, --winnable or --file the game saved automatically "
                    "last time comes back, in its own variant; otherwise a new deal starts.")
    parser.add_argument("game", nargs="?", choices=("klondike",), default="klondike",
                        help="the game (klondike)")
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
    parser.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
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
