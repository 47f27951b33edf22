"""Pictures of a run (matplotlib, headless). The picture comes back as bytes;
writing it anywhere is the caller's business."""

from __future__ import annotations

import io
from collections.abc import Sequence

from cardtable.sim.runner import GameResult, Results

__all__ = ["picture_formats", "plot_picture", "plot_png"]

#: Formats matplotlib lists but cannot write here: PGF needs a LaTeX install.
_UNWRITABLE = frozenset({"pgf"})


def picture_formats() -> list[str]:
    """The formats :func:`plot_picture` writes, as file extensions without
    the dot (matplotlib's own list, less those needing other programs).

    >>> {"png", "svg", "pdf"} <= set(picture_formats())
    True
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return sorted(set(FigureCanvasAgg.get_supported_filetypes()) - _UNWRITABLE)


def plot_png(results: Sequence[GameResult], *, title: str = "", scoring: str | None = None) -> bytes:
    """A PNG picture of finished games: :func:`plot_picture` in PNG.

    >>> from cardtable.klondike import Variant
    >>> from cardtable.sim.runner import RunSpec, run_games
    >>> results = run_games(RunSpec("greedy", Variant.preset("draw1"), seed=1), 5, workers=1)
    >>> plot_png(results, title="five games")[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    return plot_picture(results, title=title, scoring=scoring)


def plot_picture(results: Sequence[GameResult], *, file_format: str = "png", title: str = "",
                 scoring: str | None = None) -> bytes:
    """A picture of finished games in ``file_format`` (one of
    :func:`picture_formats`), in two panels: how many games ended
    with each number of foundation cards, and game by game the running net
    winnings (Vegas scoring), the running mean points (standard scoring) or
    the running win rate (no scoring). ``scoring`` defaults to the results'
    own variant's (``vegas`` for a plain list).

    >>> from cardtable.klondike import Variant
    >>> from cardtable.sim.runner import RunSpec, run_games
    >>> results = run_games(RunSpec("greedy", Variant.preset("draw1"), seed=1), 5, workers=1)
    >>> plot_picture(results, file_format="svg")[:5]
    b'<?xml'
    """
    if file_format not in picture_formats():
        raise ValueError(f"cannot draw a {file_format!r} picture; formats: {', '.join(picture_formats())}")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = [0] * 53
    for r in results:
        counts[r.foundation] += 1
    kind = scoring or (results.variant.scoring.kind if isinstance(results, Results) else "vegas")
    running: list[float] = []
    total = 0.0
    for number, r in enumerate(results, 1):
        if kind == "vegas":
            total += r.net
            running.append(total)
        else:
            total += r.score if kind == "standard" else float(r.won)
            running.append(total / number * (1 if kind == "standard" else 100))
    label, heading = {"vegas": ("net winnings ($)", "running net winnings"),
                      "standard": ("points a game", "running mean points"),
                      }.get(kind, ("games won (%)", "running win rate"))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    left.bar(range(53), counts, color="#2a6f97", width=0.85)
    left.set_xlabel("cards on the foundations at the end")
    left.set_ylabel("games")
    left.set_title("foundation cards per game")
    left.set_xlim(-1, 53)
    right.plot(range(1, len(running) + 1), running, color="#b5179e", linewidth=1.2)
    right.axhline(0, color="grey", linewidth=0.8)
    right.set_xlabel("games played")
    right.set_ylabel(label)
    right.set_title(heading)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=file_format, dpi=110)
    plt.close(fig)
    return buffer.getvalue()
