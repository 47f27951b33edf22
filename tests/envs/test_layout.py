"""The environment's numbers have one source, :mod:`cardtable.envs._layout`:
the committed C header is what it writes, the compiled core was built from
that header, and the Python action table and observation follow it. (The
masks and observations the compiled step writes are held to the engine's, in
every rule combination, by ``tests/envs/test_fast_matches_engine.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.envs import _fast, _layout
from cardtable.envs import klondike as env_module
from cardtable.envs.klondike import ACTION_COUNT, OBSERVATION_LAYOUT, OBSERVATION_SIZE, STOP, action_move
from cardtable.klondike import DRAW, FOUNDATION, RECYCLE, WASTE, Move
from cardtable.solver import _ccore

HEADER = Path(_layout.__file__).resolve().parent.parent / _layout.HEADER


def test_the_committed_header_is_what_the_source_writes() -> None:
    # If this fails, run `python -m cardtable.envs._layout` and rebuild the core.
    assert HEADER.read_text(encoding="utf-8") == _layout.c_header()


def test_the_compiled_core_was_built_from_the_header() -> None:
    assert _layout.constants() == _ccore.ENV_LAYOUT


def test_a_changed_number_changes_the_header(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _layout.c_header()
    monkeypatch.setattr(_layout, "DECK", _layout.DECK + 8)
    after = _layout.c_header()
    assert after != before and f"{_layout.DECK}\n" in after


def test_the_python_side_reads_the_same_numbers() -> None:
    base = _layout.ACTION_BASE
    assert (_layout.ACTIONS, base["stop"], _layout.OBSERVATION_SIZE) == (ACTION_COUNT, STOP, OBSERVATION_SIZE)
    numbers = (_layout.ACTIONS, base["stop"], base["draw"], base["recycle"])
    assert numbers == (_fast.ACTIONS, _fast.STOP, _fast.DRAW, _fast.RECYCLE)
    assert (len(_layout.COUNTERS) - 1, len(_layout.RESULTS) - 1) == (_fast.C_FOUND, _fast.GROW)
    # Each block starts with the move the numbering says it does.
    assert action_move(base["pile_to_foundation"]) == Move(0, FOUNDATION)
    assert action_move(base["waste_to_foundation"]) == Move(WASTE, FOUNDATION)
    assert action_move(base["waste_to_pile"]) == Move(WASTE, 0)
    assert action_move(base["pile_to_pile"]) == Move(0, 1, 1)
    assert action_move(base["foundation_to_pile"]).source == FOUNDATION
    assert (action_move(base["draw"]), action_move(base["recycle"]), action_move(STOP)) == (DRAW, RECYCLE, None)
    # The strides the compiled step uses: source, target place, run length; suit, target.
    constants = _layout.constants()
    assert action_move(constants["ACT_PILE_PILE"] + 2 * constants["ACT_PER_SOURCE"]
                       + 3 * constants["ACT_PER_TARGET"] + 4) == Move(2, 4, 5)
    assert str(action_move(constants["ACT_HOME_PILE"] + 3 * constants["ACT_PER_SUIT"] + 6)) == "Fs>7"
    fields = {name: (_layout.OBSERVATION_OFFSET[name], size) for name, size in _layout.OBSERVATION_FIELDS}
    assert fields == OBSERVATION_LAYOUT


def test_the_documented_numbering_is_the_source() -> None:
    # The module's table of actions and of observation fields: every first index and offset.
    actions, observations = (env_module.__doc__ or "").split("\nObservations\n")
    firsts = [int(first) for first in re.findall(r"^    (\d+)(?:\.\.\d+)?\s", actions, re.M)]
    assert firsts == [at for name, at in _layout.ACTION_BASE.items() if name != "end"]
    field_rows = re.findall(r"^    (\d+)\s+(\d+)\s+(\w+)\s", observations, re.M)
    assert [(name, (int(at), int(size))) for at, size, name in field_rows] == list(OBSERVATION_LAYOUT.items())
