"""The patience core's commute rule against none: the same verdicts, deal by deal, and the time it saves.

    python benchmarks/commute_rule.py [--games beleaguered-castle,king-albert ...] [--deals 1-200]
                                      [--max-states 150000] [--search hybrid] [--jsonl RUN.jsonl]

Each deal of each game is solved twice in this one process, by
:func:`cardtable.solver.patience.solve_game` with the commute rule
(``cardtable/solver/patience.h``, "Single moves that commute, tried in one
order": two single moves of four different piles, after which no card goes
home by itself, are tried in one order only) and without it
(``commute=False``), each up to ``--max-states`` states; the two runs of a
deal take turns at going first, so neither gains from a warm cache. A deal
both searches decide must get one verdict, and when it is "unwinnable" (a
search run to its end, which counts every state reachable) the same count of
states: the rule leaves out only orders of moves, never a state. Every winning
line was replayed in the rules engine by ``solve_game`` itself.

For each game the report gives the deals decided with and without the rule,
the deals proved unwinnable with the same states, the disagreements (each
listed: there should be none), the states in all, and the CPU seconds of the
two searches in all with their ratio. ``--jsonl`` writes a line a deal as it
goes and, given again, skips the deals the file already has, so an
interrupted run resumes where it stopped. The exit status is 1 when any deal
disagrees, 2 on bad options, 130 on Ctrl-C (the lines written stay).
"""

from __future__ import annotations

from _paired import disagreement, paired_parser, run_paired, solve_sides, stopped, totals

from cardtable.patience import PatienceGame
from cardtable.solver.patience import SEARCHES, Search, solve_game

#: The games whose search the rule changes (its conditions in patience.h).
GAMES = ("beleaguered-castle", "streets-and-alleys", "king-albert", "bakers-dozen", "bakers-game", "freecell",
         "la-belle-lucie")


def solve_both(game: PatienceGame, max_states: int, search: Search, rule_first: bool) -> dict[str, object]:
    """One deal with the rule and without it: each search's result, states and CPU seconds."""
    return solve_sides({
        side: lambda commute=commute: solve_game(game, max_states=max_states, search=search, core="patience",
                                                 commute=commute)
        for side, commute in (("with", True), ("without", False))}, "with" if rule_first else "without")


def disagrees(row: dict[str, object]) -> str | None:
    """Why the two searches of a deal disagree, or None."""
    return disagreement(row, "with the rule", "without", proofs_alike=True)


def report(game: str, rows: list[dict[str, object]]) -> str:
    """The game's line of the table."""
    def count(side: str) -> int:
        return sum(row[side] != "unknown" for row in rows)

    proofs = sum(row["with"] == row["without"] == "unwinnable" and row["with_states"] == row["without_states"]
                 for row in rows)
    wrong = sum(disagrees(row) is not None for row in rows)
    states, cpu, ratio = totals(rows)
    return (f"| {game} | {len(rows)} | {count('with')} / {count('without')} | {proofs} | {wrong} | "
            f"{states[0]:,} / {states[1]:,} | {cpu[0]:.2f} / {cpu[1]:.2f} | {ratio} |")


def main(argv: list[str] | None = None) -> int:
    parser = paired_parser(__doc__, GAMES, "1-200", 150_000)
    parser.add_argument("--search", choices=tuple(SEARCHES), default="hybrid", help="the search's order")
    args = parser.parse_args(argv)
    header = (f"# the commute rule, deals {args.deals.start}-{args.deals.stop - 1}, {args.max_states:,} states a "
              f"search, {args.search}",
              "| game | deals | decided with / without | unwinnable, same states | disagree | states with / without "
              "| CPU s with / without | ratio |",
              "|---|--:|---|--:|--:|--:|--:|--:|")
    return run_paired(parser, args, header,
                      lambda game, deal: solve_both(game, args.max_states, args.search, rule_first=deal % 2 == 1),
                      disagrees, report)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("commute_rule.py")
