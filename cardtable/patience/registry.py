"""The registry of patience games: every shipped description by name, and a
user's description file.

>>> "freecell" in names()
True
>>> get("bakers-game").tableau.build.suit.value
'same-suit'
>>> get("freecel")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cardtable.patience.description.DescriptionError: unknown game 'freecel'; did you mean freecell? (...)
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib import resources

from cardtable._text import clip
from cardtable.patience.description import Description, DescriptionError
from cardtable.patience.description import load as load_file
from cardtable.patience.layout import table_layout

__all__ = ["get", "load", "names"]


@cache
def names() -> tuple[str, ...]:
    """The names of the shipped games, sorted."""
    folder = resources.files("cardtable.patience") / "presets"
    return tuple(sorted(entry.name.removesuffix(".json") for entry in folder.iterdir()
                        if entry.name.endswith(".json")))


@cache
def get(name: str) -> Description:
    """The shipped description called ``name``; an unknown name raises
    :class:`DescriptionError` naming the closest ones."""
    if name not in names():
        close = difflib.get_close_matches(name, names(), n=2)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise DescriptionError(f"unknown game {clip(name, 40)}{hint} ('cardtable games' lists them)")
    text = (resources.files("cardtable.patience") / "presets" / f"{name}.json").read_text(encoding="utf-8")
    try:
        return Description.from_json(json.loads(text))
    except DescriptionError as error:  # a shipped file is checked by the tests: this is a bug
        raise AssertionError(f"presets/{name}.json: {error}") from None


def load(path_or_name: str) -> Description:
    """A shipped game by name, or a description file (a path ending in
    ``.json`` or holding a ``/``), with options after colons: ``golf:wrap``.
    A file's piles must also lie on the table without overlapping
    (:func:`cardtable.patience.layout.table_layout`)."""
    if path_or_name.endswith(".json") or "/" in path_or_name:
        description = load_file(path_or_name)
        try:
            table_layout(description)
        except DescriptionError as error:
            raise DescriptionError(f"{path_or_name}: {error}") from None
        return description
    name, *options = path_or_name.split(":")
    description = get(name)
    return description.with_options(*options) if options else description
