"""How hard the graded deals are: the full-strength ``expert``'s win rate per grade.

    python benchmarks/grades.py [--variant seed-001] [--deals 1000] [--first-seed 1]
                                [--seconds S] [--expert 'expert'] [--markdown docs/results/grades.md]

Deals are graded in seed order from ``--first-seed`` (:func:`cardtable.sim.grade.grade_seed`:
easy, medium, hard, expert, or no grade when the solver cannot prove the deal
winnable within its budget). The full-strength expert (its defaults: 48 guesses
a decision, 20,000 states a guess, seeded with the deal's seed) then plays each
graded deal whose grade still has fewer than ``--deals`` games, keeping the
grades level: a deal is played only when its grade has no more games than the
grade with the fewest (of those not yet full) plus two, so a time budget
(``--seconds``: start no new game after that many wall seconds) ends with
every grade measured about equally. The table gives, per grade, the share of
graded deals it holds, the deals played, the expert's win rate with its 95%
Wilson interval, the mean solver states of the proofs and the CPU seconds a
game; the run says honestly how many deals each grade got.
"""

from __future__ import annotations

import argparse
import time

import _report

from cardtable.bots.klondike import make_player
from cardtable.game import play_out
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.sim.grade import LEVELS, Grade, grade_seed
from cardtable.stats import wilson


def _play_expert(spec: str, seed: int, variant: Variant) -> tuple[bool, float]:
    """One game of the expert on the deal of ``seed``: won, and CPU seconds."""
    player = make_player(spec)
    player.new_game(seed)
    start = time.process_time()
    won = play_out(KlondikeGame(Position.from_seed(seed), variant), [player]).is_won()
    return won, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="seed-001", help="the rules (a preset name; default seed-001, draw 3)")
    parser.add_argument("--deals", type=int, default=1000, help="expert games per grade (default 1000)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first deal seed graded")
    parser.add_argument("--seconds", type=float, default=None, help="start no new game after this many wall seconds")
    parser.add_argument("--expert", default="expert", help="the expert's spec (default: its full strength)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, not {args.deals}")
    variant = Variant.preset(args.variant)
    began = time.monotonic()
    graded: dict[str, int] = dict.fromkeys(LEVELS, 0)
    ungraded = 0
    games: dict[str, list[tuple[bool, float, Grade]]] = {level: [] for level in LEVELS}
    grading_seconds = 0.0
    seed = args.first_seed
    while any(len(games[level]) < args.deals for level in LEVELS):
        if args.seconds is not None and time.monotonic() - began > args.seconds:
            break
        start = time.process_time()
        grade = grade_seed(seed, variant)
        grading_seconds += time.process_time() - start
        if grade is None:
            ungraded += 1
        else:
            graded[grade.level] += 1
            open_counts = [len(games[level]) for level in LEVELS if len(games[level]) < args.deals]
            played = games[grade.level]
            if len(played) < args.deals and len(played) <= min(open_counts) + 2:
                won, seconds = _play_expert(args.expert, seed, variant)
                played.append((won, seconds, grade))
                print(f"seed {seed}: {grade.level} ({grade.points} points, {grade.solver_states} states), "
                      f"expert {'won' if won else 'lost'} in {seconds:.1f} s; "
                      + ", ".join(f"{level} {len(games[level])}" for level in LEVELS), flush=True)
        seed += 1
    total_graded = sum(graded.values())
    rows = []
    for level in LEVELS:
        played = games[level]
        wins = sum(won for won, _, _ in played)
        low, high = wilson(wins, len(played))
        rate = f"{wins / len(played):.1%} ({low:.1%}-{high:.1%})" if played else "-"
        states = sum(grade.solver_states for _, _, grade in played) / len(played) if played else 0
        cpu = sum(seconds for _, seconds, _ in played) / len(played) if played else 0
        rows.append([level, f"{graded[level] / total_graded:.0%}" if total_graded else "-", len(played),
                     f"{wins}", rate, f"{states:,.0f}", f"{cpu:.1f}"])
    body = _report.table(["grade", "share of graded deals", "deals played", "expert wins",
                          "expert win rate (95% interval)", "mean solver states", "CPU s a game"], rows)
    seeds = seed - args.first_seed
    summary = (f"{variant.name}: {variant.describe()}. Seeds {args.first_seed}-{seed - 1} graded: {total_graded:,} "
               f"graded, {ungraded:,} not proven winnable within the grading budget (no grade); grading took "
               f"{grading_seconds / max(seeds, 1):.2f} CPU s a deal. Expert: `{args.expert}`.")
    if any(len(games[level]) < args.deals for level in LEVELS):
        summary += (f" The run stopped before every grade had {args.deals:,} games "
                    f"(time budget {args.seconds:.0f} s)." if args.seconds is not None else "")
    print()
    print(summary)
    print()
    print(body)
    if args.markdown:
        _report.write_markdown(args.markdown, "## The expert's win rate per grade", summary + "\n\n" + body,
                               note=args.markdown_note)


if __name__ == "__main__":
    main()
