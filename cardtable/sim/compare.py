"""Several strategies on the same deals, side by side, with paired differences.

Every strategy plays the same games (the same seeds or the same starting
positions), so each difference against the first strategy is taken game by
game, which removes the deals' own spread from it.

>>> rows = compare_strategies(["priority", "greedy"], Variant.preset("seed-002"), 30, workers=1)
>>> [row["strategy"] for row in rows], rows[0]["games"]
(['priority', 'greedy'], 30)
>>> "diff_win_rate" in rows[0], "diff_win_rate" in rows[1]
(False, True)

:func:`comparison_table` writes the rows for people. What a game is worth
follows the variant's scoring, as in ``cardtable simulate``'s summary: the
money (net dollars a game) under Vegas scoring, the points under standard
scoring, and neither when the variant keeps no score.

>>> print(comparison_table(rows, Variant.preset("seed-002")).splitlines()[0])  # doctest: +NORMALIZE_WHITESPACE
strategy won 95% CI foundation 95% CI net/game Δ won 95% CI Δ found. 95% CI
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.bots.klondike import STRATEGIES, make_player, strategy_name
from cardtable.errors import UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.runs.executor import Executor, LocalExecutor
from cardtable.sim.runner import Results, RunSpec, run_games
from cardtable.sim.stats import money_text, summarize_games
from cardtable.stats import paired_difference

__all__ = ["compare_strategies", "comparison_table"]


def compare_strategies(
    strategies: Sequence[str],
    variant: Variant,
    count: int,
    *,
    seed: int = 1,
    deals: tuple[Position, ...] | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
) -> list[dict[str, object]]:
    """Play games ``0..count-1`` with each strategy and return one row per
    strategy, in the order given.

    Each row holds ``strategy``, ``games``, ``win_rate`` (with
    ``win_rate_low`` and ``win_rate_high``, a 95% Wilson interval),
    ``foundation_mean`` (with ``foundation_low`` and ``foundation_high``) and
    ``net_mean`` (Vegas dollars a game, whatever the scoring); under standard
    scoring also ``score_mean``, ``score_low`` and ``score_high`` (points a
    game, with a 95% interval). Every row after the first also holds the paired difference
    from the first strategy, with 95% intervals: ``diff_win_rate``,
    ``diff_win_rate_low``, ``diff_win_rate_high``, ``diff_foundation``,
    ``diff_foundation_low``, ``diff_foundation_high``.

    A strategy may carry options (``"expert samples=96"``). An unknown strategy
    raises :class:`~cardtable.errors.UsageError` naming the known ones, and a bad
    option :class:`~cardtable.errors.RulesError`; an interrupted run raises KeyboardInterrupt.
    """
    for name in strategies:
        if ":" in name or strategy_name(name) not in STRATEGIES:
            raise UsageError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
        make_player(name)  # its options are checked before any game
    executor = executor or LocalExecutor(workers)
    table: list[Results] = []
    for name in strategies:
        results = run_games(RunSpec(name, variant, seed, deals, keep_moves=False), count, executor=executor)
        if len(results) < count:  # interrupted, or a worker kept dying: say which
            lost = getattr(executor, "lost", None)
            raise lost if isinstance(lost, KeyboardInterrupt) else KeyboardInterrupt
        table.append(results)
    rows: list[dict[str, object]] = []
    for place, (name, results) in enumerate(zip(strategies, table, strict=True)):
        s = summarize_games(results, 1.0)
        row: dict[str, object] = {
            "strategy": name, "games": s.games, "win_rate": s.win_rate, "win_rate_low": s.win_rate_low,
            "win_rate_high": s.win_rate_high, "foundation_mean": s.foundation_mean,
            "foundation_low": s.foundation_low, "foundation_high": s.foundation_high, "net_mean": s.net_mean}
        if variant.scoring.kind == "standard":
            row.update({"score_mean": s.score_mean, "score_low": s.score_low, "score_high": s.score_high})
        if place > 0:
            base = table[0]
            dw = paired_difference(base.won.astype(float).tolist(), results.won.astype(float).tolist())
            df = paired_difference(base.foundation.astype(float).tolist(), results.foundation.astype(float).tolist())
            row.update({"diff_win_rate": dw[0], "diff_win_rate_low": dw[1], "diff_win_rate_high": dw[2],
                        "diff_foundation": df[0], "diff_foundation_low": df[1], "diff_foundation_high": df[2]})
        rows.append(row)
    return rows


def comparison_table(rows: Sequence[dict[str, object]], variant: Variant) -> str:
    """The rows of :func:`compare_strategies` as a table for people, header
    and rule included. The worth of a game follows ``variant``'s scoring:
    a ``net/game`` column in dollars under Vegas scoring, a ``points/game``
    column under standard scoring, and no such column when no score is kept.
    """
    kind = variant.scoring.kind
    worth = {"vegas": f" {'net/game':>9}", "standard": f" {'points/game':>11}"}.get(kind, "")
    header = (f"{'strategy':<10} {'won':>8} {'95% CI':>15} {'foundation':>11} {'95% CI':>15}{worth}"
              f" {'Δ won':>8} {'95% CI':>17} {'Δ found.':>9} {'95% CI':>15}")
    lines = [header, "-" * len(header)]
    for row in rows:
        r: dict[str, Any] = dict(row)
        line = (f"{r['strategy']:<10} {100 * r['win_rate']:7.2f}% "
                f"{100 * r['win_rate_low']:6.2f}-{100 * r['win_rate_high']:5.2f}% "
                f"{r['foundation_mean']:11.3f} {r['foundation_low']:7.3f}-{r['foundation_high']:7.3f}")
        if kind == "vegas":
            line += f" {money_text(r['net_mean'], 2):>9}"
        elif kind == "standard":
            line += f" {r['score_mean']:11.1f}"
        if "diff_win_rate" in r:
            line += (f" {100 * r['diff_win_rate']:+7.2f}% {100 * r['diff_win_rate_low']:+7.2f} to "
                     f"{100 * r['diff_win_rate_high']:+6.2f}% {r['diff_foundation']:+9.3f} "
                     f"{r['diff_foundation_low']:+7.3f} to {r['diff_foundation_high']:+6.3f}")
        lines.append(line)
    return "\n".join(lines)
