"""The ``cardtable`` command line: a thin face over the library.

One module per command group: :mod:`.klondike` (``variants``, ``deal``,
``show``, ``replay``), :mod:`.simulate` (``simulate``, ``runs``, ``compare``,
``strategies``), :mod:`.solve` (``solve``, ``hint``) and :mod:`.kings_corner`
(the ``kings-corner`` group, with the human seat in :mod:`.kings_corner_seat`),
:mod:`.play` (``play``, the Textual app of :mod:`cardtable.app`),
:mod:`.stats` (``stats``, the statistics of games played), :mod:`.review`
(``review``, a played game weighed move by move) and :mod:`.study`
(the ``study`` group: ``winnability`` studies over many deals, kept in the
results store).
What they share lives in :mod:`._options` (argument types, the variant
options, colour, progress bars) and, with the app, in :mod:`cardtable._files`
(reading files, atomic writes). No group imports another.

Each group adds its sub-commands with ``register(subparsers)``; every
sub-command sets ``func``, a callable that takes the parsed arguments and
returns the exit status. Building the parser imports no solver, simulator,
numpy or matplotlib, nor the games, formats and players: the commands that
need them import them. A command line that starts with a command's name
(``cardtable solve --seed 1``) is parsed by a parser that registers only that
command's group (:data:`_GROUPS`): the command's own parser is built exactly
as in :func:`build_parser`, and the other groups are neither imported nor
built, so a command starts without paying for the others.

:func:`main` reports what goes wrong in one line on stderr:

- a bad option: ``cardtable CMD: error: MESSAGE (see 'cardtable CMD --help')``,
  exit status 2, without argparse's usage block;
- a :class:`~cardtable.errors.CardtableError` (bad input of any kind):
  ``cardtable: error: MESSAGE``, exit status 2;
- an :class:`OSError` about a path the user gave: the same, naming the path;
- standard output with no room left (``> /dev/full``, a full disk, a
  file-size limit, a spent quota): ``cardtable: error: standard output: no
  room left on the device``, exit status 2 (every file cardtable writes names
  itself in its errors, so an unnamed one of these is standard output);
- Ctrl-C (SIGINT): exit status 130; SIGTERM: exit status 143; SIGHUP (the
  terminal went away): exit status 129. For the length of a command, SIGTERM
  and SIGHUP raise :class:`Terminated` (a KeyboardInterrupt) in the main
  thread, so they unwind exactly as Ctrl-C does: temporary files go,
  finished work is kept, a stored run is marked interrupted. The one line on
  stderr says ``interrupted`` (Ctrl-C) or ``interrupted by SIGTERM`` (or
  ``SIGHUP``; a command that kept some work says how much, using
  :func:`interruption`). The previous handlers are restored afterwards.
  A signal is acted on at once even while standard output is blocked: a
  full pipe that nobody reads is then pointed at /dev/null, so the
  command's last words never wait on it. A second signal, while the
  command says its last words after the first, ends it at once too (as a
  second Ctrl-C does). Nor is one lost where Python drops
  exceptions (a finalizer, a garbage collector's callback, where the
  handler may happen to run): the interrupt dropped there is sent again, to
  be raised where it can unwind the command;
- a worker process that died twice on the same unit
  (:class:`~cardtable.runs.executor.WorkerLost`): the run stops as for an
  interrupt, and the line says so; exit status 1;
- a closed output pipe: exit status 0; when it stops a stored run before
  its end (``simulate --output -``), the run is kept as interrupted, the
  line says so with the resume command, and the status is 141 (128 + SIGPIPE);
- memory running out (``MemoryError``, ``ENOMEM``, a compiled library
  that cannot be loaded under a low ``ulimit -v``): one line saying so,
  exit status 1;
- anything else is a bug: ``cardtable: internal error: TYPE: MESSAGE`` and
  a request to report it, exit status 70 (with ``CARDTABLE_DEBUG=1`` in the
  environment the traceback is printed too).
"""

from __future__ import annotations

import argparse
import errno
import os
import select
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

from cardtable.errors import CardtableError
from cardtable.runs.executor import WorkerLost

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["EXIT_FAILED", "EXIT_HANGUP", "EXIT_INTERNAL_ERROR", "EXIT_INTERRUPTED", "EXIT_PIPE_CLOSED",
           "EXIT_TERMINATED", "EXIT_USAGE", "Terminated", "build_parser", "drop_stdout", "interruption", "main",
           "signals_deferred"]

#: Exit status when the work failed and stopped cleanly (a worker that kept dying).
EXIT_FAILED = 1

#: Exit status for bad input (as argparse uses for bad options).
EXIT_USAGE = 2
#: Exit status when interrupted (128 + SIGINT).
EXIT_INTERRUPTED = 130
#: Exit status when terminated (128 + SIGTERM).
EXIT_TERMINATED = 143
#: Exit status when the terminal hung up (128 + SIGHUP).
EXIT_HANGUP = 129
#: Exit status when the reader of the output went away before the work was done (128 + SIGPIPE).
EXIT_PIPE_CLOSED = 141
#: Exit status for a bug (``EX_SOFTWARE`` of sysexits.h).
EXIT_INTERNAL_ERROR = 70


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr,
    ``cardtable CMD: error: MESSAGE (see 'cardtable CMD --help')``, exit
    status 2, without argparse's usage block before it.

    When built with ``allow_abbrev=False`` it also refuses a long option it
    does not know in one line naming it (with the options it may have
    meant), instead of reading it as a value: so ``serve --po 8766`` says
    ``--po`` is no option, rather than that ``8766`` is no game."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:  # as argparse does, but a write that fails (no room for --help) is said, not ignored
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        if not self.allow_abbrev and args is not None:
            for token in args:
                if token == "--":
                    break
                name = token.split("=", 1)[0]
                if name.startswith("--") and len(name) > 2 and name not in self._option_string_actions:
                    meant = sorted(option for option in self._option_string_actions if option.startswith(name))
                    hint = f"; did you mean {' or '.join(meant)}?" if meant else ""
                    self.exit(EXIT_USAGE, f"{self.prog}: error: unknown option {name[:40]} "
                                          f"(options are not abbreviated{hint})\n")
        return super().parse_known_args(args, namespace)


#: The command groups, in the order the parser lists them, with the
#: sub-commands each registers (a test holds these equal to what
#: :func:`build_parser` registers).
_GROUPS: dict[str, tuple[str, ...]] = {
    "klondike": ("variants", "deal", "show", "replay"),
    "simulate": ("simulate", "runs", "compare", "strategies"),
    "solve": ("solve", "hint"),
    "kings_corner": ("kings-corner",),
    "play": ("play", "serve"),
    "stats": ("stats",),
    "study": ("study",),
    "review": ("review",),
    "games": ("games",),
}


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered.

    >>> build_parser().parse_args(["deal", "--seed", "3"]).seed
    3
    """
    return _build(tuple(_GROUPS))


def _build(groups: Sequence[str]) -> argparse.ArgumentParser:
    """The argument parser with the sub-commands of ``groups`` registered."""
    import importlib

    from cardtable import __version__

    parser = _Parser(
        prog="cardtable",
        description="Play, study and solve solitaire-family card games.",
    )
    parser.add_argument("--version", action="version", version=f"cardtable {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in groups:
        importlib.import_module(f"{__name__}.{group}").register(subparsers)
    return parser


def _parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of a command line: when it starts with a command's name,
    one with only that command's group registered (what the top-level
    parser says about such a line cannot differ: it only hands the rest to
    the command, and its usage line names no command); else the full one.

    >>> _parser_for(["solve", "--seed", "1"]).parse_args(["solve", "--seed", "1"]).seed
    1
    """
    if argv:
        for group, commands in _GROUPS.items():
            if argv[0] in commands:
                return _build((group,))
    return build_parser()


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: raised in the main thread while a command
    runs, so every ``except KeyboardInterrupt`` and ``finally`` runs as for
    Ctrl-C."""


#: The signals a command unwinds from as from Ctrl-C, with their exit status.
_TERMINATING = {"SIGTERM": EXIT_TERMINATED, "SIGHUP": EXIT_HANGUP}

#: The name of the terminating signal that arrived during the command running now.
_terminated: str | None = None


def interruption() -> tuple[str, int]:
    """How the command running now was interrupted, as the start of its
    message and its exit status: ``("interrupted by SIGTERM", 143)`` after
    SIGTERM, ``("interrupted by SIGHUP", 129)`` after SIGHUP, else (Ctrl-C)
    ``("interrupted", 130)``.

    >>> interruption()
    ('interrupted', 130)
    """
    if _terminated is not None:
        return f"interrupted by {_terminated}", _TERMINATING[_terminated]
    return "interrupted", EXIT_INTERRUPTED


#: How deep the main thread is in :func:`signals_deferred` blocks, and the first signal that arrived there.
_deferring = 0
_deferred: int | None = None


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Keep a Ctrl-C, SIGTERM or SIGHUP that arrives in the block (through
    the handlers :func:`main` installs) until the block ends, then act on it."""
    global _deferring, _deferred
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1
        signum, _deferred = (_deferred, None) if _deferring == 0 else (None, _deferred)
        if signum is not None:
            (_on_interrupt if signum == signal.SIGINT else _on_terminate)(signum, None)


def _on_terminate(signum: int, frame: FrameType | None) -> None:
    global _terminated, _deferred, _waking
    if _waking:  # the last words' watch, waking the main thread out of a write it pointed at /dev/null
        _waking = False
        return
    _drop_blocked_stdout()
    _watch_last_words(signum)
    if _deferring:
        _deferred = _deferred or signum
        return
    if _terminated is None:
        _terminated = signal.Signals(signum).name
    # A second signal ends the command at once too: it was told once, and may have carried on
    # with its last words (a long report into a pipe nobody reads); the blocks that must not be
    # cut (signals_deferred) still finish first.
    _raise(Terminated(), signum)


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    global _deferred
    _drop_blocked_stdout()
    if _deferring:
        _deferred = _deferred or signum
        return
    _raise(KeyboardInterrupt(), signum)


#: The interrupt the handlers above raised last, and its signal (see :func:`_dropped`).
_raised: tuple[KeyboardInterrupt, int] | None = None
#: Counts the commands :func:`main` has finished, so that a signal sent again reaches only the one it was for.
_command = 0


def _raise(error: KeyboardInterrupt, signum: int) -> None:
    global _raised
    _raised = (error, signum)
    raise error


def _dropped(previous: Any, unraisable: Any) -> None:
    """``sys.unraisablehook`` while a command runs. Python runs a signal's
    handler wherever the main thread is, and an exception raised in a
    finalizer or a garbage collector's callback is printed and dropped: the
    interrupt would be lost, and (its signal taken as acted on) every later
    SIGTERM with it. The interrupt the handlers raised last, dropped so, is
    sent again a moment later, from another thread, to be raised where the
    main thread is then (and sent again should that be such a place too);
    anything else goes to the hook that was there."""
    global _raised, _terminated
    if _raised is None or unraisable.exc_value is not _raised[0]:
        previous(unraisable)
        return
    signum = _raised[1]
    _raised = None
    if isinstance(unraisable.exc_value, Terminated):
        _terminated = None  # it never unwound anything
    threading.Thread(target=_send_again, args=(signum, _command), name="cardtable-signal-again",
                     daemon=True).start()


def _send_again(signum: int, command: int) -> None:
    time.sleep(0.005)  # out of the finalizer or collection that dropped it, most likely
    if command == _command:  # that command still runs
        signal.raise_signal(signum)


#: The watch of :func:`_watch_last_words` is on; the signal it sends only wakes the main thread.
_watching = False
_waking = False
#: Seconds standard output may stay full, after a signal that ends the command, before it is dropped.
LAST_WORDS_WAIT = 0.5


def _watch_last_words(signum: int) -> None:
    """After SIGTERM or SIGHUP, while the command says its last words: should
    standard output (a pipe or socket) fill up and stay full for
    :data:`LAST_WORDS_WAIT` seconds (its reader stopped reading after the
    signal came), point it at /dev/null and wake the main thread out of its
    write, so that the last words never wait on it (:func:`_drop_blocked_stdout`
    covers a pipe already full when the signal comes)."""
    global _watching
    if _watching or not hasattr(signal, "pthread_kill"):
        return
    try:
        fd = sys.stdout.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError, AttributeError):
        return
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return
    _watching = True
    main, command = threading.main_thread().ident, _command

    def watch() -> None:
        global _watching, _waking
        full_since: float | None = None
        try:
            while _command == command:
                try:
                    _, writable, _ = select.select([], [fd], [], 0)
                except (OSError, ValueError):
                    return
                if writable:
                    full_since = None
                elif full_since is None:
                    full_since = time.monotonic()
                elif time.monotonic() - full_since >= LAST_WORDS_WAIT:
                    _silence_stdout()
                    _waking = True
                    if main is not None:
                        signal.pthread_kill(main, signum)
                    return
                time.sleep(0.05)
        finally:
            _watching = False

    threading.Thread(target=watch, name="cardtable-last-words", daemon=True).start()


def _drop_blocked_stdout() -> None:
    """When standard output is a pipe or socket that is full (nobody reads
    it), point it at /dev/null, so that an interrupted command's last words
    to it never wait: a signal is acted on at once even while output is
    blocked. What it had still to say there is dropped; stderr says how the
    command ended."""
    try:
        fd = sys.stdout.fileno()
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return
        _, writable, _ = select.select([], [fd], [], 0)
    except (OSError, ValueError, AttributeError):
        return
    if not writable:
        _silence_stdout()


#: The address space numpy needs to load: below about 160 MiB its OpenBLAS
#: gives up and ends the process with a message of its own.
NUMPY_ADDRESS_SPACE = 192 * 2**20


class _AddressSpaceGuard:
    """An import finder that refuses numpy, as memory running out, under an
    address-space limit (``ulimit -v``, a container's) too low for it, so the
    command says so in its own line rather than OpenBLAS ending it."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "numpy" and _address_space() < NUMPY_ADDRESS_SPACE:
            raise MemoryError("too little address space to load numpy")
        return None


def _address_space() -> float:
    """The process's address-space limit in bytes (infinity: none)."""
    try:
        import resource
    except ImportError:  # no such limits here
        return float("inf")
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    return float("inf") if soft == resource.RLIM_INFINITY else float(soft)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``);
    returns the exit status. Bad options exit through argparse
    (:class:`SystemExit`, status 2)."""
    guard = None
    if "numpy" not in sys.modules and _address_space() < NUMPY_ADDRESS_SPACE:
        guard = _AddressSpaceGuard()
        sys.meta_path.insert(0, guard)
    try:
        return _main(argv)
    finally:
        if guard is not None:
            sys.meta_path.remove(guard)


def _main(argv: Sequence[str] | None) -> int:
    global _terminated, _command, _raised
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous: dict[signal.Signals, Any] = {}
    previous_hook = sys.unraisablehook
    _terminated = None
    if in_main_thread:
        sys.unraisablehook = partial(_dropped, previous_hook)
        for name in _TERMINATING:
            if hasattr(signal, name):  # Windows has no SIGHUP
                previous[signal.Signals[name]] = signal.signal(signal.Signals[name], _on_terminate)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when Ctrl-C is ignored
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, _on_interrupt)
    try:
        status = _run(argv)
        if status == EXIT_INTERRUPTED and _terminated is not None:
            status = _TERMINATING[_terminated]
        return status
    except KeyboardInterrupt:  # SIGTERM while reporting an error
        return interruption()[1]
    finally:
        if in_main_thread:
            _command += 1  # a signal still to be sent again was for this command, which is over
            sys.unraisablehook = previous_hook
            _raised = None
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        _terminated = None
        global _deferred
        _deferred = None


def _run(argv: Sequence[str] | None) -> int:
    try:
        given = list(sys.argv[1:] if argv is None else argv)
        parser = _parser_for(given)
        try:
            args = parser.parse_args(given)
        except SystemExit as done:
            if not done.code:  # --help or --version, said on standard output
                sys.stdout.flush()
            raise
        args.argv = given  # as given (``serve`` passes some on)
        if getattr(args, "store", None) == "":  # else taken as no --store: the default store, silently
            raise CardtableError("--store: give the path of a results store, not an empty one")
        func = getattr(args, "func", None)
        if func is None:  # no command: one line naming them, on stderr as an error
            commands = ", ".join(name for names in _GROUPS.values() for name in names)
            print(f"cardtable: error: choose a command: {commands} (see 'cardtable --help', and "
                  "'cardtable COMMAND --help' for one's options)", file=sys.stderr)
            return EXIT_USAGE
        status = int(func(args) or 0)
        sys.stdout.flush()  # here, so that no room for it is said as below, not at exit as a traceback
        return status
    except WorkerLost as error:  # a command that did not say what it kept
        print(f"cardtable: {error}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        what, status = interruption()
        print(f"cardtable: {what}", file=sys.stderr)
        return status
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except CardtableError as error:
        print(f"cardtable: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        if error.filename is None and error.errno in _NO_ROOM:  # the one unnamed output: standard output
            _silence_stdout()
            print(f"cardtable: error: standard output: {_NO_ROOM[error.errno]} ({error.strerror})", file=sys.stderr)
            return EXIT_USAGE
        if error.filename is None:
            return _out_of_memory_error() if _out_of_memory(error) else _internal_error(error)
        reason = error.strerror or str(error)
        print(f"cardtable: error: {error.filename}: {reason[:1].lower()}{reason[1:]}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:
        return _out_of_memory_error() if _out_of_memory(error) else _internal_error(error)


#: Errors of a write that found no room, in words. Every file cardtable writes
#: names itself in its errors; one that does not is standard output.
_NO_ROOM = {errno.ENOSPC: "no room left on the device", errno.EFBIG: "the file-size limit is reached",
            errno.EDQUOT: "the disk quota is spent"}


def _out_of_memory_error() -> int:
    print("cardtable: error: not enough memory for this command (a memory limit, ulimit -v or a "
          "container's, is too low); give it more memory, or less work", file=sys.stderr)
    return EXIT_FAILED


def _out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` is memory running out: Python's own, the system's
    (``ENOMEM``), or a compiled library that could not be loaded for want of
    address space (numpy's under ``ulimit -v``: the loader "failed to map
    segment from shared object")."""
    if isinstance(error, MemoryError):
        return True
    if isinstance(error, OSError) and error.errno == errno.ENOMEM:
        return True
    text = str(error)
    return isinstance(error, (OSError, ImportError)) and (
        "failed to map segment from shared object" in text or "cannot allocate memory" in text.lower())


def _internal_error(error: BaseException) -> int:
    """Report a bug: what it was, and how to see and report it."""
    if os.environ.get("CARDTABLE_DEBUG") == "1":
        import traceback

        traceback.print_exception(error, file=sys.stderr)
    print(f"cardtable: internal error: {type(error).__name__}: {error}", file=sys.stderr)
    hint = "" if os.environ.get("CARDTABLE_DEBUG") == "1" else " (set CARDTABLE_DEBUG=1 to see the traceback)"
    print(f"cardtable: this is a bug in cardtable, not a problem with your input; please report it "
          f"with the command you ran{hint}", file=sys.stderr)
    return EXIT_INTERNAL_ERROR


def drop_stdout() -> None:
    """Point standard output at /dev/null: its reader went away (a closed
    pipe) or does not read, and nothing more is to be said there."""
    _silence_stdout()


def _silence_stdout() -> None:
    """After the reader of our output went away, point stdout at /dev/null so
    that flushing it at exit raises no second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing will be flushed to a pipe
