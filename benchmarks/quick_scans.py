"""The patience core's quick scans against the best-first search alone, deal by deal, where no cells hold cards.

    python benchmarks/quick_scans.py [--games bakers-dozen,beleaguered-castle ...] [--deals 1-100]
                                     [--max-states 1000000] [--jsonl RUN.jsonl]

Each deal of each game is solved twice in this one process by
:func:`cardtable.solver.patience.solve_game`: by the default search, which in
these games begins with the quick scans (depth-first scans from scratch, each
in a cheap move order of its own and with a small budget, with digs; then the
best-first search on the rest of the budget), and by the best-first search
alone (``search="best-first"``), each up to ``--max-states`` states. The
games are those with no free cells whose cards take two cards or more on
them (builds regardless of suit or in alternate colours); the two runs of a
deal take turns at going first. A deal both searches decide must get one
verdict (a proof's states differ: the scans count in the default search's).
Every winning line was replayed in the rules engine by ``solve_game`` itself.

For each game the report gives the deals decided, won and proved unwinnable
by each search, the disagreements (each listed: there should be none), the
states in all, and the CPU seconds of the two in all with their ratio.
``--jsonl`` writes a line a deal as it goes and, given again, skips the deals
the file already has, so an interrupted run resumes where it stopped. The
exit status is 1 when any deal disagrees, 2 on bad options, 130 on Ctrl-C
(the lines written stay).
"""

from __future__ import annotations

from _paired import disagreement, paired_parser, run_paired, solve_sides, stopped, totals

from cardtable.patience import PatienceGame
from cardtable.solver.patience import Search, solve_game

#: The games without cells whose default search now begins with the scans.
GAMES = ("bakers-dozen", "beleaguered-castle", "streets-and-alleys", "king-albert")

#: The two sides of a line (``with`` the scans, ``without`` them) and their searches.
SIDES: dict[str, Search] = {"with": "hybrid", "without": "best-first"}


def solve_both(game: PatienceGame, max_states: int, scans_first: bool) -> dict[str, object]:
    """One deal by both searches: each one's result, states and CPU seconds."""
    return solve_sides({side: lambda search=search: solve_game(game, max_states=max_states, search=search)
                        for side, search in SIDES.items()}, "with" if scans_first else "without")


def disagrees(row: dict[str, object]) -> str | None:
    """Why the two searches of a deal disagree, or None."""
    return disagreement(row, "with the scans", "best first alone")


def report(game: str, rows: list[dict[str, object]]) -> str:
    """The game's line of the table."""
    def count(side: str, *results: str) -> int:
        return sum(row[side] in results for row in rows)

    wrong = sum(disagrees(row) is not None for row in rows)
    states, cpu, ratio = totals(rows)
    return (f"| {game} | {len(rows)} | {count('with', 'won', 'unwinnable')} / "
            f"{count('without', 'won', 'unwinnable')} | {count('with', 'won')} / {count('without', 'won')} | "
            f"{count('with', 'unwinnable')} / {count('without', 'unwinnable')} | {wrong} | "
            f"{states[0]:,} / {states[1]:,} | {cpu[0]:.2f} / {cpu[1]:.2f} | {ratio} |")


def main(argv: list[str] | None = None) -> int:
    parser = paired_parser(__doc__, GAMES, "1-100", 1_000_000)
    args = parser.parse_args(argv)
    header = (f"# the quick scans, deals {args.deals.start}-{args.deals.stop - 1}, {args.max_states:,} states a search",
              "| game | deals | decided with / without | won | unwinnable | disagree | states with / without "
              "| CPU s with / without | ratio |",
              "|---|--:|---|---|---|--:|--:|--:|--:|")
    return run_paired(parser, args, header,
                      lambda game, deal: solve_both(game, args.max_states, scans_first=deal % 2 == 1),
                      disagrees, report)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("quick_scans.py")
