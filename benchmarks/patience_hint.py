"""What a patience hint costs: the CPU seconds of
:func:`cardtable.bots.patience_hint.patience_hint` with its default budget
(8 guesses of 25,000 states; one search of 200,000 states with nothing
hidden), on the first position of a deal of every shipped game, and where
the hint came from (the expert's guesses, the whole deal, or the greedy
fallback).

Run: ``python benchmarks/patience_hint.py [--seed 2] [--games golf,yukon]``
"""

from __future__ import annotations

import argparse
import time

from cardtable.bots.patience_hint import patience_hint
from cardtable.patience import PatienceGame, get, names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2, help="the deal of each game (default 2)")
    parser.add_argument("--games", default="", help="games by name, comma-separated (default: every game)")
    options = parser.parse_args()
    chosen = [name for name in options.games.split(",") if name] or list(names())
    total = 0.0
    for name in chosen:
        game = PatienceGame.from_seed(get(name), options.seed)
        start = time.process_time()
        found = patience_hint(game)
        seconds = time.process_time() - start
        total += seconds
        source = found.fallback or ("whole deal" if found.every_card_seen else f"{found.wins}/{found.samples} guesses")
        print(f"{name:22s} {seconds:6.2f} s  {source}")
    print(f"{'all':22s} {total:6.2f} s")


if __name__ == "__main__":
    main()
