"""The runs floor: where many units of work are run and kept, for any game.

- :mod:`cardtable.runs.executor`: the :class:`Executor` interface and
  :class:`LocalExecutor` (local processes) that every batch job runs on;
- :mod:`cardtable.runs.cluster`: the same on a Dask cluster.

Nothing here knows a game: the units, their results and their rows are the
callers'.
"""

from cardtable.runs.executor import Executor, LocalExecutor

__all__ = ["Executor", "LocalExecutor"]
