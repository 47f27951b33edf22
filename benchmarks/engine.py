"""Engine throughput: random playouts and legal-move generation, with
OpenSpiel's ``solitaire`` random playouts in the same run for a ratio.

Run: ``python benchmarks/engine.py [--seconds 5] [--cap 150] [--json]``
(OpenSpiel comes with ``pip install -e '.[bench]'``; without it only
cardtable's figures are printed).

Both sides play uniformly random legal moves from fresh shuffled deals and
stop a game after ``--cap`` player moves (OpenSpiel's default depth limit is
150) or when no move is left. OpenSpiel reveals face-down cards through
chance nodes, which are not counted as moves.
"""

from __future__ import annotations

import argparse
import json
import time

import _report
from _openspiel import load_solitaire, random_game

from cardtable.cards import SplitMix64
from cardtable.klondike import KlondikeGame, Variant


def cardtable_playouts(seconds: float, cap: int, variant: Variant) -> dict[str, float]:
    rng = SplitMix64(12345)
    games = moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = KlondikeGame.from_seed(seed, variant)
        seed += 1
        for _ in range(cap):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(legal[rng.below(len(legal))])
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "moves_per_s": moves / elapsed, "moves_per_game": moves / games}


def cardtable_legal_moves(seconds: float, variant: Variant) -> dict[str, float]:
    # A pool of mid-game positions, then legal_moves() on each, over and over.
    rng = SplitMix64(7)
    games = []
    for seed in range(200):
        game = KlondikeGame.from_seed(seed, variant)
        for _ in range(rng.below(60)):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(legal[rng.below(len(legal))])
        games.append(game)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for game in games:
            game.legal_moves()
        calls += len(games)
    elapsed = time.perf_counter() - start
    return {"legal_moves_calls_per_s": calls / elapsed}


def openspiel_playouts(seconds: float, cap: int) -> dict[str, float] | None:
    game = load_solitaire(cap)
    if game is None:
        return None
    import random

    rng = random.Random(12345)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += random_game(game, rng.randrange)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "moves_per_s": moves / elapsed, "moves_per_game": moves / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--cap", type=int, default=150, help="player moves per game at most")
    parser.add_argument("--variant", default="thoughtful3", help="cardtable variant preset")
    parser.add_argument("--json", action="store_true")
    _report.add_option(parser)
    args = parser.parse_args()
    variant = Variant.preset(args.variant)
    ours = cardtable_playouts(args.seconds, args.cap, variant)
    ours.update(cardtable_legal_moves(args.seconds, variant))
    theirs = openspiel_playouts(args.seconds, args.cap)
    result: dict[str, object] = {"variant": variant.name, "cap": args.cap, "cardtable": ours, "open_spiel": theirs}
    if theirs:
        result["ratio_moves_per_s"] = ours["moves_per_s"] / theirs["moves_per_s"]
        result["ratio_games_per_s"] = ours["games_per_s"] / theirs["games_per_s"]
    if args.markdown:
        rows: list[list[object]] = [
            ["cardtable random playouts", f"{ours['games_per_s']:,.0f}", f"{ours['moves_per_s']:,.0f}",
             f"{ours['moves_per_game']:.1f}"],
            ["cardtable legal_moves()", "", "", f"{ours['legal_moves_calls_per_s']:,.0f} calls/s"]]
        if theirs:
            rows.append(["OpenSpiel solitaire random playouts", f"{theirs['games_per_s']:,.0f}",
                         f"{theirs['moves_per_s']:,.0f}", f"{theirs['moves_per_game']:.1f}"])
            rows.append(["ratio cardtable / OpenSpiel", f"{result['ratio_games_per_s']:.2f}x",
                         f"{result['ratio_moves_per_s']:.2f}x", ""])
        intro = (f"Variant {variant.name} ({variant.describe()}), at most {args.cap} moves a game, "
                 f"{args.seconds:g} s a measurement." + ("" if theirs else " OpenSpiel was not installed."))
        _report.write_markdown(args.markdown, "## Engine throughput",
                               intro + "\n\n" + _report.table(["what", "games/s", "moves/s", "moves a game"], rows),
                               note=args.markdown_note)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"variant {variant.name} ({variant.describe()}), cap {args.cap} moves a game, {args.seconds:g} s each")
    print(f"cardtable  random playouts: {ours['games_per_s']:9.0f} games/s {ours['moves_per_s']:10.0f} moves/s "
          f"({ours['moves_per_game']:.1f} moves/game)")
    print(f"cardtable  legal_moves():   {ours['legal_moves_calls_per_s']:9.0f} calls/s")
    if theirs:
        print(f"open_spiel random playouts: {theirs['games_per_s']:9.0f} games/s {theirs['moves_per_s']:10.0f} moves/s "
              f"({theirs['moves_per_game']:.1f} moves/game)")
        print(f"ratio cardtable/open_spiel: {result['ratio_games_per_s']:.2f}x games/s, "
              f"{result['ratio_moves_per_s']:.2f}x moves/s")
    else:
        print("open_spiel not installed: pip install -e '.[bench]' for the comparison")


if __name__ == "__main__":
    main()
