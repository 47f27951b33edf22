"""Exact search over full-information Klondike deals, in every variant the
engine supports: won (with a solution the engine replays), unwinnable (the
search was exhaustive) or unknown (a budget ran out).

>>> from cardtable.klondike import Position, Variant
>>> from cardtable.solver import solve
>>> result = solve(Position.from_seed(2), Variant.preset("thoughtful1"))
>>> result.result
'won'

The searches, depth-first and best-first, are C (:mod:`cardtable.solver._ccore`,
compiled when the package is installed, on Klondike's one compiled rules
library ``klondike.h``) over a compact array state
(:mod:`cardtable.solver._state`). The rules engine stays the reference, and
every solution is replayed in it before it is reported.
"""

from typing import TYPE_CHECKING, Any

from cardtable.solver.hint import PEEK_STATES, Hint, heuristic_move, hint, peek_verdict
from cardtable.solver.search import DEFAULT_MAX_STATES, TIMED_MAX_STATES, SolverError, SolveResult, relaxation, solve
from cardtable.solver.winnable import WINNABLE_STATE_BUDGET, candidate_seeds, winnable_deal, winnable_seed

if TYPE_CHECKING:
    from cardtable.solver.batch import SolveSummary, solve_batch, summarize_solves

#: Loaded on first use: batches bring in the process pool machinery, which a
#: single solve does not need.
_BATCH = ("SolveSummary", "solve_batch", "summarize_solves")


def __getattr__(name: str) -> Any:
    if name in _BATCH:
        from cardtable.solver import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "DEFAULT_MAX_STATES",
    "PEEK_STATES",
    "TIMED_MAX_STATES",
    "WINNABLE_STATE_BUDGET",
    "Hint",
    "SolveResult",
    "SolveSummary",
    "SolverError",
    "candidate_seeds",
    "heuristic_move",
    "hint",
    "peek_verdict",
    "relaxation",
    "solve",
    "solve_batch",
    "summarize_solves",
    "winnable_deal",
    "winnable_seed",
]
