"""Pictures of a run (matplotlib, headless)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from cardtable.sim.runner import GameResult

__all__ = ["plot_run"]


def plot_run(results: Sequence[GameResult], path: str | os.PathLike[str], *, title: str = "") -> None:
    """Two panels: how many games ended with each number of foundation cards,
    and the running net winnings game by game. Written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cardtable.files import atomic_write_bytes

    counts = [0] * 53
    for r in results:
        counts[r.foundation] += 1
    running, total = [], 0
    for r in results:
        total += r.net
        running.append(total)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    left.bar(range(53), counts, color="#2a6f97", width=0.85)
    left.set_xlabel("cards on the foundations at the end")
    left.set_ylabel("games")
    left.set_title("foundation cards per game")
    left.set_xlim(-1, 53)
    right.plot(range(1, len(running) + 1), running, color="#b5179e", linewidth=1.2)
    right.axhline(0, color="grey", linewidth=0.8)
    right.set_xlabel("games played")
    right.set_ylabel("net winnings ($)")
    right.set_title("running net winnings")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
