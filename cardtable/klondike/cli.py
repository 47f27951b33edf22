"""Klondike commands: ``deal``, ``show``, ``replay``, ``variants``; and the
variant options every command that plays Klondike shares."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from cardtable.argtypes import seed
from cardtable.files import atomic_write_text, read_text
from cardtable.klondike.formats import FORMATS, detect_format, read_layout, write_layout
from cardtable.klondike.position import Position
from cardtable.klondike.record import KlondikeRecord
from cardtable.klondike.render import render
from cardtable.klondike.variant import PRESET_NOTES, PRESETS, Variant, parse_passes

__all__ = [
    "add_variant_arguments",
    "load_start",
    "register",
    "use_color",
    "variant_from_args",
]


# ----- shared options --------------------------------------------------------------------------


def add_variant_arguments(parser: argparse.ArgumentParser, default: str | None = "draw1") -> None:
    """``--variant NAME`` and the flags that override it. With ``default``
    None the command picks the preset itself (e.g. the strategy's own)."""
    group = parser.add_argument_group("variant (a preset, then flags that override it)")
    shown = default if default is not None else "the strategy's own"
    group.add_argument("--variant", default=default, metavar="NAME",
                       help=f"preset name (default {shown}); see 'cardtable variants'")
    group.add_argument("--draw", type=int, choices=(1, 3), help="cards drawn at a time")
    group.add_argument("--passes", metavar="N|unlimited",
                       help="passes through the stock (1 = no redeal)")
    group.add_argument("--empty", choices=("king", "any"), help="what fills an empty pile")
    group.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=None,
                       help="may foundation cards come back to the tableau")
    group.add_argument("--scoring", choices=("none", "standard", "vegas"), help="scoring")


def variant_from_args(args: argparse.Namespace) -> Variant:
    """The variant the options name."""
    variant = Variant.preset(args.variant)
    changes: dict[str, object] = {}
    if args.draw is not None:
        changes["draw"] = args.draw
    if args.passes is not None:
        changes["passes"] = parse_passes(args.passes)
    if args.empty is not None:
        changes["empty"] = args.empty
    if args.foundation_return is not None:
        changes["foundation_return"] = args.foundation_return
    if args.scoring is not None:
        changes["scoring"] = args.scoring
    return variant.replace(**changes) if changes else variant


def load_start(text: str) -> tuple[Position, KlondikeRecord | None]:
    """Read a layout (deal string, position string, PySol board, Solvitaire
    JSON) or a game record; a record also gives its last position."""
    if detect_format(text) == "record":
        record = KlondikeRecord.parse(text)
        return record.replay().position(), record
    return read_layout(text), None


def _argument_text(value: str) -> str:
    """A command-line value that is a file path, ``-`` for stdin, or the text itself."""
    if value == "-" or (len(value) < 4096 and "\n" not in value and os.path.exists(value)):
        return read_text(value)
    if len(value.split()) < 52 and not value.lstrip().startswith(("{", "[", "Talon")) and (
            "|" not in value):
        raise ValueError(f"{value}: no such file (and not a deal string of 52 cards)")
    return value


def use_color(args: argparse.Namespace) -> bool:
    """Colour when asked, or on a terminal unless NO_COLOR is set."""
    if getattr(args, "ascii", False):
        return False
    mode = getattr(args, "color", "auto")
    if mode == "always":
        return True
    if mode == "never":
        return False
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def _add_render_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ascii", action="store_true", help="plain ASCII: suits as c d h s, no colour")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="red and black on a terminal (default auto)")


# ----- commands ------------------------------------------------------------------------------------


def _cmd_variants(args: argparse.Namespace) -> int:
    if args.json:
        import json

        print(json.dumps([v.options() for v in PRESETS.values()], indent=1))
        return 0
    width = max(len(name) for name in PRESETS)
    for name, variant in PRESETS.items():
        print(f"{name:<{width}}  {PRESET_NOTES.get(name, '')}")
        print(f"{'':<{width}}    {variant.describe()}")
    return 0


def _cmd_deal(args: argparse.Namespace) -> int:
    variant = variant_from_args(args)  # checked even where the deal does not depend on it
    if args.winnable and args.file is not None:
        raise ValueError("--winnable goes with --seed, not --file")
    if args.file is not None:
        position, _ = load_start(read_text(args.file))
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
    variant = variant_from_args(args)
    position, record = load_start(_argument_text(args.deal))
    if record is not None:
        variant = record.variant
    print(render(position, unicode=not args.ascii, color=use_color(args),
                 passes=variant.passes, draw=variant.draw))
    if record is not None:
        game = record.replay()
        outcome = game.outcome()
        print(f"\nafter {len(record.moves)} moves: {game.foundation_count()} cards on the "
              f"foundations, {outcome.value if outcome else 'game in progress'}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    record = KlondikeRecord.parse(read_text(args.file))
    game = record.replay()
    outcome = game.outcome()
    if not args.quiet:
        print(render(game.position(), unicode=not args.ascii, color=use_color(args),
                     passes=game.variant.passes, draw=game.variant.draw))
        print()
    score = "" if game.variant.scoring.kind == "none" else f", score {game.score}"
    print(f"{Path(args.file).name}: all {len(record.moves)} moves legal; "
          f"{game.foundation_count()} cards on the foundations{score}; "
          f"{outcome.value if outcome else 'game in progress'}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the Klondike commands."""
    p = subparsers.add_parser("variants", help="list the Klondike variant presets")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(func=_cmd_variants)

    p = subparsers.add_parser(
        "deal", help="write a deal (from a seed or a file) as a deal string, PySol board, ...",
        description="Write a deal from a seed, or convert a layout file between formats.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--seed", type=seed, help="deal number (any whole number >= 0)")
    src.add_argument("--file", metavar="F", help="a deal string, position, PySol board, "
                     "Solvitaire JSON or game record ('-' for stdin)")
    p.add_argument("--winnable", action="store_true",
                   help="a deal the solver proves winnable under the variant (the same one for the same seed)")
    p.add_argument("--format", choices=FORMATS, default="deal", help="output format (default deal)")
    p.add_argument("--output", "-o", metavar="FILE", help="write here (atomically) instead of stdout")
    add_variant_arguments(p)
    p.set_defaults(func=_cmd_deal)

    p = subparsers.add_parser("show", help="draw a deal, layout or recorded game's last position")
    p.add_argument("deal", metavar="DEAL-OR-FILE",
                   help="a deal string, or a file with a deal, position, PySol board, "
                   "Solvitaire JSON or game record ('-' for stdin)")
    _add_render_arguments(p)
    add_variant_arguments(p)
    p.set_defaults(func=_cmd_show)

    p = subparsers.add_parser("replay", help="check every move of a game record")
    p.add_argument("file", metavar="FILE", help="a game record, text or JSON ('-' for stdin)")
    p.add_argument("--quiet", "-q", action="store_true", help="only the verdict line")
    _add_render_arguments(p)
    p.set_defaults(func=_cmd_replay)

