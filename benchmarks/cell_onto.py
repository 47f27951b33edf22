"""A card in a cell sent onto the card it builds on, against the search without that rule, deal by deal.

    python benchmarks/cell_onto.py [--games seahaven-towers,eight-off] [--deals 1-100]
                                   [--max-states 1000000] [--jsonl RUN.jsonl]

Each deal of each game is solved twice in this one process by
:func:`cardtable.solver.patience.solve_game`: by the default search, which in
these games sends a card in a free cell at once onto the top card it builds on
(the only move there) and moves a pile's top cards, each lying on the card it
builds on, into the free cells together as one move (``patience.h``,
``cell_onto``); and by the same search without either (``cell_onto=False``).
The games are those where each card takes only the card one rank below it in
its suit, runs move by the free cells and spaces take only Kings; the two runs
of a deal take turns at going first. A deal both searches decide must get one
verdict (the rule prunes, so a proof may count fewer states with it). Every
winning line was replayed in the rules engine by ``solve_game`` itself.

For each game the report gives the deals decided, won and proved unwinnable
by each search, the deals only one of them decides, the disagreements (each
listed: there should be none), the states in all, and the CPU seconds of the
two in all with their ratio. ``--jsonl`` writes a line a deal as it goes and,
given again, skips the deals the file already has, so an interrupted run
resumes where it stopped. The exit status is 1 when any deal disagrees, 2 on
bad options, 130 on Ctrl-C (the lines written stay).
"""

from __future__ import annotations

from collections.abc import Callable

from _paired import only_main, stopped

from cardtable.patience import PatienceGame
from cardtable.solver.patience import PatienceSolveResult, solve_game

#: The games where the rule holds.
GAMES = ("seahaven-towers", "eight-off")


def sides(game: PatienceGame, max_states: int) -> dict[str, Callable[[], PatienceSolveResult]]:
    """A deal's two solves: with the rule (the default), and without it."""
    return {"with": lambda: solve_game(game, max_states=max_states, core="patience"),
            "without": lambda: solve_game(game, max_states=max_states, core="patience", cell_onto=False)}


def main(argv: list[str] | None = None) -> int:
    return only_main(argv, __doc__, GAMES, "a card in a cell onto the card it builds on", sides,
                     ("with the rule", "without it"))


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("cell_onto.py")
