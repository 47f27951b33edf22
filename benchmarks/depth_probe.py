"""The patience core's depth-first probe against the hybrid alone, deal by deal, where the focused pass runs.

    python benchmarks/depth_probe.py [--games spider-1-suit,yukon ...] [--deals 1-100]
                                     [--max-states 1000000] [--jsonl RUN.jsonl]

Each deal of each game is solved twice in this one process by
:func:`cardtable.solver.patience.solve_game`: by the default search, which in
these games is the hybrid with its focused pass on 95% of the budget, then,
when that runs out, the probe (a plain depth-first search from scratch with
every move) on the last 5%; and by the hybrid alone on the whole budget, its
focused pass given half of it (``focus_states``), which is the default search
as it was before the probe. The games are those whose hybrid goes depth first
(face-down cards or a stock, cards built on the tableau); the two runs of a
deal take turns at going first. A deal both searches decide must get one
verdict. Every winning line was replayed in the rules engine by
``solve_game`` itself.

For each game the report gives the deals decided, won and proved unwinnable
by each search, the disagreements (each listed: there should be none), the
states in all, and the CPU seconds of the two in all with their ratio.
``--jsonl`` writes a line a deal as it goes and, given again, skips the deals
the file already has, so an interrupted run resumes where it stopped. The
exit status is 1 when any deal disagrees, 2 on bad options, 130 on Ctrl-C
(the lines written stay).
"""

from __future__ import annotations

from collections.abc import Callable

from _paired import only_main, stopped

from cardtable.patience import PatienceGame
from cardtable.solver.patience import PatienceSolveResult, solve_game

#: The games whose hybrid goes depth first, so the focused pass and the probe run by default.
GAMES = ("spider-1-suit", "spider-2-suits", "spiderette", "yukon", "russian-solitaire", "scorpion", "canfield")


def sides(game: PatienceGame, max_states: int) -> dict[str, Callable[[], PatienceSolveResult]]:
    """A deal's two solves: with the probe (the default), and by the hybrid alone."""
    return {"with": lambda: solve_game(game, max_states=max_states, core="patience"),
            "without": lambda: solve_game(game, max_states=max_states, focus_states=max_states // 2,
                                          core="patience")}


def main(argv: list[str] | None = None) -> int:
    return only_main(argv, __doc__, GAMES, "the depth-first probe", sides, ("with the probe", "by the hybrid alone"))


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        stopped("depth_probe.py")
