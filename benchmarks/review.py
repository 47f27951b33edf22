"""Benchmark: how long ``cardtable review`` takes for a 150-move game (goal: under a minute on one core).

The games are played by ``--player`` (default ``random``: the rule-bound
players mostly stop, won or stuck, well before 150 moves; ``"expert samples=16
states=3000"`` plays longer, more natural games, slower to make) on deals from
``--seed`` on (``--variant``, draw 3 by default) and cut at ``--moves`` moves;
deals whose game ends sooner are skipped, so each game reviewed has exactly that many
moves, won, lost or abandoned. Each game is reviewed as ``cardtable review``
does, in this one process (one core): the expert's estimate at every
position (``--samples`` guesses of ``--max-states`` states) and the peek
verdict (``--verdict-states``; 0 leaves it out). The figures are the wall
time per game, and per position, for the whole review and for the peek
alone, and the process's CPU time (what one core spends, the fairer figure
on a loaded machine). Run it with ``nice`` on a shared machine: the time is the machine's,
the budget (and so every figure the review prints) is not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence

import _report

from cardtable.bots.klondike import make_player
from cardtable.bots.klondike.review import REVIEW_SAMPLES, REVIEW_STATES, review_game
from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Position, Variant
from cardtable.solver import PEEK_STATES, peek_verdict


def games(variant: Variant, player_name: str, first_seed: int, count: int,
          moves: int) -> list[tuple[int, KlondikeRecord]]:
    """``count`` games of exactly ``moves`` moves by ``player_name``, from deal ``first_seed`` on."""
    found: list[tuple[int, KlondikeRecord]] = []
    seed = first_seed
    while len(found) < count:
        game = KlondikeGame(Position.from_seed(seed), variant)
        player = make_player(player_name)
        player.new_game(seed)
        while len(game.moves) < moves and (move := player.choose(game.view())) is not None:
            game.play(move)
        if len(game.moves) == moves:
            found.append((seed, KlondikeRecord.from_game(game)))
        seed += 1
    return found


class _Timed:
    """A verdict that keeps the time it took."""

    def __init__(self, verdict: Callable[[Position, Variant], tuple[str, Sequence[Move]]]) -> None:
        self.verdict = verdict
        self.seconds = 0.0

    def __call__(self, position: Position, variant: Variant) -> tuple[str, Sequence[Move]]:
        start = time.perf_counter()
        try:
            return self.verdict(position, variant)
        finally:
            self.seconds += time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="draw3", help="cardtable variant preset (default draw3)")
    parser.add_argument("--player", default="random", help="who plays the games reviewed (default random)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal tried")
    parser.add_argument("--games", type=int, default=3, help="games reviewed")
    parser.add_argument("--moves", type=int, default=150, help="moves a game")
    parser.add_argument("--samples", type=int, default=REVIEW_SAMPLES)
    parser.add_argument("--max-states", type=int, default=REVIEW_STATES)
    parser.add_argument("--verdict-states", type=int, default=PEEK_STATES)
    parser.add_argument("--json", action="store_true")
    _report.add_option(parser)
    args = parser.parse_args()
    variant = Variant.preset(args.variant)
    rows: list[dict[str, object]] = []
    for seed, record in games(variant, args.player, args.seed, args.games, args.moves):
        peek = _Timed(peek_verdict(args.verdict_states)) if args.verdict_states else None
        start, cpu = time.perf_counter(), time.process_time()
        review = review_game(record, samples=args.samples, max_states=args.max_states, verdict=peek)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        peek_seconds = 0.0 if peek is None else peek.seconds
        verdicts = [position.verdict for position in review.positions]
        rows.append({"seed": seed, "moves": len(record.moves), "outcome": review.outcome,
                     "seconds": seconds, "cpu_seconds": cpu,
                     "per_position": seconds / len(review.positions), "peek_seconds": peek_seconds,
                     "start": review.positions[0].chance, "drops": len(review.drops()),
                     "unknown": verdicts.count("unknown")})
        if not args.json:
            print(f"deal {seed}: {len(record.moves)} moves reviewed in {seconds:.1f} s ({cpu:.1f} s of CPU) "
                  f"({seconds / len(review.positions):.2f} s a position, the peek {peek_seconds:.1f} s of it; "
                  f"{verdicts.count('unknown')} positions unknown to the peek); {review.outcome}", flush=True)
    times = [float(str(row["seconds"])) for row in rows]
    cpus = [float(str(row["cpu_seconds"])) for row in rows]
    summary = {"variant": variant.name, "samples": args.samples, "max_states": args.max_states,
               "verdict_states": args.verdict_states, "games": rows, "mean_seconds": statistics.mean(times),
               "max_seconds": max(times),
               "mean_cpu_seconds": statistics.mean(cpus), "max_cpu_seconds": max(cpus)}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{variant.name}, {args.samples} guesses of {args.max_states:,} states, peek {args.verdict_states:,} "
              f"states: mean {summary['mean_seconds']:.1f} s ({summary['mean_cpu_seconds']:.1f} s of CPU), slowest "
              f"{summary['max_seconds']:.1f} s ({summary['max_cpu_seconds']:.1f} s of CPU) a game "
              f"of {args.moves} moves")
    if args.markdown:
        table = _report.table(
            ["deal", "moves", "outcome", "seconds", "CPU seconds", "s a position", "peek s", "peek unknown"],
            [[row["seed"], row["moves"], row["outcome"], f"{float(str(row['seconds'])):.1f}",
              f"{float(str(row['cpu_seconds'])):.1f}",
              f"{float(str(row['per_position'])):.2f}", f"{float(str(row['peek_seconds'])):.1f}", row["unknown"]]
             for row in rows])
        intro = (f"Variant {variant.name}, games by {args.player}; {args.samples} guesses of "
                 f"{args.max_states:,} states a position, "
                 f"the peek {args.verdict_states:,} states; one process.")
        _report.write_markdown(args.markdown, "## Reviewing a game", intro + "\n\n" + table,
                               note=args.markdown_note)


if __name__ == "__main__":
    main()
