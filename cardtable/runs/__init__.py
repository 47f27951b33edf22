"""The runs floor: where many units of work are run and kept, for any game.

- :mod:`cardtable.runs.executor`: the :class:`Executor` interface and
  :class:`LocalExecutor` (local processes) that every batch job runs on;
- :mod:`cardtable.runs.cluster`: the same on a Dask cluster;
- :mod:`cardtable.runs.store`: the results store's core (the SQLite file,
  its versions, the runs and their units, as plain rows);
- :mod:`cardtable.runs.stored`: :class:`~cardtable.runs.stored.StoredRun`, a run's life in the
  store from its start (or resumption) to its end or interruption.

Nothing here knows a game: the units, their results and their rows are the
callers'.
"""

from cardtable.runs.executor import Executor, LocalExecutor

__all__ = ["Executor", "LocalExecutor"]
