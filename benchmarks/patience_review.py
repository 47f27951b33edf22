"""What a patience review costs: the CPU seconds a position of
:func:`cardtable.bots.patience_review.review_play` takes with its default
budget (8 guesses of 10,000 states a position, as the terminal app's ``V``
and the browser's Review weigh them), on a game of each chosen patience
game played by the greedy player from ``--seed`` for at most ``--moves``
moves, and how many of its positions the expert could not estimate within
that budget (shown as ``?``).

Run: ``python benchmarks/patience_review.py [--seed 5] [--moves 40] [--games golf,klondike]``
"""

from __future__ import annotations

import argparse
import time

from cardtable.bots.patience import GreedyPlayer
from cardtable.bots.patience_review import review_play
from cardtable.patience import PatienceGame, get, names
from cardtable.patience.record import PatienceRecord


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5, help="the deal of each game (default 5)")
    parser.add_argument("--moves", type=int, default=40, help="the most moves of each game (default 40)")
    parser.add_argument("--games", default="", help="games by name, comma-separated (default: every game)")
    options = parser.parse_args()
    chosen = [name for name in options.games.split(",") if name] or list(names())
    total = positions = 0
    spent = 0.0
    for name in chosen:
        game = PatienceGame.from_seed(get(name), options.seed)
        player = GreedyPlayer(0)
        while len(game.moves) < options.moves and not game.is_over():
            move = player.choose(game.view())
            if move is None:
                break
            game.play(move)
        start = time.process_time()
        review = review_play(PatienceRecord.from_game(game, options.seed))
        seconds = time.process_time() - start
        spent += seconds
        positions += len(review.positions)
        total += review.unknown()
        print(f"{name:22s} {len(review.positions):4d} positions {seconds:7.2f} s "
              f"({seconds / len(review.positions):5.2f} s each)  {review.unknown():3d} not estimated  "
              f"{len(review.mistakes())} mistakes")
    print(f"{'all':22s} {positions:4d} positions {spent:7.2f} s "
          f"({spent / max(1, positions):5.2f} s each)  {total:3d} not estimated")


if __name__ == "__main__":
    main()
