"""Argument types the command-line front ends share (argparse ``type=``)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["seconds", "seed", "whole_number"]


def whole_number(minimum: int = 0, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum``; errors say what was expected."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}, not {value}")
        return value

    parse.__name__ = what.replace(" ", "_")
    return parse


#: A deal or match seed: any whole number >= 0.
seed = whole_number(0, "seed")


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value
