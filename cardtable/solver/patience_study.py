"""Winnability studies of every patience game, as Klondike's
(:mod:`cardtable.solver.study`): the deals ``first_seed`` to ``first_seed +
deals - 1`` (:meth:`PatienceGame.from_seed
<cardtable.patience.PatienceGame.from_seed>`) solved by the patience search
(:func:`~cardtable.solver.patience.solve_game`, every card known), each kept
in the results store as it is solved, with the same figures, the same rules
for what is solved again and the same resumption.

A study is keyed by :func:`study_key`: the game's name and the identity of
its rules (:attr:`Description.rules_key
<cardtable.patience.Description.rules_key>`: ``golf`` and
``golf:queens-on-kings`` are two studies), as the results store keys every
game's figures; Klondike's studies keep their key (:attr:`Variant.winnability_key
<cardtable.klondike.Variant.winnability_key>`), so the two never mix and
Klondike's stored studies read as before.

>>> import tempfile, pathlib
>>> from cardtable.patience import get
>>> from cardtable.runs.store import ResultsStore
>>> from cardtable.solver.study import Budget
>>> store = ResultsStore(pathlib.Path(tempfile.mkdtemp()) / "results.sqlite")
>>> report = run_patience_winnability(store, get("bakers-game"), first_seed=1, deals=3,
...                                   budget=Budget(max_states=20_000))
>>> report.answered, report.solved_now
(3, 3)
>>> run_patience_winnability(store, get("bakers-game"), first_seed=1, deals=3,
...                          budget=Budget(max_states=20_000)).solved_now
0
>>> store.close()
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from cardtable.patience.description import Description
from cardtable.runs.executor import Executor, LocalExecutor
from cardtable.runs.store import ResultsStore
from cardtable.solver.study import (
    DEFAULT_FIRST_SEED,
    Budget,
    StudyPlan,
    WinnabilityReport,
    run_study,
    study_report,
)
from cardtable.solver.study_store import StudyDeal

__all__ = ["PATIENCE_CLUSTER_CHUNK", "patience_budget", "patience_winnability_report", "run_patience_winnability",
           "study_key", "study_label"]

#: Deals a unit on a Dask cluster (one a unit on local processes), as
#: Klondike's batches (:data:`cardtable.solver.batch.CLUSTER_CHUNK`).
PATIENCE_CLUSTER_CHUNK = 8

def study_key(description: Description) -> tuple[str, str]:
    """The key a study of ``description`` is stored under: the game's name
    and :attr:`~cardtable.patience.Description.rules_key` (the identity of
    its rules, whatever its words), as the results store keys every game's
    figures. Two descriptions that play alike share their deals; changing a
    rule (an option, a user's file) starts a new study.

    >>> from cardtable.patience import get
    >>> study_key(get("golf"))[0], study_key(get("golf")) != study_key(get("golf").with_options("wrap"))
    ('golf', True)
    """
    return description.name, description.rules_key


def study_label(description: Description) -> str:
    """The study's name for people: the game's title, with its options."""
    return " ".join((description.title, *(f"+{name}" for name in description.applied)))


def patience_budget(timeout: float | None, max_states: int | None) -> Budget:
    """A study's budget with the patience search's defaults: the state
    budget unless told is :data:`~cardtable.solver.patience.DEFAULT_MAX_STATES`
    (:data:`~cardtable.solver.patience.TIMED_MAX_STATES` under a time limit)."""
    from cardtable.solver.patience import DEFAULT_MAX_STATES, TIMED_MAX_STATES

    if max_states is None:
        max_states = DEFAULT_MAX_STATES if timeout is None else TIMED_MAX_STATES
    return Budget(timeout, max_states)


def _solve_chunk(description: Description, timeout: float | None, max_states: int,
                 seeds: Sequence[tuple[int, int]]) -> list[tuple[int, dict[str, object]]]:
    """Solve a unit of deals, each with its index (a worker's task)."""
    from cardtable.patience.engine import PatienceGame
    from cardtable.solver.patience import solve_game

    return [(index, solve_game(PatienceGame.from_seed(description, seed), timeout=timeout,
                               max_states=max_states).to_dict()) for index, seed in seeds]


def run_patience_winnability(store: ResultsStore, description: Description, *, first_seed: int = DEFAULT_FIRST_SEED,
                             deals: int, budget: Budget, executor: Executor | None = None, workers: int | None = 1,
                             on_start: Callable[[StudyPlan], None] | None = None,
                             on_deal: Callable[[StudyDeal], None] | None = None,
                             clock: Callable[[], float] = time.perf_counter,
                             retry_undecided: bool = False) -> WinnabilityReport:
    """Run the winnability study of a patience game over ``deals`` deals
    from ``first_seed`` under ``budget``, exactly as
    :func:`~cardtable.solver.study.run_winnability` does Klondike's: the
    deals the store does not answer are solved on ``executor`` (default:
    ``workers`` local processes), each stored as it finishes (with
    ``retry_undecided``, also the deals it holds as undecided: see
    :func:`~cardtable.solver.study.plan_study`); a KeyboardInterrupt reaches
    the caller once every finished deal is stored."""
    executor = executor or LocalExecutor(workers)
    chunk = 1 if isinstance(executor, LocalExecutor) else PATIENCE_CLUSTER_CHUNK

    def solve_todo(todo: list[int], keep: Callable[[int, Mapping[str, object]], None]) -> None:
        indexed = list(enumerate(todo))
        units = [indexed[first:first + chunk] for first in range(0, len(indexed), chunk)]
        task = partial(_solve_chunk, description, budget.timeout, budget.max_states)
        for solved in executor.map(task, units):
            for index, row in solved:
                keep(index, row)

    game, rules = study_key(description)
    return run_study(store, study_label(description), rules, solve_todo, first_seed=first_seed, deals=deals,
                     budget=budget, game=game, on_start=on_start, on_deal=on_deal, clock=clock,
                     retry_undecided=retry_undecided)


def patience_winnability_report(store: ResultsStore, description: Description, *, first_seed: int, deals: int,
                                budget: Budget, solved_now: int = 0,
                                wall_seconds: float | None = None) -> WinnabilityReport:
    """The study's figures from the store alone, solving nothing."""
    game, rules = study_key(description)
    return study_report(store, study_label(description), rules, first_seed=first_seed, deals=deals, budget=budget,
                        game=game, solved_now=solved_now, wall_seconds=wall_seconds)
