"""Many games at once.

- :mod:`cardtable.sim.runner`: Klondike runs (:func:`~cardtable.sim.runner.run_games`);
- :mod:`cardtable.sim.match`: Kings Corner matches between bots
  (:func:`~cardtable.sim.match.run_hands`);
- :mod:`cardtable.sim.fast`: the compiled ``priority`` kernel;
- :mod:`cardtable.sim.stats`, :mod:`cardtable.sim.compare`: summaries with
  95% intervals, strategies side by side;
- :mod:`cardtable.sim.played`: a person's games and hands and their statistics, in the
  results store (:mod:`cardtable.runs.store`); :mod:`cardtable.sim.plot`: pictures.

Every game is played through :func:`cardtable.game.play_out` (unless the
compiled kernel plays it), and runs are carried out on :mod:`cardtable.runs`
(local processes or a Dask cluster). Nothing is imported here, so that importing one part loads no other.
"""

