"""Games of open cards beside a stock dealt to a waste, searched best first against the hybrid's passes.

    python benchmarks/open_stock_order.py [--games forty-thieves ...] [--deals 1-100]
                                          [--max-states 200000] [--jsonl RUN.jsonl]

Where every card is open and the stock deals to a waste (Forty Thieves), the
patience core's default search is the best-first search alone (``goes_deep``
in ``_pcore.c``). Before, such a stock made the hybrid go depth first for a
quarter of the budget, then best first, both without the sideways moves (the
focused pass, half the budget), then best first with every move. Each deal is
solved in this one process by :func:`cardtable.solver.patience.solve_game`
both ways: "with" is the default search, "without" the hybrid with those two
passes (``first_states`` a quarter of the budget, ``focus_states`` a half;
the default had, besides, a depth-first probe on its last 5%, which this side
leaves out). The two take turns at going first. A deal both decide must get
one verdict; every winning line was replayed in the rules engine by
``solve_game`` itself.

The estimate that orders both searches counts the cards under the top of a
waste that will not be turned over again; that part is compiled in
(``W_WASTE`` in ``_pcore.c``), so its effect is measured by running this
benchmark on a build with ``-DW_WASTE=0`` beside the default one.

For each game the report gives the deals decided, won and proved unwinnable
by each side, the deals only one side decides, the disagreements (there should
be none), the states and the CPU seconds of each in all with their ratio.
``--jsonl`` writes a line a deal as it goes and, given again, skips the deals
the file already has. The exit status is 1 when any deal disagrees, 2 on bad
options, 130 on Ctrl-C (the lines written stay).
"""

from __future__ import annotations

from collections.abc import Callable

from _paired import ONLY_HEAD, disagreement, only_report, paired_parser, run_paired, solve_sides, stopped

from cardtable.patience import PatienceGame
from cardtable.solver.patience import PatienceSolveResult, solve_game

#: The games of open cards whose stock deals to a waste.
GAMES = ("forty-thieves",)

#: The labels of the two sides in a disagreement.
LABELS = ("best first", "by the hybrid's passes")


def sides(game: PatienceGame, max_states: int) -> dict[str, Callable[[], PatienceSolveResult]]:
    """A deal's two solves: the default search (best first), and the hybrid's depth-first and focused passes."""
    return {"with": lambda: solve_game(game, max_states=max_states, core="patience"),
            "without": lambda: solve_game(game, max_states=max_states, first_states=max_states // 4,
                                          focus_states=max_states // 2, core="patience")}


def main(argv: list[str] | None = None) -> int:
    parser = paired_parser(__doc__, GAMES, "1-100", 200_000)
    args = parser.parse_args(argv)

    def why(row: dict[str, object]) -> str | None:
        return disagreement(row, *LABELS)

    header = (f"# best first against the hybrid's passes, deals {args.deals.start}-{args.deals.stop - 1}, "
              f"{args.max_states:,} states a search", *ONLY_HEAD)
    return run_paired(parser, args, header,
                      lambda game, deal: solve_sides(sides(game, args.max_states), "with" if deal % 2 else "without"),
                      why, lambda game, rows: only_report(game, rows, why))


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("open_stock_order.py")
