"""Spider's games searched best first from the start against the hybrid's depth-first pass first.

    python benchmarks/builds_out_of_run.py [--games spider,spider-2-suits,spiderette] [--deals 1-100]
                                           [--max-states 200000] [--jsonl RUN.jsonl]

Where a card may be built on another that it cannot move with (Spider's
builds out of suit, in two and four suits: ``builds_out_of_run`` in
``_pcore.c``), the hybrid's focused pass is best first from its start. Before,
as in the games whose builds are all runs (Klondike, Spider in one suit), it
went depth first for half of the focused pass, a quarter of the budget, then
best first. Each deal is solved in this one process by
:func:`cardtable.solver.patience.solve_game` both ways: "with" is the default
search, "without" the hybrid with the depth-first part (``first_states`` a
quarter of 95% of the budget, ``focus_states`` a half of it, as the default
split it; the default also keeps its last 5% for a depth-first probe, which
this side gives to the hybrid instead). The two take turns at going first.
A deal both decide must get one verdict; every winning line was replayed in
the rules engine by ``solve_game`` itself.

For each game the report gives the deals decided, won and proved unwinnable
by each side, the deals only one side decides, the disagreements (there should
be none), the states and the CPU seconds of each in all with their ratio.
``--jsonl`` writes a line a deal as it goes and, given again, skips the deals
the file already has. The exit status is 1 when any deal disagrees, 2 on bad
options, 130 on Ctrl-C or SIGTERM (the lines written stay).
"""

from __future__ import annotations

from collections.abc import Callable

from _paired import only_main, stopped

from cardtable.patience import PatienceGame
from cardtable.solver.patience import PatienceSolveResult, solve_game

#: The games whose builds may be out of suit for a run.
GAMES = ("spider", "spider-2-suits", "spiderette")

#: The labels of the two sides in a disagreement.
LABELS = ("best first from the start", "depth first first")


def sides(game: PatienceGame, max_states: int) -> dict[str, Callable[[], PatienceSolveResult]]:
    """A deal's two solves: the default search, and the hybrid with its depth-first part first."""
    budget = max_states * 95 // 100
    return {"with": lambda: solve_game(game, max_states=max_states, core="patience"),
            "without": lambda: solve_game(game, max_states=max_states, first_states=budget // 4,
                                          focus_states=budget // 2, core="patience")}


def main(argv: list[str] | None = None) -> int:
    return only_main(argv, __doc__, GAMES, "best first from the start against depth first first", sides, LABELS,
                     max_states=200_000)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("builds_out_of_run.py")
