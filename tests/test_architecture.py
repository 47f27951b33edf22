"""The architecture picture in docs/architecture.md is the code's: every
arrow between rooms that the imports draw is in the picture and every arrow
of the picture is in the imports, and no arrow runs up a floor."""

from __future__ import annotations

import re
from pathlib import Path

from test_import_contracts import MODULES, imports

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"

#: The floors, top to bottom as in the document; floor 0 is left out of the picture.
FLOORS = {
    "cli": 7, "app": 7, "web": 7, "envs": 7,
    "_files": 6,
    "sim": 5,
    "bots": 4, "solver": 4,
    "klondike": 3, "kings_corner": 3, "patience": 3, "runs": 3,
    "game": 2,
    "cards": 1, "stats": 1,
    "errors": 0, "_text": 0, "_json": 0,
}
#: The arrows that stay on their floor, each with the document's reason.
SIDEWAYS = {("cli", "app"), ("cli", "web"), ("app", "web"), ("cli", "envs"), ("bots", "solver"),
            ("klondike", "patience")}


def room(module: str) -> str | None:
    """The room of a module: its top-level package or module under cardtable."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "cardtable" else None


#: Every room of the package (``cardtable/__init__.py``, the package's face, and ``__main__`` are none).
ROOMS = {name for name in map(room, MODULES) if name is not None} - {"__main__"}


def code_arrows() -> set[tuple[str, str]]:
    """The arrows between rooms that the imports draw (a name imported from
    the package itself, such as its version, draws none)."""
    arrows = set()
    for name, path in MODULES.items():
        source = room(name)
        if source is None or source not in ROOMS:
            continue
        for imported in imports(path):
            target = room(imported)
            if target is not None and target in ROOMS and target != source and FLOORS.get(target) != 0:
                arrows.add((source, target))
    return arrows


def picture_arrows(text: str) -> set[tuple[str, str]]:
    (block,) = re.findall(r"```mermaid\n(.*?)```", text, re.S)
    return {(a, b) for a, b in re.findall(r"^\s*(\w+) --> (\w+)\s*$", block, re.M)}


def test_every_room_has_a_floor() -> None:
    assert set(FLOORS) == ROOMS, f"rooms without a floor: {sorted(ROOMS - set(FLOORS))}"


def test_the_picture_is_the_code() -> None:
    code, picture = code_arrows(), picture_arrows(DOC.read_text(encoding="utf-8"))
    assert not code - picture, f"imports the picture lacks: {sorted(code - picture)}"
    assert not picture - code, f"arrows no import draws: {sorted(picture - code)}"


def test_no_arrow_runs_up_a_floor() -> None:
    bad = sorted((a, b) for a, b in code_arrows() if FLOORS[a] < FLOORS[b]
                 or (FLOORS[a] == FLOORS[b] and (a, b) not in SIDEWAYS))
    assert not bad, f"arrows that run up or sideways: {bad}"


def test_the_reader_sees_a_wrong_picture() -> None:
    assert picture_arrows("```mermaid\nflowchart TD\n    cli --> app\n    x --> y\n```\n") == {("cli", "app"),
                                                                                         ("x", "y")}
