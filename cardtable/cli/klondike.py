"""Klondike commands: ``variants``, ``deal``, ``show`` and ``replay``.

The file formats, records, rendering and file helpers are imported inside the
commands, so building the parser does not load them.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from cardtable._text import clip, plural
from cardtable.cli._deals import add_deal_arguments, check_deal_arguments, choose_deal
from cardtable.cli._options import (
    add_render_arguments,
    add_variant_arguments,
    refuse_rule_flags,
    seed,
    use_color,
    variant_from_args,
)
from cardtable.cli._patience import GAME_HELP, deal_number, klondike_seed, patience_game
from cardtable.errors import UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import PRESET_NOTES, PRESET_TITLES, PRESETS

if TYPE_CHECKING:
    from cardtable.patience import Description

__all__ = ["register"]

#: The layout formats, :data:`cardtable.klondike.formats.FORMATS` (not imported:
#: building the parser stays light; a test holds the two equal).
FORMATS = ("deal", "position", "pysol", "solvitaire")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the Klondike commands."""
    p = subparsers.add_parser("variants", help="list the Klondike variant presets")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(func=_cmd_variants)

    p = subparsers.add_parser(
        "deal", help="write a deal (from a seed or a file) as a deal string, PySol board, ...",
        description="Write a deal from a seed, or convert a layout file between formats.")
    src = p.add_mutually_exclusive_group()  # one of them, or --difficulty alone (checked in _cmd_deal)
    src.add_argument("--seed", type=deal_number,
                     help="deal number (any whole number >= 0; with --game, also ms:N or pysol:N where the "
                          "game has them)")
    src.add_argument("--file", metavar="F", help="a deal string, position, PySol board, "
                     "Solvitaire JSON or game record ('-' for stdin)")
    src.add_argument("--solvitaire-seed", metavar="N", type=seed,
                     help="Solvitaire's Klondike deal N (what 'solvitaire --type klondike --random N' plays)")
    p.add_argument("--winnable", action="store_true",
                   help="a deal the solver proves winnable under the variant (the same one for the same seed)")
    add_deal_arguments(p, src)
    p.add_argument("--format", choices=FORMATS, default="deal", help="output format (default deal)")
    p.add_argument("--output", "-o", metavar="FILE", help="write here (atomically) instead of stdout")
    add_variant_arguments(p)
    p.add_argument("--game", metavar="NAME|FILE.json", help=GAME_HELP)
    p.set_defaults(func=_cmd_deal)

    p = subparsers.add_parser("show", help="draw a deal, layout or recorded game's last position")
    p.add_argument("deal", metavar="DEAL-OR-FILE",
                   help="a seed's deal (a whole number), a deal string, or a file with a deal, position, "
                   "PySol board, Solvitaire JSON or game record ('-' for stdin)")
    add_render_arguments(p)
    add_variant_arguments(p)
    p.add_argument("--game", metavar="NAME|FILE.json", help=GAME_HELP + "; with a game, DEAL-OR-FILE may also be "
                   "a seed, a position string or a PySol board")
    p.set_defaults(func=_cmd_show)

    p = subparsers.add_parser("replay", help="check every move of a game record")
    p.add_argument("file", metavar="FILE", help="a game record, text or JSON ('-' for stdin)")
    p.add_argument("--quiet", "-q", action="store_true", help="only the verdict line")
    add_render_arguments(p)
    p.add_argument("--game", metavar="NAME|FILE.json", help="the game the record must be of (a patience record "
                   "names its own game; default: the record's)")
    p.set_defaults(func=_cmd_replay)


def _argument_text(value: str) -> str:
    """A command-line value that is a file path, ``-`` for stdin, or the text itself."""
    if value == "-" or (len(value) < 4096 and "\n" not in value and os.path.exists(value)):
        from cardtable._files import read_text

        return read_text(value)
    tokens = value.split()
    looks_like_cards = len(tokens) > 1 and all(len(token) in (2, 3) for token in tokens)
    if len(tokens) < 52 and not looks_like_cards and not value.lstrip().startswith(("{", "[", "Talon")) and (
            "|" not in value):
        shown = value if len(value) <= 60 else value[:59] + "…"
        raise UsageError(f"{shown}: no such file (and not a deal string of 52 cards)")
    return value  # the deal reader names a missing, doubled or unknown card


def _is_patience_record(text: str) -> bool:
    """A record of a patience game other than Klondike's own (it names its game in a Rules header)."""
    from cardtable.cli._patience import is_patience_record

    return is_patience_record(text)


def _record_game(text: str) -> Description:
    """The game a patience record names."""
    from cardtable.patience.record import PatienceRecord

    return PatienceRecord.parse(text).description


def _cmd_variants(args: argparse.Namespace) -> int:
    if args.json:
        import json

        print(json.dumps([v.options() for v in PRESETS.values()], indent=1))
        return 0
    width = max(len(name) for name in PRESETS)
    for name, variant in PRESETS.items():
        print(f"{name:<{width}}  {PRESET_TITLES[name]}: {PRESET_NOTES[name]}")
        print(f"{'':<{width}}    {variant.describe()}")
    print(f"\n--variant takes a name of the first column or, quoted, the name after it ('{PRESET_TITLES['vegas1']}').")
    return 0


def _cmd_deal(args: argparse.Namespace) -> int:
    from cardtable._files import atomic_write_text, check_output, read_text
    from cardtable.klondike.formats import load_start, solvitaire_deal, write_layout

    description = patience_game(args)
    if description is not None:
        from cardtable.cli import _patience

        return _patience.deal(args, description)
    klondike_seed(args.seed)
    variant = variant_from_args(args)  # checked even where the deal does not depend on it
    check_output(args.output)
    if args.winnable and args.file is not None:
        raise UsageError("--winnable goes with --seed, not --file")
    if args.winnable and args.solvitaire_seed is not None:
        raise UsageError("--winnable goes with --seed, not --solvitaire-seed")
    choice = check_deal_arguments(args)
    if not choice.asked and args.seed is None and args.file is None and args.solvitaire_seed is None:
        raise UsageError("say which deal: --seed N, --file F, --solvitaire-seed N, --daily or --difficulty LEVEL "
                         "(see 'cardtable deal --help')")
    if choice.asked and args.solvitaire_seed is not None:
        raise UsageError(f"{'--daily' if choice.day is not None else '--difficulty'} goes with --seed, "
                         "not --solvitaire-seed")
    if choice.asked:
        _, position, what = choose_deal(choice, args.seed, variant)
        print(f"cardtable: {what}", file=sys.stderr)
    elif args.file is not None:
        position, _ = load_start(read_text(args.file))
    elif args.solvitaire_seed is not None:
        position = solvitaire_deal(args.solvitaire_seed)
    elif args.winnable:
        from cardtable.solver import winnable_deal

        position = winnable_deal(args.seed, variant)
    else:
        position = Position.from_seed(args.seed)
    fmt = args.format
    if fmt == "deal" and not position.is_deal:
        fmt = "position"
        print("cardtable: this layout is not a fresh deal; writing a position string",
              file=sys.stderr)
    text = write_layout(position, fmt) + "\n"
    if args.output:
        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from cardtable.klondike.formats import load_start
    from cardtable.klondike.render import render

    description = patience_game(args)
    if description is not None:
        from cardtable.cli import _patience

        return _patience.show(args, description)
    variant = variant_from_args(args)
    value = args.deal.strip()
    if value.isdigit() and not os.path.exists(args.deal):  # a seed's deal, as with --game
        if int(value) >= 2**64:
            raise UsageError(f"{clip(value, 30)}: a seed goes from 0 to 2^64 - 1")
        position, record = Position.from_seed(int(value)), None
    else:
        text = _argument_text(args.deal)
        if _is_patience_record(text):
            from cardtable.cli import _patience

            return _patience.show(args, _record_game(text), text)
        position, record = load_start(text)
    refuse_rule_flags(args, record, args.deal if os.path.exists(args.deal) else "the text given")
    if record is not None:
        variant = record.variant
    print(render(position, unicode=not args.ascii, color=use_color(args),
                 passes=variant.passes, draw=variant.draw))
    if record is not None:
        game = record.replay()
        outcome = game.outcome()
        print(f"\nafter {plural(len(record.moves), 'move')}: {plural(game.foundation_count(), 'card')} on the "
              f"foundations, {outcome.value if outcome else 'game in progress'}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cardtable._files import read_text
    from cardtable.klondike.record import KlondikeRecord
    from cardtable.klondike.render import render

    description = patience_game(args)
    text = read_text(args.file)
    if description is not None or _is_patience_record(text):
        from cardtable.cli import _patience

        if description is None and args.game is not None:  # --game klondike: the description's Klondike
            from cardtable.patience import get

            description = get("klondike")

        return _patience.replay(args, description, text)
    record = KlondikeRecord.parse(text)
    game = record.replay()
    outcome = game.outcome()
    if not args.quiet:
        print(render(game.position(), unicode=not args.ascii, color=use_color(args),
                     passes=game.variant.passes, draw=game.variant.draw))
        print()
    score = "" if game.variant.scoring.kind == "none" else f", score {game.score}"
    print(f"{Path(args.file).name}: {'' if len(record.moves) == 1 else 'all '}{plural(len(record.moves), 'move')} "
          f"legal; {plural(game.foundation_count(), 'card')} on the foundations{score}; "
          f"{outcome.value if outcome else 'game in progress'}")
    return 0
