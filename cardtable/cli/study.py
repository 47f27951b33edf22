"""``cardtable study``: studies over many numbered deals, kept in the results store.

``study winnability`` solves deals S to S+N-1 of a variant and reports the
share that can be won (:func:`cardtable.solver.study.run_winnability`);
``study show`` lists the stored studies with their figures, solving
nothing. The solver is imported inside the commands, so building the parser
does not load it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from typing import TYPE_CHECKING

from cardtable.cli._options import (
    DEFAULT_TIMEOUT,
    add_cluster_argument,
    add_variant_arguments,
    cluster_options,
    interrupted,
    max_states,
    progress_bar,
    quiet_cluster_logs,
    seconds,
    seed,
    solve_timeout,
    store_path,
    variant_from_args,
    whole_number,
    worker_count,
)
from cardtable.cli._patience import _refuse_klondike_options, patience_game
from cardtable.errors import StoreError, UsageError

if TYPE_CHECKING:
    from cardtable.solver.study import Budget

__all__ = ["register"]

_VARIANT_FLAGS = ("draw", "passes", "empty", "foundation_return", "scoring")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``study`` group: ``winnability`` and ``show``."""
    group = subparsers.add_parser(
        "study", help="studies over many numbered deals (what share can be won), kept and extended",
        description="Studies over many numbered deals, kept in the results store so that running one again, "
                    "or asking for more deals, solves only what is not known yet.")
    studies = group.add_subparsers(dest="study", metavar="STUDY")
    group.set_defaults(func=lambda args: _need_study(group))

    p = studies.add_parser(
        "winnability", help="solve deals S..S+N-1 and report the share that can be won",
        description="Solve deals S, S+1, ..., S+N-1 of a variant with the exact solver and report how many were "
                    "won, proven unwinnable and left undecided (and why), the winnable share of the decided deals "
                    "with its 95% Wilson interval, the share of all deals were every undecided one lost or won, "
                    "and the seconds a deal took. Every deal is kept in the results store as it is solved, keyed by "
                    "the variant's rules (not its name or scoring), the deal number and the budget: running the same "
                    "study again solves nothing; a larger --deals solves only the new deals; a deal decided under "
                    "any budget is never solved again; an undecided deal is tried again only when this budget "
                    "allows more than each earlier try of it: a larger --timeout (or none), or a larger "
                    "--max-states (e.g. --timeout 120 after --timeout 60), or when --retry-undecided asks for it "
                    "(a stronger search, after an upgrade, may decide them under the same budget). Stopped with "
                    "Ctrl-C or SIGTERM, a study keeps every deal it finished: run the same command to carry on.")
    p.add_argument("--deals", type=whole_number(1, "--deals"), required=True, metavar="N", help="how many deals")
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="the first deal number (default 1)")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help=f"give up on a deal after this long (default {DEFAULT_TIMEOUT:g}, or none with --max-states: "
                        "then the answers are the same on any machine)")
    p.add_argument("--max-states", type=max_states, default=None, metavar="N",
                   help="give up on a deal after N states (default: the solver's own, 40,000,000 under a time "
                        "limit, else 20,000,000)")
    p.add_argument("--workers", type=worker_count, default=None, metavar="K",
                   help=f"processes to use (default 1), or the workers of --cluster local (default: all cores; "
                        f"this machine has {os.cpu_count()})")
    add_cluster_argument(p)
    p.add_argument("--store", metavar="PATH", help="results store (default: the per-user data directory)")
    p.add_argument("--retry-undecided", action="store_true",
                   help="solve again the deals the store holds as undecided under this budget or a smaller one "
                        "(after the solver is improved: won and unwinnable answers never change, undecided ones "
                        "may); each new answer replaces the old")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_variant_arguments(p, default="thoughtful3")
    p.add_argument("--game", metavar="NAME|FILE.json",
                   help="a patience game instead of a Klondike variant: a name ('cardtable games' lists them), with "
                        "options after colons (golf:queens-on-kings), or a description file; its deals are "
                        "'--game NAME --seed N' for N = S..S+N-1, solved with every card known (default budget "
                        "60 s and 10,000,000 states a deal)")
    p.set_defaults(func=_cmd_winnability)

    p = studies.add_parser(
        "show", help="the stored studies with their figures (solves nothing)",
        description="Each winnability study kept in the results store, with its figures from the stored deals. "
                    "The store is opened read-only and never changed.")
    p.add_argument("--store", metavar="PATH", help="results store (default: the per-user data directory)")
    p.add_argument("--json", action="store_true", help="print a JSON list, one object a study")
    add_variant_arguments(p, default=None)
    p.add_argument("--game", metavar="NAME|FILE.json", help="only the studies of this patience game (with its options)")
    p.set_defaults(func=_cmd_show)


def _need_study(group: argparse.ArgumentParser) -> int:
    raise UsageError(f"choose a study: winnability or show (see '{group.prog} --help')")


def _store_path(args: argparse.Namespace) -> str:
    """The store's path; a folder or other non-file there is refused."""
    path = str(store_path(args))
    if os.path.isdir(path):
        raise StoreError(f"{path}: is a directory, not a results store")
    if os.path.exists(path) and not os.path.isfile(path):
        raise StoreError(f"{path}: not a regular file, so not a results store")
    return path


def _budget(args: argparse.Namespace, patience: bool = False) -> Budget:
    """``--timeout`` and ``--max-states``; unless given, 60 s, or no time
    limit under ``--max-states`` (as ``cardtable solve``). ``patience``: the
    patience search's state budget unless told."""
    from cardtable.solver.study import Budget

    timeout = solve_timeout(args)
    if patience:
        from cardtable.solver.patience_study import patience_budget

        return patience_budget(timeout, args.max_states)
    return Budget(timeout) if args.max_states is None else Budget(timeout, args.max_states)


def _cmd_winnability(args: argparse.Namespace) -> int:
    """Run a winnability study. Interrupted (Ctrl-C, SIGTERM), it reports the
    figures of the deals answered so far, says how many it kept and how to
    carry on, and returns 130 (143 for SIGTERM)."""
    from cardtable.runs.cluster import ClusterError, open_executor
    from cardtable.runs.store import ResultsStore
    from cardtable.solver.study import (
        DEFAULT_FIRST_SEED,
        MAX_STUDY_DEALS,
        StudyPlan,
        run_winnability,
        winnability_report,
    )
    from cardtable.solver.study_store import STUDY_SEED_LIMIT

    description = patience_game(args)
    if description is not None:
        _refuse_klondike_options(args, description, variant_default="thoughtful3")
        from cardtable.solver.patience_study import patience_winnability_report, run_patience_winnability
    variant = variant_from_args(args)  # an unknown preset is a VariantError
    if args.workers is not None and args.cluster not in (None, "local"):
        raise UsageError("--workers is for local processes or --cluster local; a scheduler has its own workers")
    first = DEFAULT_FIRST_SEED if args.seed is None else args.seed
    if args.deals > MAX_STUDY_DEALS:  # before the store is opened: nothing is written
        raise UsageError(f"--deals {args.deals:,}: a study holds at most {MAX_STUDY_DEALS:,} deals; study a bigger "
                         "range as several studies, each from its own --seed")
    if first + args.deals - 1 > STUDY_SEED_LIMIT:
        raise UsageError(f"--seed {first} --deals {args.deals}: a study's deals must end by deal {STUDY_SEED_LIMIT}")
    budget = _budget(args, patience=description is not None)
    path = _store_path(args)
    answered_before: int | None = None
    with ExitStack() as stack:
        store = stack.enter_context(ResultsStore(path))
        executor = stack.enter_context(open_executor(args.cluster, args.workers or (None if args.cluster else 1),
                                                           **cluster_options(args)))
        if args.cluster is not None:
            quiet_cluster_logs()
        advance = stack.enter_context(_Progress(args.deals, enabled=not args.no_progress))

        def started(plan: StudyPlan) -> None:
            nonlocal answered_before
            answered_before = len(plan.answers)
            advance.start(answered_before)

        try:
            if description is not None:
                report = run_patience_winnability(store, description, first_seed=first, deals=args.deals,
                                                  budget=budget, executor=executor, on_start=started,
                                                  on_deal=lambda deal: advance(1),
                                                  retry_undecided=args.retry_undecided)
            else:
                report = run_winnability(store, variant, first_seed=first, deals=args.deals, budget=budget,
                                         executor=executor, on_start=started, on_deal=lambda deal: advance(1),
                                         retry_undecided=args.retry_undecided)
        except ClusterError as error:  # a lost scheduler: what finished is stored
            raise ClusterError(f"{error}; the deals solved are kept: run the same command to carry on") from None
        except KeyboardInterrupt:
            advance.close()
            # Every deal that finished is stored: count them there.
            if description is not None:
                partial = patience_winnability_report(store, description, first_seed=first, deals=args.deals,
                                                      budget=budget)
            else:
                partial = winnability_report(store, variant, first_seed=first, deals=args.deals, budget=budget)
            solved_now = partial.answered - (partial.answered if answered_before is None else answered_before)
            partial = replace(partial, solved_now=solved_now)
            _print_report(partial.to_dict() if args.json else partial.text(), args.json)
            return interrupted(f"kept the {solved_now:,} deals solved now ({partial.answered:,} of {args.deals:,} "
                               "answered)", "; run the same command to carry on", executor)
    _print_report(report.to_dict() if args.json else report.text(), args.json)
    return 0


def _print_report(report: object, as_json: bool) -> None:
    print(json.dumps(report) if as_json else report)


class _Progress:
    """The progress bar of a study: ``start(answered)`` once the plan is
    known (the deals the store answers count as done), then ``advance(1)``
    for each deal solved."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self._total, self._enabled = total, enabled
        self._stack = ExitStack()
        self._advance: Callable[[int], None] | None = None

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Take the bar down (again is fine)."""
        self._stack.close()

    def start(self, answered: int) -> None:
        label = f"solving ({answered:,} from the store)" if answered else "solving"
        self._advance = self._stack.enter_context(progress_bar(self._total - answered, label, enabled=self._enabled,
                                                               rate_unit="deals", transient=False))

    def __call__(self, done: int) -> None:
        if self._advance is not None:
            self._advance(done)


def _cmd_show(args: argparse.Namespace) -> int:
    """List the stored winnability studies (of one variant's rules, when named)."""
    from cardtable.runs.store import ResultsStore
    from cardtable.solver.study import stored_winnability

    rules = game = None
    description = patience_game(args)
    if description is not None:
        from cardtable.solver.patience_study import study_key

        _refuse_klondike_options(args, description, variant_default=None)
        game, rules = study_key(description)
    elif args.variant is not None:
        from cardtable.klondike.variant import GAME

        game, rules = GAME, variant_from_args(args).winnability_key
    else:
        flags = [f"--{name.replace('_', '-')}" for name in _VARIANT_FLAGS if getattr(args, name) is not None]
        if flags:
            raise UsageError(f"{flags[0]} changes a variant: name it too, e.g. --variant thoughtful3 {flags[0]} ...")
    path = _store_path(args)
    found = []
    if os.path.isfile(path):
        with ResultsStore(path, create=False) as store:
            found = stored_winnability(store, rules, game=game)
    if args.json:
        print(json.dumps([{"id": info.id, "updated": info.updated, **report.to_dict()} for info, report in found]))
        return 0
    if not found:
        print("no studies stored" + (" for these rules" if rules is not None else ""), file=sys.stderr)
        return 0
    for number, (info, report) in enumerate(found):
        if number:
            print()
        print(f"study {info.id} (last run {info.updated})")
        print(report.text().rsplit("\n", 1)[0])  # not the last line: nothing was solved now
    return 0
