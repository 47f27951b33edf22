"""The one source of ``cardtable/Klondike-v0``'s numbers: its action numbering,
its observation fields and the compiled step's arrays.

Two implementations read these numbers: the environment in Python
(:mod:`cardtable.envs.klondike`, which builds its action table and
observation encoding from :data:`ACTION_BLOCKS` and
:data:`OBSERVATION_FIELDS`; :mod:`cardtable.envs._fast`) and the compiled
step (``EnvCore`` in ``cardtable/solver/_ccore.c``), which includes
``cardtable/solver/env_layout.h``. That header is generated from this module
and from nothing else::

    python -m cardtable.envs._layout    # rewrites cardtable/solver/env_layout.h

``tests/envs/test_layout.py`` checks that the committed header is exactly
what :func:`c_header` writes and that the compiled core was built from it;
``tests/envs/test_fast_matches_engine.py`` holds every mask and observation
that the compiled step writes to the environment's Python encoding of the
engine's view. To change a number, change it here and regenerate.

Only the standard library is used, so the header can be written anywhere.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = [
    "ACTIONS",
    "ACTION_BASE",
    "ACTION_BLOCKS",
    "CAP",
    "COUNTERS",
    "DECK",
    "HEADER",
    "OBSERVATION_FIELDS",
    "OBSERVATION_OFFSET",
    "OBSERVATION_SIZE",
    "PILES",
    "RESULTS",
    "RUN_LENGTHS",
    "WASTE_SLOTS",
    "WIDTH",
    "c_header",
    "constants",
]

#: Tableau piles, suits, and the longest run a move can carry (a pile's
#: face-up run is at most King..Ace).
PILES = 7
SUITS = 4
RUN_LENGTHS = 13
#: The waste's length in the observation: all 24 stock cards turned over.
WASTE_SLOTS = 24
#: The largest count an observation holds (``int16``).
CAP = 32_767

#: The action space, block by block in index order: (name, size). Within a
#: block moves are numbered as the environment's documentation says (source
#: pile, then target pile, then run length; a foundation's suit, then the target).
ACTION_BLOCKS: tuple[tuple[str, int], ...] = (
    ("pile_to_foundation", PILES),                                   # i>F
    ("waste_to_foundation", 1),                                      # W>F
    ("waste_to_pile", PILES),                                        # W>j
    ("pile_to_pile", PILES * (PILES - 1) * RUN_LENGTHS),             # i>j:k
    ("foundation_to_pile", SUITS * PILES),                           # Fs>j
    ("draw", 1),                                                     # D
    ("recycle", 1),                                                  # R
    ("stop", 1),                                                     # end the game here
)


def _offsets(blocks: tuple[tuple[str, int], ...]) -> dict[str, int]:
    offsets: dict[str, int] = {}
    at = 0
    for name, size in blocks:
        offsets[name] = at
        at += size
    offsets["end"] = at
    return offsets


#: Each block's first index, and ``"end"``: how many actions there are.
ACTION_BASE: dict[str, int] = _offsets(ACTION_BLOCKS)
ACTIONS = ACTION_BASE["end"]

#: The observation's fields in order: (name, size).
OBSERVATION_FIELDS: tuple[tuple[str, int], ...] = (
    ("tableau", PILES * RUN_LENGTHS),  # face-up cards of pile i at 13i.., bottom to top
    ("face_down", PILES),
    ("stock", 1),
    ("waste", WASTE_SLOTS),            # top (playable) card first
    ("foundation", SUITS),
    ("pass_number", 1),
    ("passes_left", 1),
    ("moves", 1),
)
#: Each field's offset, and ``"end"``: the observation's length.
OBSERVATION_OFFSET: dict[str, int] = _offsets(OBSERVATION_FIELDS)
OBSERVATION_SIZE = OBSERVATION_OFFSET["end"]

#: The compiled step's arrays: the int64 rows' width, and where row 1 of the
#: int8 array keeps a shuffled deck (after the action mask).
WIDTH = 128
DECK = 600

#: The compiled step's counters, ``b64[0, i]`` for the i-th name.
COUNTERS: tuple[str, ...] = ("PASS_LIMIT", "PASS", "MOVES", "STEPS", "MAX_STEPS", "STALL", "STALL_LIMIT", "BEST",
                             "FEWEST", "REWARD", "BANKED", "RAISE", "REPEAT", "PROGRESS", "FOUND")
#: What a compiled step returns, the i-th name for status i: RUNNING needs
#: nothing more; the others end the episode or ask the caller to finish the step.
RESULTS: tuple[str, ...] = ("RUNNING", "WON", "NO_MOVES", "STOPPED", "STALLED", "MAX_STEPS", "ILLEGAL", "CLOCK",
                            "GROW")

#: The generated header, relative to the package.
HEADER = Path("solver") / "env_layout.h"


def constants() -> dict[str, int]:
    """Every number the compiled step reads, by its C name (the header's
    macros, and ``_ccore.ENV_LAYOUT``'s keys)."""
    base = ACTION_BASE
    found = OBSERVATION_OFFSET
    numbers = {
        "ACTIONS": ACTIONS,
        "STOP": base["stop"],
        "DRAW_ACTION": base["draw"],
        "RECYCLE_ACTION": base["recycle"],
        "ACT_PILE_HOME": base["pile_to_foundation"],
        "ACT_WASTE_HOME": base["waste_to_foundation"],
        "ACT_WASTE_PILE": base["waste_to_pile"],
        "ACT_PILE_PILE": base["pile_to_pile"],
        "ACT_PER_SOURCE": (PILES - 1) * RUN_LENGTHS,
        "ACT_PER_TARGET": RUN_LENGTHS,
        "ACT_HOME_PILE": base["foundation_to_pile"],
        "ACT_PER_SUIT": PILES,
        "OBS_SIZE": OBSERVATION_SIZE,
        "OBS_CAP": CAP,
        "OBS_PILE_SLOTS": RUN_LENGTHS,
        "OBS_WASTE_SLOTS": WASTE_SLOTS,
        **{f"OBS_{name.upper()}": at for name, at in found.items() if name != "end"},
        "WIDTH": WIDTH,
        "DECK": DECK,
    }
    numbers.update({f"C_{name}": i for i, name in enumerate(COUNTERS)})
    numbers.update({f"E_{name}": i for i, name in enumerate(RESULTS)})
    return numbers


def c_header() -> str:
    """The text of ``cardtable/solver/env_layout.h``."""
    numbers = constants()
    width = max(map(len, numbers))
    lines = [
        "/*",
        " * Generated by `python -m cardtable.envs._layout` from cardtable/envs/_layout.py,",
        " * the one source of cardtable/Klondike-v0's action numbering, observation",
        " * fields and step arrays. Do not edit: change the module and regenerate",
        " * (tests/envs/test_layout.py checks this file is what it writes).",
        " */",
        "#ifndef CARDTABLE_ENV_LAYOUT_H",
        "#define CARDTABLE_ENV_LAYOUT_H",
        "",
        *(f"#define {name:<{width}} {value}" for name, value in numbers.items()),
        "",
        "/* Every number above, for the module's ENV_LAYOUT dictionary: X(name) for each. */",
        "#define ENV_LAYOUT_NAMES(X) \\",
        *(f"    X({name}) \\" for name in numbers),
        "",
        "",
        "#endif",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    """Rewrite the header next to the compiled core."""
    path = Path(__file__).resolve().parent.parent / HEADER
    path.write_text(c_header(), encoding="utf-8")
    sys.stdout.write(f"wrote {path}\n")


if __name__ == "__main__":
    main()
