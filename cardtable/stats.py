"""Small statistics the library shares: intervals for proportions and means, paired differences."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "mean_interval", "paired_difference", "wilson"]

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean with a normal-approximation interval: ``(mean, low, high)``."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``b - a``, pair by pair, with its interval (95% by
    default): ``(mean, low, high)``. Pairing (the same deal played both ways)
    removes the deals' own spread from the comparison.

    >>> [round(x, 4) for x in paired_difference([1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0])]
    [0.25, -0.24, 0.74]
    """
    return mean_interval([y - x for x, y in zip(a, b, strict=True)], z)
