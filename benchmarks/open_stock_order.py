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

from _paired import only_main, stopped

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
    return only_main(argv, __doc__, GAMES, "best first against the hybrid's passes", sides, LABELS,
                     max_states=200_000)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("open_stock_order.py")
