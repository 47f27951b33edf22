"""Studies over numbered deals: what share of a variant's deals can be won.

A winnability study solves the deals ``first_seed`` to ``first_seed + deals
- 1`` (:meth:`Position.from_seed <cardtable.klondike.Position.from_seed>`)
under one variant and one solver :class:`Budget`, and reports the deals
won, proven unwinnable and left undecided (grouped by the budget that ran
out), the winnable share of the decided deals with its 95% Wilson interval,
the bounds on the share of all deals whatever the undecided ones are, and
the seconds a deal took (:class:`WinnabilityReport`).

Each deal is kept in the results store the moment it is solved
(:func:`~cardtable.solver.study_store.add_study_deal`), keyed by the rules that
decide winnability (:attr:`~cardtable.klondike.Variant.winnability_key`: the
draw, the passes, what fills an empty pile and foundation return; not the
preset's name nor the scoring),
the seed and the budget. Which deals a study solves (:func:`plan_study`):

- a deal decided (won, or proven unwinnable) under any budget is never
  solved again: the answer does not depend on the budget that found it;
- a deal left undecided is tried again only under a budget that allows more
  time or more states than each budget it was already tried with
  (:meth:`Budget.allows_more_than`), or when the study is told to try its
  undecided deals again (``retry_undecided``: a stronger search decides
  more deals under the same budget; its answer replaces the old one).

So running a study again solves nothing and reports at once; asking for more
deals solves only the new ones; and a study stopped at any moment keeps
every deal it finished and goes on from there when run again. This module
does no I/O of its own: everything goes through the store.

>>> import tempfile, pathlib
>>> from cardtable.klondike import Variant
>>> from cardtable.runs.store import ResultsStore
>>> store = ResultsStore(pathlib.Path(tempfile.mkdtemp()) / "results.sqlite")
>>> budget = Budget(max_states=50_000)
>>> report = run_winnability(store, Variant.preset("thoughtful1"), first_seed=2, deals=3, budget=budget)
>>> (report.won, report.unwinnable, report.undecided, report.solved_now)
(3, 0, 0, 3)
>>> run_winnability(store, Variant.preset("thoughtful1"), first_seed=2, deals=4, budget=budget).solved_now
1
>>> store.close()
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

from cardtable.klondike.position import Position
from cardtable.klondike.variant import GAME, Variant
from cardtable.runs.executor import Executor
from cardtable.runs.store import ResultsStore
from cardtable.solver.search import SolverError, default_max_states
from cardtable.solver.study_store import (
    STUDY_SEED_LIMIT,
    StudyDeal,
    StudyInfo,
    add_study_deal,
    record_study,
    studies,
    study_deals,
)
from cardtable.stats import wilson

__all__ = [
    "DEFAULT_FIRST_SEED",
    "KIND",
    "MAX_STUDY_DEALS",
    "Budget",
    "SolveDeals",
    "StudyPlan",
    "WinnabilityReport",
    "plan_study",
    "run_study",
    "run_winnability",
    "stored_winnability",
    "study_report",
    "winnability_report",
]

#: The kind of study this module keeps (:attr:`StudyInfo.kind <cardtable.solver.study_store.StudyInfo.kind>`).
KIND = "winnability"

#: The first deal of a study unless told: deal number 1.
DEFAULT_FIRST_SEED = 1

#: The most deals one study holds: its plan and its batch are lists of its
#: deals, so a bigger range would exhaust memory before the first deal (a
#: million deals take days of CPU; a bigger range is several studies, by
#: ``first_seed``).
MAX_STUDY_DEALS = 1_000_000

#: The variant options that decide whether a deal can be won.


@dataclass(frozen=True)
class Budget:
    """What each search may spend: ``timeout`` seconds (None: no time limit)
    and ``max_states`` states (unless told, the solver's own default:
    :func:`~cardtable.solver.search.default_max_states`).

    A budget that cannot bound a search raises
    :class:`~cardtable.solver.SolverError` when built.

    >>> Budget(30.0).describe()
    '30 s and 40,000,000 states a deal'
    >>> Budget(60.0).allows_more_than(Budget(30.0)), Budget(30.0, 10).allows_more_than(Budget(60.0, 10))
    (True, False)
    """

    timeout: float | None = None
    max_states: int = None  # type: ignore[assignment]  # set in __post_init__ when not given

    def __post_init__(self) -> None:
        if self.max_states is None:
            object.__setattr__(self, "max_states", default_max_states(self.timeout))
        if isinstance(self.max_states, bool) or not isinstance(self.max_states, int) or self.max_states < 1:
            raise SolverError(f"the state budget must be a whole number of at least 1, not {self.max_states!r}")
        if self.timeout is not None and (isinstance(self.timeout, bool) or not isinstance(self.timeout, int | float)
                                         or not 0 < self.timeout < math.inf):
            raise SolverError(f"the time limit must be a positive, finite number of seconds, not {self.timeout!r}")

    def allows_more_than(self, other: Budget) -> bool:
        """Whether a search under this budget could go further than one under
        ``other``: more time (no limit is more than any), or more states."""
        more_time = other.timeout is not None and (self.timeout is None or self.timeout > other.timeout)
        return more_time or self.max_states > other.max_states

    def describe(self) -> str:
        """A few words: the time limit and the state budget."""
        time_limit = "no time limit" if self.timeout is None else f"{self.timeout:g} s"
        return f"{time_limit} and {self.max_states:,} states a deal"

    def to_dict(self) -> dict[str, object]:
        """The JSON form: ``timeout`` (null: none) and ``max_states``."""
        return {"timeout": self.timeout, "max_states": self.max_states}


def _budget_of(deal: StudyDeal) -> Budget:
    return Budget(deal.timeout, deal.max_states)


@dataclass(frozen=True)
class StudyPlan:
    """Which deals of a study are answered by the store and which to solve:
    ``answers`` maps each answered seed to the row that answers it (a
    decided one when there is one), ``todo`` lists the seeds to solve, in
    order."""

    answers: dict[int, StudyDeal]
    todo: list[int]


def plan_study(stored: Iterable[StudyDeal], seeds: range, budget: Budget, *,
               retry_undecided: bool = False) -> StudyPlan:
    """Split ``seeds`` into the deals ``stored`` rows already answer under
    ``budget`` and those to solve (see the module's rules). With
    ``retry_undecided``, a deal no stored row decides is solved again
    whatever budgets it was tried with (a search made stronger since may
    decide it).

    >>> rules = Variant.preset("draw1").winnability_key
    >>> rows = [StudyDeal(rules, 1, None, 1000, "unknown", 1000, 0.1, "state budget of 1000 states reached"),
    ...         StudyDeal(rules, 2, None, 1000, "won", 40, 0.01)]
    >>> plan = plan_study(rows, range(1, 4), Budget(max_states=1000))
    >>> sorted(plan.answers), plan.todo
    ([1, 2], [3])
    >>> plan_study(rows, range(1, 4), Budget(max_states=5000)).todo
    [1, 3]
    >>> plan_study(rows, range(1, 4), Budget(max_states=1000), retry_undecided=True).todo
    [1, 3]
    """
    by_seed: dict[int, list[StudyDeal]] = {}
    for row in stored:
        if row.seed in seeds:
            by_seed.setdefault(row.seed, []).append(row)
    answers: dict[int, StudyDeal] = {}
    todo: list[int] = []
    for seed in seeds:
        rows = by_seed.get(seed, [])
        decided = [row for row in rows if row.decided]
        covering = [row for row in rows if not budget.allows_more_than(_budget_of(row))]
        exact = [row for row in covering if _budget_of(row) == budget]
        if decided:
            answers[seed] = decided[0]
        elif covering and not retry_undecided:
            answers[seed] = (exact or covering)[-1]  # this budget's own try, else the latest one no weaker
        else:
            todo.append(seed)
    return StudyPlan(answers, todo)


def _p90(values: list[float]) -> float:
    """The 90th percentile by nearest rank: the smallest value at least 90%
    of the values do not exceed."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


@dataclass(frozen=True)
class WinnabilityReport:
    """What a winnability study found.

    ``label`` names the variant (:attr:`~cardtable.klondike.Variant.label`)
    and ``rules`` are the options that decide winnability; the study covers
    ``deals`` deals from ``first_seed`` under ``budget``. Of the deals
    answered, ``won`` were won, ``unwinnable`` proven unwinnable and
    ``undecided`` left open, ``reasons`` counting the undecided by what ran
    out; ``pending`` deals have no answer yet (a study that was stopped).
    The seconds are those of each answered deal's search; ``solved_now``
    counts the deals solved by this run (the others came from the store)
    and ``wall_seconds`` is how long it took (None when nothing was run).
    ``game`` is the game studied (Klondike unless told; a patience game's
    ``rules`` are then its name and rules key).
    """

    label: str
    rules: dict[str, object]
    first_seed: int
    deals: int
    budget: Budget
    won: int
    unwinnable: int
    undecided: int
    pending: int
    reasons: dict[str, int] = field(default_factory=dict)
    mean_seconds: float | None = None
    median_seconds: float | None = None
    p90_seconds: float | None = None
    solved_now: int = 0
    wall_seconds: float | None = None
    game: str = GAME

    @property
    def decided(self) -> int:
        """Deals won or proven unwinnable."""
        return self.won + self.unwinnable

    @property
    def answered(self) -> int:
        """Deals with an answer (decided or not)."""
        return self.decided + self.undecided

    @property
    def winnable_share(self) -> float | None:
        """The share of the decided deals that were won (None when none was decided)."""
        return self.won / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson interval of :attr:`winnable_share` (None when no deal was decided)."""
        return wilson(self.won, self.decided) if self.decided else None

    @property
    def bounds(self) -> tuple[float, float] | None:
        """The winnable share of every answered deal were every undecided
        one lost, and were every one won (None before any answer)."""
        if not self.answered:
            return None
        return self.won / self.answered, (self.won + self.undecided) / self.answered

    @property
    def last_seed(self) -> int:
        """The study's last deal number."""
        return self.first_seed + self.deals - 1

    def to_dict(self) -> dict[str, object]:
        """The JSON form: every figure by name (shares as fractions)."""
        interval, bounds = self.interval, self.bounds
        return {
            "study": KIND, "variant": self.label, "rules": dict(self.rules), "first_seed": self.first_seed,
            "last_seed": self.last_seed, "deals": self.deals, "budget": self.budget.to_dict(),
            "decided": self.decided, "won": self.won, "unwinnable": self.unwinnable, "undecided": self.undecided,
            "undecided_reasons": dict(self.reasons), "pending": self.pending,
            "winnable_share": self.winnable_share,
            "winnable_low": interval[0] if interval else None, "winnable_high": interval[1] if interval else None,
            "all_deals_low": bounds[0] if bounds else None, "all_deals_high": bounds[1] if bounds else None,
            "mean_seconds": self.mean_seconds, "median_seconds": self.median_seconds,
            "p90_seconds": self.p90_seconds, "solved_now": self.solved_now,
            "from_store": self.answered - self.solved_now, "wall_seconds": self.wall_seconds,
        }

    def text(self) -> str:
        """A few lines for people."""
        lines = [f"{self.label}: deals {self.first_seed} to {self.last_seed}, {self.budget.describe()}",
                 f"{self.deals:,} deals: {self.decided:,} decided ({self.won:,} won, {self.unwinnable:,} unwinnable),"
                 f" {self.undecided:,} undecided" + (f", {self.pending:,} not solved yet" if self.pending else "")]
        for reason, count in sorted(self.reasons.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"  undecided: {count:,} ({reason})")
        interval, bounds = self.interval, self.bounds
        if self.winnable_share is not None and interval is not None:
            lines.append(f"winnable: {100 * self.winnable_share:.2f}% of decided deals "
                         f"(95% interval {100 * interval[0]:.2f}%..{100 * interval[1]:.2f}%)")
        if bounds is not None and self.undecided:
            lines.append(f"of all {self.answered:,} deals answered: {100 * bounds[0]:.2f}% if every undecided deal "
                         f"is lost, {100 * bounds[1]:.2f}% if every one is won")
        if self.mean_seconds is not None and self.median_seconds is not None and self.p90_seconds is not None:
            lines.append(f"seconds per deal: mean {self.mean_seconds:.4f}, median {self.median_seconds:.4f}, "
                         f"p90 {self.p90_seconds:.4f}")
        wall = f"; wall time {self.wall_seconds:.2f} s" if self.wall_seconds is not None else ""
        lines.append(f"{self.solved_now:,} solved now, {self.answered - self.solved_now:,} from the store{wall}")
        return "\n".join(lines)


def _report(label: str, rules: str, first_seed: int, deals: int, budget: Budget, plan: StudyPlan,
            solved_now: int, wall_seconds: float | None, game: str = GAME) -> WinnabilityReport:
    answers = [plan.answers[seed] for seed in sorted(plan.answers)]
    times = [row.seconds for row in answers]
    reasons = Counter(row.reason or "no reason kept" for row in answers if not row.decided)
    return WinnabilityReport(
        label=label, rules=json.loads(rules) if game == GAME else {"game": game, "rules": rules}, game=game,
        first_seed=first_seed, deals=deals, budget=budget,
        won=sum(row.result == "won" for row in answers), unwinnable=sum(row.result == "unwinnable" for row in answers),
        undecided=sum(not row.decided for row in answers), pending=len(plan.todo), reasons=dict(reasons),
        mean_seconds=statistics.fmean(times) if times else None,
        median_seconds=statistics.median(times) if times else None,
        p90_seconds=_p90(times) if times else None, solved_now=solved_now, wall_seconds=wall_seconds)


def _seeds(first_seed: int, deals: int) -> range:
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise SolverError(f"a study needs at least 1 deal, not {deals!r}")
    if deals > MAX_STUDY_DEALS:
        raise SolverError(f"a study holds at most {MAX_STUDY_DEALS:,} deals, not {deals:,}; study a bigger range "
                          "as several studies, each from its own first deal (--seed)")
    if isinstance(first_seed, bool) or not isinstance(first_seed, int) or first_seed < 0:
        raise SolverError(f"deal numbers start at 0, not {first_seed!r}")
    if first_seed + deals - 1 > STUDY_SEED_LIMIT:
        raise SolverError(f"a study's deals must end by deal {STUDY_SEED_LIMIT} (2**63 - 1), "
                          f"not {first_seed + deals - 1}")
    return range(first_seed, first_seed + deals)


def winnability_report(store: ResultsStore, variant: Variant, *, first_seed: int, deals: int, budget: Budget,
                       solved_now: int = 0, wall_seconds: float | None = None) -> WinnabilityReport:
    """The study's figures from the store alone, solving nothing (deals not
    answered yet are ``pending``)."""
    return study_report(store, variant.label, variant.winnability_key, first_seed=first_seed, deals=deals,
                        budget=budget, solved_now=solved_now, wall_seconds=wall_seconds)


def run_winnability(store: ResultsStore, variant: Variant, *, first_seed: int = DEFAULT_FIRST_SEED, deals: int,
                    budget: Budget, executor: Executor | None = None, workers: int | None = 1,
                    on_start: Callable[[StudyPlan], None] | None = None,
                    on_deal: Callable[[StudyDeal], None] | None = None,
                    clock: Callable[[], float] = time.perf_counter, retry_undecided: bool = False) -> WinnabilityReport:
    """Run the winnability study of ``variant`` over ``deals`` deals from
    ``first_seed`` under ``budget``: list it in ``store``, solve the deals
    the store does not answer (:func:`plan_study`) on ``executor`` (default:
    ``workers`` local processes), keep each in the store as it finishes, and
    report. ``on_start`` is given the plan before any solving, ``on_deal``
    each deal once it is stored. ``retry_undecided`` solves again the deals
    the store holds as undecided under budgets no larger (see
    :func:`plan_study`). A KeyboardInterrupt reaches the caller once
    every deal that finished is stored (:func:`winnability_report` then
    gives the figures so far). A bad range or budget raises
    :class:`~cardtable.solver.SolverError` before anything is stored.
    """
    from cardtable.solver.batch import solve_batch  # the batch layer imports the search's compiled core

    def solve_todo(todo: list[int], keep: Callable[[int, Mapping[str, object]], None]) -> None:
        solve_batch([(str(seed), Position.from_seed(seed)) for seed in todo], variant, timeout=budget.timeout,
                    max_states=budget.max_states, workers=workers, executor=executor, on_solved=keep)

    return run_study(store, variant.label, variant.winnability_key, solve_todo, first_seed=first_seed, deals=deals,
                     budget=budget, on_start=on_start, on_deal=on_deal, clock=clock, retry_undecided=retry_undecided)


#: How a study's deals are solved (:func:`run_study`): given the seeds to
#: solve, call ``keep(index, row)`` with each one's index in that list and its
#: solver row (``result``, ``states``, ``seconds``, ``reason``, ``moves``) as
#: soon as it is solved, in any order.
SolveDeals = Callable[[list[int], Callable[[int, Mapping[str, object]], None]], None]


def run_study(store: ResultsStore, label: str, rules: str, solve_deals: SolveDeals, *, first_seed: int, deals: int,
              budget: Budget, game: str = GAME, on_start: Callable[[StudyPlan], None] | None = None,
              on_deal: Callable[[StudyDeal], None] | None = None,
              clock: Callable[[], float] = time.perf_counter, retry_undecided: bool = False) -> WinnabilityReport:
    """The winnability study of any game, as :func:`run_winnability` for
    Klondike: ``game`` and ``rules`` are the study's key in the store (the
    game's name and the identity of its rules: Klondike's winnability key,
    a patience description's :attr:`~cardtable.patience.Description.rules_key`),
    ``label`` its name for people, and ``solve_deals`` solves the deals the
    store does not answer (see :data:`SolveDeals`; with ``retry_undecided``
    also those it holds as undecided, see :func:`plan_study`). Each deal is
    stored as it is solved."""
    began = clock()
    seeds = _seeds(first_seed, deals)
    record_study(store, kind=KIND, rules=rules, label=label, first_seed=first_seed, deals=deals,
                 timeout=budget.timeout, max_states=budget.max_states, game=game)
    plan = plan_study(study_deals(store, rules, seeds.start, seeds.stop - 1, game=game), seeds, budget,
                      retry_undecided=retry_undecided)
    if on_start is not None:
        on_start(plan)
    answers = dict(plan.answers)
    todo = plan.todo

    def keep(index: int, row: Mapping[str, object]) -> None:
        moves = row.get("moves")
        line = tuple(str(move) for move in moves) if isinstance(moves, list) else ()
        deal = StudyDeal(rules, todo[index], budget.timeout, budget.max_states, str(row["result"]),
                         int(cast(int, row["states"])), float(cast(float, row["seconds"])),
                         str(row.get("reason") or ""), line, game=game)
        add_study_deal(store, deal)
        answers[deal.seed] = deal
        if on_deal is not None:
            on_deal(deal)

    if todo:
        solve_deals(todo, keep)
    done = StudyPlan(answers, [])
    return _report(label, rules, first_seed, deals, budget, done, len(answers) - len(plan.answers), clock() - began,
                   game)


def study_report(store: ResultsStore, label: str, rules: str, *, first_seed: int, deals: int, budget: Budget,
                 game: str = GAME, solved_now: int = 0, wall_seconds: float | None = None) -> WinnabilityReport:
    """Any game's study figures from the store alone, as :func:`winnability_report`
    (``game``, ``rules`` and ``label`` as :func:`run_study` takes them)."""
    seeds = _seeds(first_seed, deals)
    plan = plan_study(study_deals(store, rules, seeds.start, seeds.stop - 1, game=game), seeds, budget)
    return _report(label, rules, first_seed, deals, budget, plan, solved_now, wall_seconds, game)


def stored_winnability(store: ResultsStore, rules: str | None = None, *,
                       game: str | None = None) -> list[tuple[StudyInfo, WinnabilityReport]]:
    """Every winnability study listed in ``store`` (of ``game`` and under
    ``rules``, when given), oldest first, each with its figures from the
    stored deals."""
    found = []
    for info in studies(store, KIND, rules, game=game):
        seeds = _seeds(info.first_seed, info.deals)
        budget = Budget(info.timeout, info.max_states)
        plan = plan_study(study_deals(store, info.rules, seeds.start, seeds.stop - 1, game=info.game), seeds, budget)
        found.append((info, _report(info.label, info.rules, info.first_seed, info.deals, budget, plan, 0, None,
                                    info.game)))
    return found
