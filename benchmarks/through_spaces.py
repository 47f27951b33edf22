"""The patience core's moves of a sequence through spaces, against the engine's moves alone, deal by deal.

    python benchmarks/through_spaces.py [--games spider-2-suits,spiderette ...] [--deals 1-100]
                                        [--max-states 1000000] [--jsonl RUN.jsonl]

Each deal of each game is solved twice in this one process by
:func:`cardtable.solver.patience.solve_game`: by the default search, which in
these games lists, besides the engine's moves, a sequence that builds down
but holds several of the units the rules move (runs of one suit in Spider,
single cards in Forty Thieves) moved onto a card it builds on or into a space
through the other spaces, as one move; and by the same search without those
moves (``through_spaces=False``). The games are those where a space takes
any card and there are no cells; the two runs of a deal take turns at going
first. A deal both searches decide must get one verdict, and a deal both
prove unwinnable the same count of states (the moves reach no position the
engine's moves do not, so both key the same positions). Every winning line
was replayed in the rules engine by ``solve_game`` itself.

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

#: The games where a space takes any card and there are no cells.
GAMES = ("spider", "spider-2-suits", "spider-1-suit", "spiderette", "forty-thieves")


def sides(game: PatienceGame, max_states: int) -> dict[str, Callable[[], PatienceSolveResult]]:
    """A deal's two solves: with the moves through spaces (the default), and with the engine's moves alone."""
    return {"with": lambda: solve_game(game, max_states=max_states, core="patience"),
            "without": lambda: solve_game(game, max_states=max_states, core="patience", through_spaces=False)}


def main(argv: list[str] | None = None) -> int:
    return only_main(argv, __doc__, GAMES, "sequences moved through spaces", sides,
                     ("with the moves through spaces", "by the engine's moves alone"), proofs_alike=True)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("through_spaces.py")
