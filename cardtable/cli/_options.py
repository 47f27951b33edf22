"""Options and helpers every command group shares: argparse types, stored
runs taken up and interrupted (through :class:`~cardtable.runs.stored.StoredRun`),
the Klondike variant options, colour, and progress bars on stderr.

Nothing here imports the solver, the simulator, numpy or matplotlib:
building the parser must stay cheap.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from cardtable._text import plural
from cardtable.errors import CardtableError, UsageError
from cardtable.klondike.variant import Variant, parse_passes

if TYPE_CHECKING:
    from pathlib import Path

    from cardtable.klondike.record import KlondikeRecord
    from cardtable.runs.stored import StoredRun

__all__ = [
    "MAX_DELAY",
    "MAX_GUESS_STATES",
    "MAX_RUN_ID",
    "MAX_SAMPLES",
    "MAX_STATES",
    "MAX_UNITS",
    "MAX_WORKERS",
    "add_cluster_argument",
    "add_force_argument",
    "add_render_arguments",
    "add_variant_arguments",
    "bot_delay",
    "check_force",
    "check_resume_options",
    "cluster_address",
    "cluster_options",
    "guess_states",
    "hinted",
    "interrupted",
    "max_states",
    "option_defaults",
    "pause",
    "progress_bar",
    "quiet_cluster_logs",
    "result_line",
    "resume_hint",
    "run_id",
    "run_limit",
    "samples",
    "seconds",
    "seed",
    "shown_run_id",
    "store_path",
    "take_up_run",
    "use_color",
    "variant_from_args",
    "whole_number",
    "worker_count",
]


# ----- argparse types ------------------------------------------------------------------------------


#: The most digits a whole-number argument may have (leading zeros aside).
_MOST_DIGITS = 40


def whole_number(minimum: int = 0, what: str = "a whole number", maximum: int | None = None,
                 ) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum`` (and at most
    ``maximum``, when given); errors say what was expected.

    >>> whole_number(1, "--games")("12")
    12
    """

    # With a maximum, every refusal says the whole range.
    span = "" if maximum is None else f" (from {minimum} to {maximum})"

    def parse(text: str) -> int:
        text = text.strip(" \t")  # spaces around a number are fine; control characters are not
        digits = text[1:] if text[:1] in ("+", "-") else text
        if not digits.isascii() or not digits.isdigit():
            expected = "expected a whole number" if what == "a whole number" else f"{what} must be a whole number"
            raise argparse.ArgumentTypeError(f"{expected}{span}, not {text[:50]!r}")
        if len(digits.lstrip("0")) > _MOST_DIGITS:  # a whole number, too long to be meant (or to convert quickly)
            bound = (f"at least {minimum}" if text[:1] == "-" else
                     f"at most {maximum}" if maximum is not None else f"at most {_MOST_DIGITS} digits long")
            raise argparse.ArgumentTypeError(f"{what} is out of range: it must be {bound}{span}, "
                                             f"not a {len(digits.lstrip('0'))}-digit number")
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}{span}, not {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{what} must be at most {maximum}{span}, not {value}")
        return value

    parse.__name__ = what.replace(" ", "_")
    return parse


#: A deal or match seed: a whole number from 0 to 2**64 - 1 (the shuffle's
#: generator takes 64 bits, and the compiled paths hold seeds as 64-bit words).
seed = whole_number(0, "seed", 2**64 - 1)

#: The most local processes a command starts: four per CPU.
MAX_WORKERS = 4 * (os.cpu_count() or 1)

#: ``--workers``: 1 to :data:`MAX_WORKERS` processes.
worker_count = whole_number(1, "--workers", MAX_WORKERS)


def _seconds(text: str, *, zero: bool) -> float:
    """A finite number of seconds, above 0 (or 0 too, when ``zero``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    lowest_ok = value >= 0 if zero else value > 0
    if not lowest_ok or not value < math.inf:
        wanted = "a finite number of seconds, 0 or more" if zero else "a positive number of seconds"
        raise argparse.ArgumentTypeError(f"must be {wanted}, not {text!r}")
    return value


def pause(text: str) -> float:
    """An argparse type: a finite number of seconds, 0 or more (a delay).

    >>> pause("0.25")
    0.25
    """
    return _seconds(text, zero=True)


#: The longest pause between a bot's actions (``--delay``): a minute. Longer is
#: no pace to play at, and a pause of 1e300 seconds is none the clock can wait.
MAX_DELAY = 60.0


def bot_delay(text: str) -> float:
    """An argparse type: seconds between a bot's actions, 0 to :data:`MAX_DELAY`.

    >>> bot_delay("0.6")
    0.6
    """
    value = _seconds(text, zero=True)
    if value > MAX_DELAY:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_DELAY:g} seconds (from 0 to {MAX_DELAY:g}), "
                                         f"not {text!r}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds.

    >>> seconds("2.5")
    2.5
    """
    return _seconds(text, zero=False)


#: Seconds a deal may take in a search unless told, when no state budget is given.
DEFAULT_TIMEOUT = 60.0


def solve_timeout(args: argparse.Namespace) -> float | None:
    """``--timeout`` of a command that searches (``solve``, ``study``); unless
    given, :data:`DEFAULT_TIMEOUT`, or none under ``--max-states`` (the state
    budget alone decides, so the answers do not depend on speed)."""
    if args.timeout is not None:
        return float(args.timeout)
    return None if args.max_states is not None else DEFAULT_TIMEOUT


class SolveAnswer(Protocol):
    """What a search answers, for its one line (Klondike's and the patience
    games' results alike)."""

    @property
    def result(self) -> str: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def states(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def moves(self) -> Collection[object]: ...


def result_line(result: SolveAnswer) -> str:
    """A search's answer in one line: ``won: 1,234 states, 0.012 s, 97 moves``,
    ``unwinnable: ...``, or ``unknown (timeout): ...``."""
    extra = f" ({result.reason})" if result.reason else ""
    moves = f", {plural(len(result.moves), 'move')}" if result.result == "won" else ""
    return f"{result.result}{extra}: {plural(result.states, 'state')}, {result.seconds:.3f} s{moves}"


#: The solver's largest state budget, :data:`cardtable.solver.search.MAX_STATES`
#: (not imported: this module stays light; a test holds the two equal).
MAX_STATES = 10**11

#: ``--max-states``: a solver's state budget, 1 to :data:`MAX_STATES`.
max_states = whole_number(1, "--max-states", MAX_STATES)

#: The most guessed deals the expert weighs a position with,
#: :data:`cardtable.bots.klondike.expert.MAX_SAMPLES` (a test holds the two equal).
MAX_SAMPLES = 10_000

#: ``--samples``: the expert's guessed deals a position, 1 to :data:`MAX_SAMPLES` (``hint``, ``review``).
samples = whole_number(1, "--samples", MAX_SAMPLES)

#: The expert's largest state budget a guess,
#: :data:`cardtable.bots.klondike.expert.MAX_EXPERT_STATES` (a test holds the two equal).
MAX_GUESS_STATES = MAX_STATES // 4

#: ``--max-states`` of the expert's guesses, 1 to :data:`MAX_GUESS_STATES` (``review``).
guess_states = whole_number(1, "--max-states", MAX_GUESS_STATES)

#: The largest run id: the results store keeps ids as SQLite's 64-bit signed integers.
MAX_RUN_ID = 2**63 - 1

#: ``--resume``: a run id of the results store, 1 to :data:`MAX_RUN_ID`.
run_id = whole_number(1, "--resume", MAX_RUN_ID)

#: ``runs show ID``: a run id, 1 to :data:`MAX_RUN_ID`.
shown_run_id = whole_number(1, "run id", MAX_RUN_ID)

#: ``runs --limit``: how many runs to list, 1 to :data:`MAX_RUN_ID`.
run_limit = whole_number(1, "--limit", MAX_RUN_ID)

#: The most units (games, hands) a run may have: the store keeps a unit's index as a 64-bit signed integer.
MAX_UNITS = 2**63 - 1


# ----- clusters and resumed runs -------------------------------------------------------------------


def cluster_address(text: str) -> str:
    """An argparse type: ``local`` or a Dask scheduler address
    (``tcp://HOST:PORT``, ``HOST:PORT``). Dask itself is not imported.

    >>> cluster_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    """
    from cardtable.runs.cluster import ClusterError, check_address

    try:
        return check_address(text)
    except ClusterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS``: run the work on a Dask cluster; and
    ``--cluster-timeout SECONDS``: how long to wait while it has no worker."""
    parser.add_argument("--cluster", type=cluster_address, default=None, metavar="ADDRESS",
                        help="run on a Dask cluster: a scheduler (tcp://HOST:8786), or 'local' to start one here "
                             "with --workers processes (needs: pip install \"cardtable[cluster]\"; every worker "
                             "needs cardtable installed)")
    parser.add_argument("--cluster-timeout", type=seconds, default=_IDLE_TIMEOUT, metavar="SECONDS",
                        help=f"with --cluster: stop (keeping the work finished) once the cluster has had no worker "
                             f"for this long (default {_IDLE_TIMEOUT:g})")


#: ``--cluster-timeout``'s default (:data:`cardtable.runs.cluster.IDLE_TIMEOUT`, not imported to keep Dask's
#: module out of the parser).
_IDLE_TIMEOUT = 60.0


def cluster_options(args: argparse.Namespace) -> dict[str, Any]:
    """What :func:`~cardtable.runs.cluster.open_executor` is given besides the
    address and the workers: ``--cluster-timeout``, and a line on stderr once
    the cluster has had no worker for a few seconds (and once one is back)."""
    limit = float(getattr(args, "cluster_timeout", _IDLE_TIMEOUT))

    def say(waited: float) -> None:
        if waited > 0:
            print(f"cardtable: no Dask worker for {waited:.0f} s; waiting up to {limit:g} s "
                  "(--cluster-timeout) for one", file=sys.stderr)
        else:
            print("cardtable: a Dask worker is back; carrying on", file=sys.stderr)

    return {"idle_timeout": limit, "on_idle": say}


def quiet_cluster_logs() -> None:
    """Silence Dask's own log on stderr (once Dask is loaded): a lost
    scheduler or worker is reported by the command, in one line, not by
    Dask's tracebacks."""
    import logging

    for name in [*logging.Logger.manager.loggerDict, "distributed", "tornado"]:
        if name.split(".")[0] in ("distributed", "tornado", "dask"):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def option_defaults(parser: argparse.ArgumentParser) -> dict[str, tuple[str, object]]:
    """Each optional argument of ``parser`` by destination: its flag and its
    default (for :func:`check_resume_options`)."""
    return {action.dest: (action.option_strings[-1], action.default)
            for action in parser._actions if action.option_strings and action.dest != "help"}


def check_resume_options(args: argparse.Namespace, defaults: dict[str, tuple[str, object]],
                         allowed: Collection[str]) -> None:
    """With ``--resume``, the run's own options apply: a
    :class:`~cardtable.errors.UsageError` names any other option given
    (one whose value is not its default), and lists those that may be."""
    given = [flag for dest, (flag, default) in defaults.items()
             if dest not in allowed and getattr(args, dest, default) != default]
    if given:
        may = ", ".join(defaults[dest][0] for dest in defaults if dest in allowed and dest != "resume")
        raise UsageError(f"--resume carries on with the run's own options; {', '.join(given)} cannot be given "
                         f"with it (these can: {may})")


def store_path(args: argparse.Namespace) -> str | Path:
    """The results store of ``--store``, else the default one."""
    from cardtable.runs.store import default_store_path

    return args.store or default_store_path()


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """``--force``: with ``--resume``, take up a run whose process cannot be checked."""
    parser.add_argument("--force", action="store_true",
                        help="with --resume: take up a run marked running whose process cannot be checked from "
                             "here (another host or container, or a run stored by an older cardtable); a run "
                             "whose process still holds its lock is never taken")


def check_force(args: argparse.Namespace) -> None:
    """``--force`` means something only with ``--resume``."""
    if getattr(args, "force", False) and getattr(args, "resume", None) is None:
        raise UsageError("--force only goes with --resume RUN: it takes up a run that may still be running")


def take_up_run(args: argparse.Namespace, kind: str, table: str, allowed: Collection[str],
                fit: Callable[[dict[str, Any]], None]) -> StoredRun:
    """Take up stored run ``args.resume`` of ``kind`` (``--resume``, with
    ``--force`` when given), its units in ``table``: check that only
    ``allowed`` options (and ``--force``) were given with it, then
    :meth:`StoredRun.resume <cardtable.runs.stored.StoredRun.resume>` it,
    ``fit`` putting its options back into ``args`` (and raising a
    :class:`UsageError` when the run cannot be finished, a changed deals
    file say). A forced take-over is warned about on stderr."""
    check_resume_options(args, args.option_defaults, {*allowed, "force"})  # --no-store among the refused
    from cardtable.runs.stored import StoredRun

    run = StoredRun.resume(store_path(args), args.resume, table=table, kind=kind, fit=fit,
                           force=bool(getattr(args, "force", False)))
    if run.warning:
        print(f"cardtable: warning: {run.warning}", file=sys.stderr)
    return run


def resume_hint(run: StoredRun | None, command: str, args: argparse.Namespace) -> str:
    """What an interrupted run's message ends with: how to finish it with
    ``cardtable command`` (nothing when the run is not stored)."""
    return f"; {run.resume_hint(command, args.store)}" if run is not None else ""


@contextmanager
def hinted(hint: str) -> Iterator[None]:
    """A :class:`~cardtable.errors.CardtableError` in the block (a lost
    cluster), or an :class:`OSError` naming a file (an output on a full
    disk), ends with ``hint``: what finished is stored."""
    try:
        yield
    except CardtableError as error:
        if not hint:
            raise
        raise type(error)(f"{error}{hint}") from None
    except OSError as error:
        if not hint or error.filename is None:
            raise
        raise type(error)(error.errno, f"{error.strerror or error}{hint}", error.filename) from None


def interrupted(kept: str, hint: str, executor: object = None) -> int:
    """Say on stderr that the command was interrupted and what it ``kept``
    (and the ``hint``); returns the exit status (130, 143 for SIGTERM, 129
    for SIGHUP). When the work stopped because a worker process of
    ``executor`` kept dying, the line says so instead, and the status is 1."""
    from cardtable.cli import EXIT_FAILED, interruption

    lost = getattr(executor, "lost", None)
    if lost is not None:
        print(f"cardtable: {lost}; {kept}{hint}", file=sys.stderr)
        return EXIT_FAILED
    what, status = interruption()
    print(f"cardtable: {what}: {kept}{hint}", file=sys.stderr)
    return status


# ----- the Klondike variant ------------------------------------------------------------------------


def add_variant_arguments(parser: argparse.ArgumentParser, default: str | None = "draw1") -> None:
    """``--variant NAME`` and the flags that override it. With ``default``
    None the command picks the preset itself (e.g. the strategy's own)."""
    group = parser.add_argument_group("variant (a preset, then flags that override it)")
    shown = default if default is not None else "the strategy's own"
    group.add_argument("--variant", default=default, metavar="NAME",
                       help=f"a preset, by its name or its player's name (default {shown}); see "
                            "'cardtable variants'")
    group.add_argument("--draw", type=int, choices=(1, 3), help="cards drawn at a time")
    group.add_argument("--passes", metavar="N|unlimited",
                       help="passes through the stock (1 = no redeal)")
    group.add_argument("--empty", choices=("king", "any"), help="what fills an empty pile")
    group.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=None,
                       help="may foundation cards come back to the tableau")
    group.add_argument("--scoring", choices=("none", "standard", "vegas"), help="scoring")


#: The rule flags of :func:`add_variant_arguments`, as (dest, flag).
_RULE_FLAGS = (("draw", "--draw"), ("passes", "--passes"), ("empty", "--empty"),
               ("foundation_return", "--foundation-return"), ("scoring", "--scoring"))


def refuse_rule_flags(args: argparse.Namespace, record: KlondikeRecord | None, source: str,
                      default: str | None = "draw1") -> None:
    """A game record plays under its own rules: rule options given with one
    (``--variant`` other than its ``default``, or any rule flag) are refused
    in one line rather than silently ignored. Nothing happens without a record.
    """
    if record is None:
        return
    given = [flag.replace("--", "--no-") if getattr(args, dest) is False else flag
             for dest, flag in _RULE_FLAGS if getattr(args, dest, None) is not None]
    if getattr(args, "variant", default) not in (default, None):
        given.insert(0, "--variant")
    if given:
        raise UsageError(f"{given[0]}: {source} is a game record, played under its own rules "
                         f"({record.variant.describe()}); leave out the rule options, or give a deal or position")


def variant_from_args(args: argparse.Namespace) -> Variant:
    """The variant the options of :func:`add_variant_arguments` name; a bad
    preset name or value raises :class:`~cardtable.klondike.VariantError`.

    >>> parser = argparse.ArgumentParser()
    >>> add_variant_arguments(parser)
    >>> variant_from_args(parser.parse_args(["--draw", "3"])).draw
    3
    """
    variant = Variant.preset(args.variant)
    changes: dict[str, object] = {}
    if args.draw is not None:
        changes["draw"] = args.draw
    if args.passes is not None:
        changes["passes"] = parse_passes(args.passes)
    if args.empty is not None:
        changes["empty"] = args.empty
    if args.foundation_return is not None:
        changes["foundation_return"] = args.foundation_return
    if args.scoring is not None:
        changes["scoring"] = args.scoring
    return variant.replace(**changes) if changes else variant


# ----- colour --------------------------------------------------------------------------------------


def add_render_arguments(parser: argparse.ArgumentParser) -> None:
    """``--ascii`` and ``--color``, for commands that draw a layout."""
    parser.add_argument("--ascii", action="store_true", help="plain ASCII: suits as c d h s, no colour")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="red and black on a terminal (default auto)")


def use_color(args: argparse.Namespace) -> bool:
    """Colour when asked, or on a terminal unless NO_COLOR is set."""
    if getattr(args, "ascii", False):
        return False
    mode = getattr(args, "color", "auto")
    if mode == "always":
        return True
    if mode == "never":
        return False
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


# ----- progress ------------------------------------------------------------------------------------


@contextmanager
def progress_bar(total: int, label: str, *, enabled: bool = True, rate_unit: str | None = None,
                 transient: bool = True) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr for the ``with`` block: the label, the
    bar, done of ``total``, the rate (``rate_unit``/s, when given) and the
    time left. Yields ``advance(n)``, to call as work finishes; when not
    ``enabled``, or when standard error is not a terminal, it draws nothing.
    A ``transient`` bar is wiped at the end.

    >>> with progress_bar(10, "games", enabled=False) as advance:
    ...     advance(10)
    """
    if not enabled or not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn

    columns: list[str | ProgressColumn] = [TextColumn(label, markup=False), BarColumn(), MofNCompleteColumn()]
    if rate_unit is not None:
        from rich.progress import Task
        from rich.text import Text

        class _Rate(ProgressColumn):
            def render(self, task: Task) -> Text:
                speed = task.finished_speed or task.speed
                return Text(f"{speed:,.0f} {rate_unit}/s" if speed else "", style="cyan")

        columns.append(_Rate())
    columns.append(TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=transient) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.advance(task, done)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP until the block is done (they arrive
    after it), so that a unit of work is counted, stored and written whole or
    not at all.

    The handlers :func:`cardtable.cli.main` installs keep a signal that
    arrives in the block for its end (another thread may take the signal, and
    Python then runs the handler in the main thread whatever its mask); the
    mask holds them where those handlers are not installed."""
    from cardtable.cli import signals_deferred

    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        with signals_deferred():
            yield
        return
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        with signals_deferred():
            yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
