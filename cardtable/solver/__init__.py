"""Exact search over full-information Klondike deals, in every variant the
engine supports: won (with a solution checked move by move against the
rules), unwinnable (the search was exhaustive) or unknown (a budget ran out).

>>> from cardtable.klondike import Position, Variant
>>> from cardtable.solver import solve
>>> result = solve(Position.from_seed(2), Variant.preset("thoughtful1"))
>>> result.result
'won'

The searches, depth-first and best-first, are C (:mod:`cardtable.solver._ccore`,
compiled when the package is installed, on Klondike's one compiled rules
library ``klondike.h``) over a compact array state
(:mod:`cardtable.solver._state`). The rules engine stays the reference: the
core's exact move generation is tested equal to the engine's in every rule
combination, every solution is written out as engine moves that the core
checks one by one against it before it is reported, and the tests replay
solutions in the engine itself.
"""

from typing import TYPE_CHECKING, Any

from cardtable.solver.hint import PEEK_STATES, Hint, heuristic_move, hint, peek_verdict
from cardtable.solver.search import DEFAULT_MAX_STATES, TIMED_MAX_STATES, SolverError, SolveResult, relaxation, solve

if TYPE_CHECKING:
    from cardtable.solver.batch import SolveSummary, solve_batch, summarize_solves
    from cardtable.solver.winnable import WINNABLE_STATE_BUDGET, candidate_seeds, winnable_deal, winnable_seed

#: Loaded on first use, by module: a single solve needs neither the winnable
#: deals nor the batches (which bring in the process pool machinery). The
#: hints are bound at once: ``hint`` is also the name of their module, which
#: would stand in the function's place once imported.
_HOMES = {
    "SolveSummary": "batch", "solve_batch": "batch", "summarize_solves": "batch",
    "WINNABLE_STATE_BUDGET": "winnable", "candidate_seeds": "winnable", "winnable_deal": "winnable",
    "winnable_seed": "winnable",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

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
