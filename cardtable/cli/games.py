"""``cardtable games``: the patience games of the registry, their
descriptions, a deal of one, and a bot's game of it.

- ``cardtable games``: every game, one a line (``--json``: a list of objects
  with ``name``, ``title``, ``family``, ``decks``, ``description``, ``options``);
- ``cardtable games NAME``: the game's rules in words; ``--json``: its whole
  description, in the form a description file has (``NAME`` may be such a
  file, or a game with options after colons, ``golf:wrap``);
- ``--deal SEED``: the deal (a whole number, ``ms:N`` for the FreeCell
  family, ``pysol:N`` for the games PySolFC numbers alike), as text,
  ``--format pysol`` or ``--format solvitaire`` (Solvitaire's deal JSON, for
  the games Solvitaire has a preset of);
- ``--deal-file FILE``: a position read from a file in Solvitaire's deal JSON
  or as a PySol board (told apart by the first character), shown the same ways;
- ``--play random|greedy``: a bot plays that deal; the moves and the result
  (``--output FILE``: its game record, :mod:`cardtable.patience.record`).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.patience import Description, PatienceGame

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``games`` command."""
    p = subparsers.add_parser(
        "games", help="the patience games: list, describe, deal, let a bot play",
        description="Without a game: every patience game of the registry, one a line. With a game (a name, "
                    "a name with options such as golf:wrap, or a description file FILE.json): its rules, or "
                    "with --json its whole description (which --game FILE.json reads back); --deal SEED "
                    "shows a deal; --play BOT lets the random, greedy or expert bot play it.")
    p.add_argument("game", nargs="?", metavar="GAME", help="a game's name (options after colons) or a FILE.json")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.add_argument("--deal", metavar="SEED",
                   help="show this deal: a whole number, ms:N (Microsoft's FreeCell numbers) or pysol:N "
                        "(PySolFC's), for the games that have them")
    p.add_argument("--deal-file", metavar="FILE",
                   help="show this position instead: a file (- for standard input) in Solvitaire's deal JSON "
                        "or a PySol board")
    p.add_argument("--format", choices=("text", "pysol", "solvitaire"), default="text",
                   help="how --deal or --deal-file shows the deal (default text; pysol: fc-solve's board; "
                        "solvitaire: Solvitaire's deal JSON)")
    p.add_argument("--play", choices=("random", "greedy", "expert"),
                   help="let this bot play the deal (--deal, default 0)")
    p.add_argument("--max-moves", type=int, default=2000, metavar="N", help="stop a bot after N moves (2000)")
    p.add_argument("--output", "-o", metavar="FILE", help="with --play: write the game record here (text, or "
                   "JSON for a name ending in .json), which 'cardtable replay' checks")
    p.set_defaults(func=_cmd_games)


def _listing(description: Description) -> dict[str, Any]:
    return {"name": description.name, "title": description.title, "family": description.family,
            "decks": description.cards.decks, "description": description.summary,
            "options": [option.name for option in description.options]}


def _show(game: PatienceGame) -> str:
    from cardtable.patience import Kind

    lines = []
    view = game.view()
    for pile in view.piles:
        kind = pile.place.kind
        if kind is Kind.STOCK:
            lines.append(f"stock: {pile.face_down} cards")
            continue
        cards = " ".join(["##"] * pile.face_down + [str(card) for card in pile.cards])
        lines.append(f"{pile.place}: {cards}" if cards else f"{pile.place}:")
    return "\n".join(lines)


def _read_deal_file(description: Description, path: str) -> PatienceGame:
    """The position in ``path`` (Solvitaire's deal JSON or a PySol board); an
    error names the file."""
    from cardtable._files import read_text
    from cardtable.errors import NotationError
    from cardtable.patience.formats import read_deal

    text = read_text(path)
    try:
        return read_deal(description, text)
    except NotationError as error:
        raise type(error)(f"{'standard input' if path == '-' else path}: {error}") from None


def _cmd_games(args: argparse.Namespace) -> int:
    from cardtable.errors import UsageError
    from cardtable.patience import PatienceGame, get, load, names

    if args.game is None:
        for flag in ("deal", "deal_file", "play"):
            if getattr(args, flag) is not None:
                option = "--" + flag.replace("_", "-")
                raise UsageError(f"{option} needs a game, e.g. 'cardtable games freecell {option} ...'")
        games = [get(name) for name in names()]
        if args.json:
            print(json.dumps([_listing(d) for d in games], indent=1))
            return 0
        width = max(len(d.name) for d in games)
        for d in games:
            print(f"{d.name:<{width}}  {d.title} ({d.family}, {d.cards.decks} deck{'s' * (d.cards.decks > 1)}): "
                  f"{d.summary}")
        return 0
    description = load(args.game)
    if args.output is not None and args.play is None:
        raise UsageError("--output writes a bot's game: give --play random, greedy or expert")
    if args.output is not None:
        from cardtable._files import check_output

        check_output(args.output)
    if args.max_moves < 1:
        raise UsageError(f"--max-moves must be at least 1, not {args.max_moves}")
    if args.deal is not None and args.deal_file is not None:
        raise UsageError("--deal and --deal-file both say which deal; give one")
    if args.deal is None and args.play is None and args.deal_file is None:
        if args.json:
            print(description.dumps(), end="")
        else:
            from cardtable.patience.words import rules_lines

            print("\n".join(rules_lines(description)))
        return 0
    seed = args.deal if args.deal is not None else "0"
    if args.deal_file is not None:
        game = _read_deal_file(description, args.deal_file)
        seed = args.deal_file
    else:
        game = PatienceGame.from_seed(description, seed)
    if args.play is None:
        if args.format == "pysol":
            from cardtable.patience.formats import to_pysol

            print(to_pysol(game), end="")
        elif args.format == "solvitaire":
            from cardtable.patience.solvitaire import dumps, to_solvitaire

            print(dumps(to_solvitaire(game)), end="")
        elif args.json:
            print(json.dumps({"game": description.name, "seed": seed,
                              "piles": [{"place": str(p.place), "face_down": p.face_down,
                                         "cards": [str(c) for c in p.cards]} for p in game.view().piles]},
                             indent=1))
        else:
            print(_show(game))
        return 0
    from cardtable.bots.patience import make_player
    from cardtable.game import play_out
    from cardtable.patience import Kind

    player = make_player(args.play, 0)
    play_out(game, [player], max_actions=args.max_moves)
    outcome = game.outcome()
    result = outcome.value if outcome is not None else "stopped"
    if args.output is not None:
        from cardtable._files import atomic_write_text
        from cardtable.patience.record import PatienceRecord

        record = PatienceRecord.from_game(game, seed, Player=args.play)
        atomic_write_text(args.output, record.to_json() if args.output.endswith(".json") else str(record))
    if args.json:
        print(json.dumps({"game": description.name, "seed": seed, "player": args.play, "result": result,
                          "won": game.is_won(), "moves": [str(m) for m in game.moves],
                          "foundation_cards": game.foundation_cards()}, indent=1))
    else:
        print(" ".join(str(m) for m in game.moves))
        if description.win.value == "one-pile":
            left = sum(1 for place in game.places(Kind.TABLEAU) if game.pile(place))
            where = f"{left} pile{'s' * (left != 1)} left"
        else:
            where = f"{game.foundation_cards()} cards home"
        print(f"{description.title}, deal {seed}, {args.play}: {result} after {len(game.moves)} moves, {where}")
    return 0
