"""Many games at once.

- :mod:`cardtable.sim.executor`: the :class:`Executor` interface and
  :class:`LocalExecutor` (local processes) that every batch job runs on;
- :mod:`cardtable.sim.runner`: Klondike runs (:func:`~cardtable.sim.runner.run_games`);
- :mod:`cardtable.sim.fast`: the compiled ``priority`` kernel;
- :mod:`cardtable.sim.stats`, :mod:`cardtable.sim.compare`: summaries with
  95% intervals, strategies side by side;
- :mod:`cardtable.sim.store`: the results store; :mod:`cardtable.sim.plot`: pictures.

Only the executor is imported here, so that Kings Corner and the solver can
use it without loading the Klondike simulator.
"""

from cardtable.sim.executor import Executor, LocalExecutor

__all__ = ["Executor", "LocalExecutor"]
