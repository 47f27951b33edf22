"""Solver commands: ``solve`` (one deal or a batch) and ``hint``.

The solver (its compiled core), the file formats and the file helpers are
imported inside the commands, so building the parser does not load them and
``solve --seed N`` loads only the solver's path.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from cardtable.cli._options import (
    MAX_SAMPLES,
    add_cluster_argument,
    add_force_argument,
    add_variant_arguments,
    check_force,
    cluster_options,
    hinted,
    interrupted,
    max_states,
    option_defaults,
    progress_bar,
    quiet_cluster_logs,
    refuse_rule_flags,
    result_line,
    resume_hint,
    run_id,
    samples,
    seconds,
    seed,
    signals_held,
    solve_timeout,
    store_path,
    take_up_run,
    variant_from_args,
    worker_count,
)
from cardtable.errors import UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cardtable.klondike.game import KlondikeGame
    from cardtable.patience import Description
    from cardtable.runs.executor import Executor
    from cardtable.runs.stored import StoredRun

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``solve`` and ``hint`` commands."""
    p = subparsers.add_parser(
        "solve", help="decide whether a deal can be won (with a winning line) or prove it cannot",
        description="Exact search over the full-information deal: won (with a solution checked "
        "move by move against the rules), unwinnable (exhaustive search) or unknown (a budget ran out).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", metavar="STRING", help="a deal string or position string")
    src.add_argument("--seed", type=_deal_number, help="deal number (with --game, also ms:N or pysol:N where the "
                     "game has those numbers)")
    src.add_argument("--file", metavar="F", help="a deal string, position, PySol board, Solvitaire JSON "
                     "or game record (solves from its last position) ('-' for stdin)")
    src.add_argument("--deals", metavar="FILE",
                     help="batch: one seed number, deal string or position string a line")
    src.add_argument("--resume", type=run_id, default=None, metavar="RUN",
                     help="batch: finish a stored batch that was stopped (only its unsolved deals, with its "
                          "own options)")
    add_force_argument(p)
    p.add_argument("--game", metavar="NAME|FILE.json",
                   help="a patience game: a name ('cardtable games' lists them), with options after colons "
                        "(golf:wrap), or a description file FILE.json, solved by the one patience search (a game "
                        "of Klondike's rules, whatever its name, by Klondike's core); without it, Klondike by its "
                        "own core")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="give up after this long (default 60, or none with --max-states: then the answers are "
                        "the same on any machine)")
    p.add_argument("--max-states", type=max_states, default=None, metavar="N",
                   help="give up after N states (this bounds memory too: at most about 45 bytes a state; the default, "
                        "40,000,000 under a time limit, stays under 2 GiB); "
                        "alone, it makes every answer reproducible")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--output", "-o", metavar="FILE", help="batch: write the JSON lines here (atomically)")
    p.add_argument("--workers", type=worker_count, default=None, metavar="N",
                   help=f"batch: processes to use (default 1), or the workers of --cluster local (default: all cores; "
                        f"this machine has {os.cpu_count()})")
    add_cluster_argument(p)
    p.add_argument("--store", metavar="PATH", help="batch: results store (default: the per-user data directory)")
    p.add_argument("--no-store", action="store_true", help="batch: do not keep this batch in the results store")
    p.add_argument("--no-progress", action="store_true", help="batch: no progress bar")
    add_variant_arguments(p, default="draw1")
    p.set_defaults(func=_cmd_solve, option_defaults=option_defaults(p))

    p = subparsers.add_parser(
        "hint", help="the expert's next move for a saved game or layout, from what the player sees",
        description="The expert's next move, from what the player sees: it guesses the hidden cards, "
                    "solves its guesses and says how many of them it wins from here. The same table "
                    "always gets the same hint. --peek asks the solver instead, with every card known.")
    p.add_argument("file", metavar="FILE",
                   help="a game record (Klondike's or any patience game's) or layout ('-' for stdin)")
    p.add_argument("--game", metavar="NAME|FILE.json", default=None,
                   help="a patience game, for a layout of it (a position string or PySol board); a patience "
                        "game's record names its game")
    p.add_argument("--peek", action="store_true",
                   help="peek: the solver's verdict with every card known (the next move of a winning line)")
    p.add_argument("--samples", type=samples, default=None, metavar="N",
                   help=f"the expert's guessed deals, 1 to {MAX_SAMPLES:,} (default 96; 8 in a patience game)")
    p.add_argument("--max-states", type=max_states, default=None, metavar="N",
                   help="state budget: of the search of each guess (default 50,000; 25,000 in a patience "
                        "game), or of the peek's search")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="time bound: the expert falls back to a quick greedy move when it runs out "
                        "(default none), the peek searches this long (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--ascii", action="store_true", help="name cards in ASCII (Qh) rather than with suit symbols")
    add_variant_arguments(p, default="draw1")
    p.set_defaults(func=_cmd_hint)


def _deal_number(text: str) -> int | str:
    """``--seed``: a whole number, or (for ``--game``) ``ms:N`` or ``pysol:N``;
    the patience module loads only for the latter."""
    if ":" in text:
        from cardtable.cli._patience import deal_number

        return deal_number(text)
    return seed(text)


#: What ``solve --resume`` may be given: how and where to run, not what to solve.
_RESUME_OPTIONS = ("resume", "cluster", "cluster_timeout", "workers", "store", "no_progress")


def _digest(deals: Sequence[tuple[str, object]]) -> str:
    import hashlib

    return hashlib.sha256("\n".join(f"{label}\t{position}" for label, position in deals).encode()).hexdigest()


def _game_argument(name: str) -> str:
    """``--game`` as a stored run keeps it: a registry name (with its
    options) as given, a description file by its absolute path."""
    return os.path.abspath(name) if name.lower().endswith(".json") else name


def _read_deals(path: str, description: Description | None) -> list[tuple[str, Any]]:
    """The deals of a batch file: Klondike's positions, or the games of a patience game's description."""
    from cardtable._files import read_deals_file

    if description is None:
        return list(read_deals_file(path))
    from cardtable.cli._patience_solve import read_game_lines

    return list(read_game_lines(path, description))


def _deals_text(deals: Sequence[tuple[str, Any]], description: Description | None) -> list[tuple[str, str]]:
    """Each deal's label and position as text, what the digest of a batch's deals reads."""
    if description is None:
        return [(label, str(position)) for label, position in deals]
    from cardtable.patience.position import write_position

    return [(label, write_position(game)) for label, game in deals]


def _resume_batch(args: argparse.Namespace) -> tuple[StoredRun, list[tuple[str, Any]], Description | None]:
    """Take up a stored batch: its options go back into ``args``; returns
    the run, its deals and, for a patience game's batch, its description."""

    from cardtable._files import check_outputs
    from cardtable.runs.store import store_files

    deals: list[tuple[str, Any]] = []
    description: Description | None = None

    def fit(params: dict[str, Any]) -> None:
        nonlocal deals, description
        args.deals, args.output = params["deals"], params["output"]
        args.timeout, args.max_states = params["timeout"], params["max_states"]
        check_outputs({"--output": args.output}, {"--deals": args.deals}, store=store_files(store_path(args)))
        if "game" in params:
            from cardtable.patience import load

            description = load(str(params["game"]))
        deals = _read_deals(str(args.deals), description)
        if _digest(_deals_text(deals, description)) != params["deals_digest"]:
            raise UsageError(f"{args.deals}: the deals file changed since run {args.resume} started; "
                             "it cannot be finished with other deals")

    stored: StoredRun = take_up_run(args, "solve", "solves", _RESUME_OPTIONS, fit)
    return stored, deals, description


def _start_batch(args: argparse.Namespace, variant: Variant | None, description: Description | None,
                 deals: Sequence[tuple[str, Any]], timeout: float | None) -> StoredRun:
    """Record a new batch, with the options that finish it."""
    from cardtable.runs.stored import StoredRun

    deals_file = os.path.abspath(args.deals) if args.deals != "-" else "-"
    params: dict[str, object] = {
        "deals": deals_file, "deals_digest": _digest(_deals_text(deals, description)),
        "timeout": timeout, "max_states": args.max_states,
        "output": os.path.abspath(args.output) if args.output not in (None, "-") else args.output}
    if description is not None:
        params["game"] = _game_argument(args.game)
        shown = description.name if params["game"] != args.game else args.game  # `runs` lists it as the variant
        game, rules, options = description.name, description.rules_key, {"name": shown, "game": params["game"]}
    else:
        assert variant is not None
        params["variant"] = options = variant.options()
        game, rules = variant.game_key
    return StoredRun.start(store_path(args), table="solves", kind="solve", game=game, rules=rules, strategy="solver",
                           variant=options, seed=None, deals_file=deals_file, units=len(deals), params=params)


def _cmd_batch(args: argparse.Namespace, variant: Variant | None, description: Description | None = None) -> int:
    """Solve every deal of the file (or finish a stored batch), Klondike's
    or, with ``description``, a patience game's. Every solved deal is
    stored as it arrives. Interrupted (Ctrl-C, SIGTERM), it keeps the rows
    solved so far (the output file is written with them, empty when none
    finished), says how many and how to finish, and returns 130 (143 for
    SIGTERM)."""
    import json

    from cardtable._files import atomic_write_text, check_outputs
    from cardtable.runs.cluster import open_executor
    from cardtable.runs.store import store_files
    from cardtable.solver import summarize_solves
    from cardtable.solver.batch import from_store_row

    stored: StoredRun | None = None
    if args.resume is not None:
        stored, deals, description = _resume_batch(args)
        if description is None:
            variant = Variant.from_options(dict(stored.params["variant"]))
        timeout = args.timeout
    else:
        # Before the work, not after it; the output is never the deals file or the store.
        check_outputs({"--output": args.output}, {"--deals": args.deals},
                      store=None if args.no_store else store_files(store_path(args)))
        deals = _read_deals(args.deals, description)
        timeout = solve_timeout(args)
    assert variant is not None or description is not None
    with ExitStack() as stack:
        if stored is not None:  # marked interrupted should anything below fail
            stack.enter_context(stored)
        executor = stack.enter_context(open_executor(args.cluster, args.workers or (None if args.cluster else 1),
                                                           **cluster_options(args)))
        if args.cluster is not None:
            quiet_cluster_logs()
        if stored is None and not args.no_store:
            stored = stack.enter_context(_start_batch(args, variant, description, deals, timeout))
        done = dict(from_store_row(row) for row in stored.units()) if args.resume is not None and stored else {}
        hint = resume_hint(stored, "solve", args)
        with hinted(hint):
            rows, stopped = _solve(args, deals, variant, description, timeout, executor, stored, done)
            ordered = [rows[index] for index in sorted(rows)]
            game = {} if description is None else {"game": description.name}  # as one deal's JSON says
            text = "".join(json.dumps({**row, **game}) + "\n" for row in ordered)
            try:
                if args.output:
                    atomic_write_text(args.output, text)  # a full disk: the run stays interrupted, every row stored
                else:
                    sys.stdout.write(text)  # a pipe nobody reads blocks here; a signal still ends the run
            except KeyboardInterrupt:
                stopped = True  # every row is stored: the resume writes them all
        summary = summarize_solves(ordered)
        if stored is not None:
            stored.finish(summary.to_dict(), interrupted=stopped)
        print(summary.text(), file=sys.stderr)
        if done:
            print(f"resumed run {stored.id if stored else None}: {len(done):,} deals were stored, "
                  f"{len(rows) - len(done):,} solved now", file=sys.stderr)
    if stopped:
        return interrupted(f"kept the {len(rows):,} of {len(deals):,} deals solved", hint, executor)
    return 0


def _solve(args: argparse.Namespace, deals: Sequence[tuple[str, Any]], variant: Variant | None,
           description: Description | None, timeout: float | None, executor: Executor, stored: StoredRun | None,
           done: dict[int, dict[str, object]]) -> tuple[dict[int, dict[str, object]], bool]:
    """Solve the deals ``done`` lacks (Klondike's under ``variant``, or a
    patience game's), storing each row as it arrives; every row by deal
    index, and whether Ctrl-C (or SIGTERM) stopped it."""
    from cardtable.solver import solve_batch
    from cardtable.solver.batch import store_row
    from cardtable.solver.patience_batch import solve_patience_batch

    rows = dict(done)
    label = "solving" + (f" (run {stored.id if stored else None}, {len(done):,} stored)" if done else "")
    with progress_bar(len(deals) - len(done), label, enabled=not args.no_progress, rate_unit="deals",
                      transient=False) as advance:

        def keep(index: int, row: dict[str, object]) -> None:
            with signals_held():  # a row is counted and stored whole, or not at all
                if stored is not None:
                    stored.add([store_row(index, row)])
                rows[index] = row
            advance(1)

        try:
            if description is not None:
                solve_patience_batch(deals, description, timeout=timeout, max_states=args.max_states,
                                     executor=executor, done=done, on_solved=keep)
            else:
                assert variant is not None
                solve_batch(deals, variant, timeout=timeout, max_states=args.max_states, executor=executor,
                            done=done, on_solved=keep)
        except KeyboardInterrupt:
            return rows, True
    return rows, False


def _cmd_solve(args: argparse.Namespace) -> int:
    check_force(args)
    if args.resume is not None:  # the run says its game
        return _cmd_batch(args, None)
    if args.game not in (None, "klondike"):
        # every other game, Klondike's rules under another name included: the patience engine's
        # deals, positions and moves; the search itself goes to Klondike's core where the rules are its own
        from cardtable.cli._patience_solve import refuse_options
        from cardtable.cli._patience_solve import solve as solve_patience
        from cardtable.patience import load

        description = load(args.game)
        if args.deals is not None:  # a batch, as Klondike's
            refuse_options(args, description)
            return _cmd_batch(args, None, description)
        return solve_patience(args, description)
    if isinstance(args.seed, str):
        from cardtable.cli._patience import klondike_seed

        klondike_seed(args.seed)
    variant = variant_from_args(args)
    if args.deals is not None:
        return _cmd_batch(args, variant)
    for flag, given in (("--cluster", args.cluster), ("--store", args.store), ("--no-store", args.no_store)):
        if given:
            raise UsageError(f"{flag} is for batches (--deals FILE): one deal is solved here")
    if args.seed is not None:
        position = Position.from_seed(args.seed)
    elif args.deal is not None:
        from cardtable.klondike.formats import read_layout

        position = read_layout(args.deal)
    else:
        from cardtable._files import read_text
        from cardtable.klondike.formats import load_start

        position, record = load_start(read_text(args.file))
        refuse_rule_flags(args, record, args.file)
        if record is not None:
            variant = record.variant
    from cardtable.solver import solve

    result = solve(position, variant, timeout=solve_timeout(args), max_states=args.max_states)
    if args.json:
        import json

        print(json.dumps({**result.to_dict(), "variant": variant.options()}))
    else:
        print(result_line(result))
        if result.moves:
            print(" ".join(str(m) for m in result.moves))
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    import json

    from cardtable._files import read_text
    from cardtable.cli._patience import is_patience_record
    from cardtable.klondike.formats import load_start
    from cardtable.klondike.game import KlondikeGame

    text = read_text(args.file)
    if args.game not in (None, "klondike") or is_patience_record(text):
        return _patience_hint(args, text)
    variant = variant_from_args(args)
    position, record = load_start(text)
    refuse_rule_flags(args, record, args.file)
    game = record.replay() if record is not None else KlondikeGame(position, variant)
    if args.peek:
        if args.samples is not None:
            raise UsageError("--samples: the peek does not guess; leave out --samples or --peek")
        return _peek_hint(game, args)
    from cardtable.bots.klondike.expert import MAX_EXPERT_STATES
    from cardtable.bots.klondike.hindsight import MAX_SAMPLE_STATES
    from cardtable.bots.klondike.hint import HINT_SAMPLES, HINT_STATES, expert_hint

    if args.max_states is not None and args.max_states > MAX_EXPERT_STATES:
        raise UsageError(f"--max-states {args.max_states:,}: the expert's budget is at most {MAX_EXPERT_STATES:,} "
                         f"states a guess (it searches a guess again with {MAX_SAMPLE_STATES // MAX_EXPERT_STATES} "
                         "times it); give less, or --peek")

    found = expert_hint(game, samples=args.samples or HINT_SAMPLES, max_states=args.max_states or HINT_STATES,
                        seconds=args.timeout, unicode=not args.ascii)
    if args.json:
        print(json.dumps({"hint": "expert", **found.to_dict()}))
    elif found.move is None:  # no legal move is left, or none makes progress
        print(f"{found.describe().capitalize()}.")
    else:
        print(f"{found.move}: {found.describe()}")
    return 0


def _patience_hint(args: argparse.Namespace, text: str) -> int:
    """``hint`` in a patience game: the expert's move from the player's view
    (:func:`~cardtable.bots.patience_hint.patience_hint`, the hint of the
    terminal app and the browser table), or with ``--peek`` the next move of
    a winning line of the real deal. The position is a record's last one, or
    a layout of ``--game``."""
    import json

    from cardtable.bots.patience_hint import HINT_SAMPLES, HINT_STATES, patience_hint
    from cardtable.cli._patience import _read_layout, _record, _refuse_klondike_options, is_patience_record
    from cardtable.patience import load

    description = None if args.game in (None, "klondike") else load(args.game)
    if is_patience_record(text):
        game = _record(text, description).replay()
    elif description is None:  # (a patience record names its game; a layout does not)
        raise UsageError("a layout of a patience game needs --game NAME")
    else:
        game = _read_layout(description, text)
    _refuse_klondike_options(args, game.description, variant_default="draw1")
    if args.peek and args.samples is not None:
        raise UsageError("--samples: the peek does not guess; leave out --samples or --peek")
    samples = 1 if args.peek else args.samples or HINT_SAMPLES
    budget = args.max_states or (HINT_SAMPLES * HINT_STATES if args.peek else HINT_STATES)
    found = patience_hint(game, samples=samples, max_states=budget, seconds=args.timeout, peek=args.peek)
    if args.json:
        print(json.dumps({"hint": "peek" if args.peek else "expert", "game": game.description.name,
                          **found.to_dict()}))
    elif found.move is None:
        print(f"{found.describe().capitalize()}.")
    else:
        print(f"{found.move}: {found.describe()}")
    return 0


def _peek_hint(game: KlondikeGame, args: argparse.Namespace) -> int:
    import json

    from cardtable.klondike.narrate import describe_move
    from cardtable.solver import hint

    found = hint(game, timeout=10.0 if args.timeout is None else args.timeout, max_states=args.max_states)
    words = "" if found.move is None else describe_move(game, found.move, unicode=not args.ascii)
    if args.json:
        print(json.dumps({"hint": "peek", "move": str(found.move) if found.move else None, "words": words,
                          "winning": found.winning, **found.search.to_dict()}))
    else:
        print(f"peek: the solver's verdict with every card known: {found.describe()}"
              + (f"; {words}" if words else ""))
    return 0
