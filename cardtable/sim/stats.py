"""Summary statistics of many games, with 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from cardtable.sim.runner import GameResult, Results
from cardtable.stats import Z95, mean_interval, wilson

__all__ = ["Z95", "Summary", "mean_interval", "money_text", "summarize_games", "wilson"]


@dataclass(frozen=True)
class Summary:
    """What ``cardtable simulate`` reports. ``scoring`` is the variant's kind
    of scoring: the money (``net_*``, seed 002's Vegas dollars) is shown for
    ``vegas`` and the points (``score_*``) for ``standard``; with ``none``
    neither is shown (the JSON form keeps every field)."""

    games: int
    won: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    foundation_mean: float
    foundation_low: float
    foundation_high: float
    net_total: int
    net_mean: float
    net_low: float
    net_high: float
    seconds: float
    games_per_second: float
    scoring: str = "vegas"
    score_mean: float = math.nan
    score_low: float = math.nan
    score_high: float = math.nan

    def to_dict(self) -> dict[str, object]:
        """The JSON form: every field by name."""
        return asdict(self)

    def text(self) -> str:
        """The summary for people."""
        pct = 100
        lines = [
            f"games played       {self.games:,}",
            f"games won          {self.won:,} ({self.win_rate * pct:.2f}%, 95% CI "
            f"{self.win_rate_low * pct:.2f}-{self.win_rate_high * pct:.2f}%)",
            f"foundation cards   {self.foundation_mean:.3f} a game (95% CI {self.foundation_low:.3f}-"
            f"{self.foundation_high:.3f})",
        ]
        if self.scoring == "vegas":
            lines.append(f"net winnings       {money_text(self.net_total)} in all, "
                         f"{money_text(self.net_mean, 3)} a game "
                         f"(95% CI {money_text(self.net_low, 3)} to {money_text(self.net_high, 3)})")
        elif self.scoring == "standard":
            lines.append(f"points             {self.score_mean:,.1f} a game (95% CI {self.score_low:,.1f}-"
                         f"{self.score_high:,.1f})")
        lines.append(f"throughput         {self.games_per_second:,.0f} games/s ({self.seconds:.2f} s)")
        return "\n".join(lines)


def money_text(amount: float, places: int = 0) -> str:
    """Signed dollars: ``+$1,234`` or ``-$12.076``."""
    sign = "-" if amount < 0 else "+"
    return f"{sign}${abs(amount):,.{places}f}"


def summarize_games(results: Sequence[GameResult], seconds: float, scoring: str | None = None) -> Summary:
    """The summary of finished games played in ``seconds`` (columns are read
    directly from :class:`~cardtable.sim.runner.Results`). ``scoring`` is the
    variant's kind of scoring (by default the results' own variant's, or
    ``vegas`` for a plain list).

    >>> from cardtable.sim.runner import GameResult
    >>> games = [GameResult(0, "", True, 52, (), 208, 208), GameResult(1, "", False, 12, (), 8, 8)]
    >>> summary = summarize_games(games, 0.5)
    >>> summary.won, summary.net_total, summary.games_per_second
    (1, 216, 4.0)
    """
    import numpy as np

    if isinstance(results, Results):
        foundation, net = results.foundation.astype(float), results.net.astype(float)
        score = results.score.astype(float)
        kind = scoring or results.variant.scoring.kind
    else:
        foundation = np.array([r.foundation for r in results], dtype=float)
        net = np.array([r.net for r in results], dtype=float)
        score = np.array([r.score for r in results], dtype=float)
        kind = scoring or "vegas"
    n = len(foundation)
    won = int((foundation == 52).sum())
    low, high = wilson(won, n)
    f_mean, f_low, f_high = _mean_interval(foundation)
    f_low, f_high = max(f_low, 0.0), min(f_high, 52.0)  # a game places 0 to 52 cards, and so does the mean
    n_mean, n_low, n_high = _mean_interval(net)
    s_mean, s_low, s_high = _mean_interval(score)
    return Summary(
        games=n, won=won, win_rate=won / n if n else 0.0, win_rate_low=low, win_rate_high=high,
        foundation_mean=f_mean, foundation_low=f_low, foundation_high=f_high,
        net_total=int(net.sum()), net_mean=n_mean, net_low=n_low, net_high=n_high,
        seconds=seconds, games_per_second=n / seconds if seconds > 0 else math.inf,
        scoring=kind, score_mean=s_mean, score_low=s_low, score_high=s_high,
    )


def _mean_interval(values) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    n = len(values)
    if n < 2:
        return mean_interval(list(values))
    mean = float(values.mean())
    half = Z95 * math.sqrt(float(values.var(ddof=1)) / n)
    return (mean, mean - half, mean + half)
