"""A run's life in the results store: started or taken up again, its units
added as they finish, and finished, or marked interrupted however it ends.

:meth:`StoredRun.start` records a new run, :meth:`StoredRun.resume` takes
up a stopped one (checking it, and handing its options to the caller). A
``with`` block around the work is the one interrupt epilogue: when the
block ends in an exception (Ctrl-C, SIGTERM, a lost cluster, anything) before
:meth:`StoredRun.finish`, the run is marked ``interrupted`` and keeps every
unit it stored, and the store is closed. :meth:`StoredRun.resume_hint` says
how to finish it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with StoredRun.start(path, table="hands", kind="kings-corner", game="kings-corner", rules="{}",
...                      strategy="greedy,random",
...                      variant={"name": "kings-corner"}, seed=0, deals_file=None, units=3,
...                      params={"games": 3}) as run:
...     run.add([(0, "[0, 1]", 1, "[4, 0]", 12)])
...     raise TimeoutError("the cluster went away")
Traceback (most recent call last):
TimeoutError: the cluster went away
>>> run.resume_hint("kings-corner match", None)
"finish it with 'cardtable kings-corner match --resume 1'"
>>> with StoredRun.resume(path, 1, table="hands", kind="kings-corner", fit=lambda params: None) as run:
...     run.units(), run.params
...     run.finish({"games": 3})
([(0, '[0, 1]', 1, '[4, 0]', 12)], {'games': 3})
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.errors import StoreError
from cardtable.runs.store import ResultsStore

__all__ = ["StoredRun"]


class StoredRun:
    """One run in an open results store, from its start to its end.

    ``id`` is the run's id, ``params`` the options it was started with, and
    ``table`` the table of its units (one of
    :data:`~cardtable.runs.store.UNIT_TABLES`). Build one with
    :meth:`start` or :meth:`resume`; used as a context manager it marks the
    run interrupted when the block ends in an exception before
    :meth:`finish`, and closes the store.
    """

    def __init__(self, store: ResultsStore, run_id: int, params: dict[str, Any], table: str) -> None:
        self.store = store
        self.id = run_id
        self.params = params
        self.table = table
        #: Set when a forced resume took up a run that might still be running: what to tell the user.
        self.warning: str | None = None
        self._ended = False

    @classmethod
    def start(cls, path: str | os.PathLike[str], *, table: str, kind: str, game: str, rules: str, strategy: str,
              variant: dict[str, object], seed: int | None, deals_file: str | None, units: int,
              params: dict[str, Any]) -> StoredRun:
        """Record a new run of ``units`` units of ``game`` under ``rules`` in
        the store at ``path`` (made when missing); ``params`` (plain JSON
        values) are the options that finish it later."""
        store = ResultsStore(path)
        try:
            run_id = store.start_run(kind=kind, game=game, rules=rules, strategy=strategy, variant=variant,
                                     seed=seed, deals_file=deals_file, games=units, params=params)
        except BaseException:
            store.close()
            raise
        return cls(store, run_id, params, table)

    @classmethod
    def resume(cls, path: str | os.PathLike[str], run_id: int, *, table: str, kind: str,
               fit: Callable[[dict[str, Any]], None], force: bool = False) -> StoredRun:
        """Take up stored run ``run_id`` of ``kind`` in the store at
        ``path``: mark it running here and hand its options to ``fit``, which
        raises when the run cannot be finished (a changed deals file, say).
        A :class:`~cardtable.errors.StoreError` says why when there is no
        store or no such run, the run is of another kind, or still running.
        With ``force`` a run whose liveness cannot be decided (stored before
        runs held locks, by a process on another host) is taken up, and
        :attr:`warning` says so. When anything fails, the run keeps the
        status it had and the store is closed."""
        if not os.path.isfile(path):
            raise StoreError(f"{path}: no results store there")
        store = ResultsStore(path)
        params: dict[str, Any] | None = None
        warning = None
        try:
            before = store.run(run_id)
            if before.status == "running" and store.liveness(run_id) == "unknown" and force:
                warning = (f"run {run_id} was marked running by a process that cannot be checked from here; "
                           "taken over with --force (if that process still runs, both now write to it)")
            _, params = store.resume_run(run_id, kind, force=force)
            fit(params)
        except BaseException:
            if params is not None:  # taken up, then found unfit: leave it as it was
                store.finish_run(run_id, before.status, before.summary or {})
            store.close()
            raise
        run = cls(store, run_id, params, table)
        run.warning = warning
        return run

    def units(self) -> list[tuple[Any, ...]]:
        """The units stored so far, in index order, as plain rows."""
        return self.store.units(self.table, self.id)

    def add(self, rows: Sequence[Sequence[object]]) -> None:
        """Store finished units (their index first), in one transaction; a
        unit stored already is kept as it was."""
        self.store.add_units(self.table, self.id, rows)

    def finish(self, summary: dict[str, object], *, interrupted: bool = False) -> None:
        """End the run: ``finished`` (or ``interrupted``, keeping its units
        for a later :meth:`resume`), with its ``summary``."""
        self.store.finish_run(self.id, "interrupted" if interrupted else "finished", summary)
        self._ended = True

    def resume_hint(self, command: str, store: str | None) -> str:
        """How to finish the run: ``command`` is the ``cardtable`` command
        that ran it, ``store`` the ``--store`` it was given (None: the
        default store)."""
        where = f" --store {shlex.quote(store)}" if store else ""
        return f"finish it with 'cardtable {command} --resume {self.id}{where}'"

    def __enter__(self) -> StoredRun:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        try:
            if kind is not None and not self._ended:
                # The store may not take the mark (a full disk): the run's lock goes with the
                # store's closing, so it is judged interrupted all the same, and the first error is told.
                with contextlib.suppress(StoreError, OSError):
                    self.finish({}, interrupted=True)
        finally:
            self.store.close()
