"""Patience engine throughput: random play-outs a second for every shipped
game, and the description engine's Klondike against today's Klondike
engine (:class:`cardtable.klondike.KlondikeGame`) in the same run.

Run: ``python benchmarks/patience_playouts.py [--seconds 1] [--cap 300] [--rounds 5] [--json]``

Each game plays uniformly random legal moves from fresh seeded deals and
stops after ``--cap`` moves or when no move is left; a move costs one
``legal_moves()`` and one ``play()``, as in ``benchmarks/engine.py``.

The two Klondike engines are compared in ``--rounds`` rounds of
``--seconds`` each, the two taking turns within a round (which goes first
alternates), and the figure is the ratio of each engine's fastest round, as
``timeit`` takes the fastest run: on a shared machine a round runs at most
as fast as the code allows, never faster. Both list Klondike's moves in the
same order and draw the same random numbers, so they play the very same
play-outs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import _report

from cardtable.cards import SplitMix64
from cardtable.errors import CardtableError
from cardtable.klondike import KlondikeGame
from cardtable.patience import PatienceGame, get, names


def playouts(new_game: Callable[[int], Any], seconds: float, cap: int) -> dict[str, float]:
    rng = SplitMix64(12345)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = new_game(games)
        for _ in range(cap):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(legal[rng.below(len(legal))])
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"playouts_per_s": games / elapsed, "moves_per_s": moves / elapsed, "moves_per_playout": moves / games}


def paired(rounds: int, seconds: float, cap: int) -> tuple[float, dict[str, float], dict[str, float]]:
    """Today's Klondike engine's moves a second over the description
    engine's, each engine's fastest of ``rounds`` rounds, and those rounds' figures."""
    klondike = get("klondike")
    ours: list[dict[str, float]] = []
    today: list[dict[str, float]] = []
    for round_ in range(rounds):
        if round_ % 2:
            today.append(playouts(KlondikeGame.from_seed, seconds, cap))
            ours.append(playouts(lambda seed: PatienceGame.from_seed(klondike, seed), seconds, cap))
        else:
            ours.append(playouts(lambda seed: PatienceGame.from_seed(klondike, seed), seconds, cap))
            today.append(playouts(KlondikeGame.from_seed, seconds, cap))
    best_ours = max(ours, key=lambda row: row["moves_per_s"])
    best_today = max(today, key=lambda row: row["moves_per_s"])
    return best_today["moves_per_s"] / best_ours["moves_per_s"], best_ours, best_today


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per game (1)")
    parser.add_argument("--cap", type=int, default=300, help="moves per play-out at most (300)")
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds of the two Klondike engines (5)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = parser.parse_args(argv)
    try:
        _report.more_than_zero("--seconds", args.seconds, "seconds")
        _report.at_least_one("--cap", args.cap)
        _report.at_least_one("--rounds", args.rounds)
    except CardtableError as error:
        print(f"patience_playouts: error: {error}", file=sys.stderr)
        return 2
    rows = {}
    for name in names():
        description = get(name)
        rows[name] = playouts(lambda seed, d=description: PatienceGame.from_seed(d, seed), args.seconds, args.cap)
    ratio, ours, today = paired(args.rounds, args.seconds, args.cap)
    if args.json:
        print(json.dumps({"games": rows, "klondike_engine": today, "klondike_description": ours,
                          "klondike_engine_over_description": ratio}))
        return 0
    print(_report.table(("game", "play-outs/s", "moves/s", "moves/play-out"),
                        [(name, f"{r['playouts_per_s']:.1f}", f"{r['moves_per_s']:.0f}",
                          f"{r['moves_per_playout']:.0f}") for name, r in rows.items()]))
    print(f"\nToday's Klondike engine: {today['playouts_per_s']:.1f} play-outs/s, {today['moves_per_s']:.0f} "
          f"moves/s, the description engine's Klondike {ours['moves_per_s']:.0f} moves/s (each the fastest of "
          f"{args.rounds} paired rounds): today's engine is {ratio:.2f} times as fast")
    return 0


if __name__ == "__main__":
    sys.exit(main())
