"""Klondike's compiled core (:mod:`cardtable.solver._ccore`) on its own: its
layout is the Python side's, a search resumed in slices is the same search
as one run in one go (depth-first and best-first), and bad input is refused
in words. What it computes is held to the rules engine in
``tests/solver/test_core_differential.py``, ``tests/sim/test_fast_priority.py``
and ``tests/envs/test_fast_matches_engine.py``."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.envs import _fast
from cardtable.klondike import Position, Variant
from cardtable.solver import _ccore
from cardtable.solver._state import PILE_CAP, STATE_SIZE, encode, params, state_bytes

VARIANTS = [
    Variant.preset("thoughtful1"),
    Variant.preset("thoughtful3"),
    Variant.preset("thoughtful3").replace(passes=3),
    Variant.preset("thoughtful1").replace(empty="any", foundation_return=False),
]


def test_the_layouts_agree() -> None:
    assert (_ccore.STATE_SIZE, _ccore.PILE_CAP) == (STATE_SIZE, PILE_CAP)
    position = Position.from_seed(5)
    assert state_bytes(position) == encode(position).tobytes()


def _search(kind: str, position: Position, variant: Variant, salt: int, width: int, bits: int
            ) -> _ccore.Search | _ccore.BestSearch:
    if kind == "depth":
        return _ccore.Search(state_bytes(position), params(variant, salt, width), bits, 10)
    return _ccore.BestSearch(state_bytes(position), params(variant), bits, 10, salt + 1, width)


@pytest.mark.parametrize("kind", ["depth", "best"])
@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize(("salt", "width"), [(0, 0), (1, 3)])
def test_a_search_in_slices_is_the_search_in_one_go(kind: str, variant: Variant, salt: int, width: int) -> None:
    target = 15_000
    for seed in range(6):
        position = Position.from_seed(seed)
        whole = _search(kind, position, variant, salt, width, 18)
        whole.run(target - whole.states)
        sliced = _search(kind, position, variant, salt, width, 18)
        while sliced.status == _ccore.RUNNING and sliced.states < target:
            sliced.run(min(997, target - sliced.states))
        assert (sliced.status, sliced.states, sliced.cut) == (whole.status, whole.states, whole.cut)
        if whole.status == _ccore.WON:
            assert sliced.path() == whole.path()


def test_bad_input_is_refused() -> None:
    variant = Variant.preset("thoughtful1")
    state = state_bytes(Position.from_seed(1))
    with pytest.raises(ValueError, match="440 bytes"):
        _ccore.Search(b"\0" * 10, params(variant), 16)
    with pytest.raises(ValueError, match=f"{len(params(variant))} integers"):
        _ccore.Search(state, (1, 0), 16)
    with pytest.raises(ValueError, match="max_bits"):
        _ccore.Search(state, params(variant), 60)
    with pytest.raises(ValueError, match="bad variant parameters"):
        _ccore.Search(state, params(variant, order=2), 16)  # no such order
    with pytest.raises(ValueError, match="max_bits"):
        _ccore.BestSearch(state, params(variant), 60, 10, 1, 0)
    with pytest.raises(ValueError, match="weight"):
        _ccore.BestSearch(state, params(variant), 16, 10, -1, 0)
    for search in (_ccore.Search(state, params(variant), 16), _ccore.BestSearch(state, params(variant), 16, 10, 1, 0)):
        with pytest.raises(RuntimeError, match="no win"):
            search.path()
    with pytest.raises(ValueError, match="52 entries"):
        _ccore.deals_from_seeds(np.arange(3, dtype=np.uint64), np.zeros(52, dtype=np.int8))
    with pytest.raises(ValueError, match="8-byte"):
        _ccore.deals_from_seeds(np.arange(3, dtype=np.int32), np.zeros(3 * 52, dtype=np.int8))
    with pytest.raises(ValueError, match="a row for every game"):
        _ccore.priority(np.arange(3, dtype=np.uint64), True, params(VARIANTS[0]), np.zeros(2, dtype=np.int8),
                        np.zeros(3, dtype=np.int16), None)
    with pytest.raises(ValueError, match="a row for every game"):
        _ccore.priority(np.zeros((1, 52), dtype=np.int8), False, params(VARIANTS[0]), np.zeros(1, dtype=np.int8),
                        np.zeros(1, dtype=np.int16), np.zeros(10, dtype=np.int32))
    with pytest.raises(ValueError, match="hist"):
        b8, obs, b32, b64, _ = _fast.new_arrays()
        _ccore.EnvCore(b8, obs, b32, b64, np.zeros(4, dtype=np.int32))
    with pytest.raises(ValueError, match="b8 has"):
        _ccore.EnvCore(np.zeros(5, dtype=np.int8), *_fast.new_arrays()[1:])
    with pytest.raises(RuntimeError, match="not set up"):
        _ccore.EnvCore.__new__(_ccore.EnvCore).step(0)


def test_the_environment_core_refuses_a_full_history() -> None:
    arrays = _fast.new_arrays()
    core = _ccore.EnvCore(*arrays)
    core.deal(3)
    arrays[3][0, _fast.C_MOVES] = len(arrays[4])
    with pytest.raises(RuntimeError, match="history is full"):
        core.step(_fast.DRAW)
    with pytest.raises(ValueError, match="shorter"):
        core.set_history(np.zeros(8, dtype=np.int16))


@pytest.mark.parametrize("kind", ["depth", "best"])
def test_a_full_table_stops_the_search(kind: str) -> None:
    # A table of 2**6 entries holds 48 keys: the search stops there.
    state, v = state_bytes(Position.from_seed(1000000)), params(Variant.preset("thoughtful3"))
    search = _ccore.Search(state, v, 6, 4) if kind == "depth" else _ccore.BestSearch(state, v, 6, 4, 1, 0)
    assert search.run(1_000_000) == _ccore.TABLE_FULL
    assert search.states == 48 and search.table_size == 64


@pytest.mark.parametrize("kind", ["depth", "best"])
@pytest.mark.parametrize("variant", VARIANTS[:3], ids=str)
def test_the_exact_key_is_the_hashed_key(kind: str, variant: Variant) -> None:
    # With kings only in empty piles the searches keep an exact 64-bit key,
    # one word a table entry. It must tell states apart exactly as the two
    # hashes do: the same states found, in the same order, to the same end.
    for seed in range(4):
        state, v = state_bytes(Position.from_seed(seed)), params(variant)
        if kind == "depth":
            exact, hashed = _ccore.Search(state, v, 18, 10), _ccore.Search(state, v, 18, 10, exact=False)
        else:
            exact = _ccore.BestSearch(state, v, 18, 10, 1, 0)
            hashed = _ccore.BestSearch(state, v, 18, 10, 1, 0, exact=False)
        assert (exact.key_words, hashed.key_words) == (1, 2)
        exact.run(20_000)
        hashed.run(20_000)
        assert (exact.status, exact.states, exact.cut) == (hashed.status, hashed.states, hashed.cut)
        if exact.status == _ccore.WON:
            assert exact.path() == hashed.path()


def test_a_big_table_doubles_without_losing_a_key() -> None:
    # 300,000 states of a hard lost deal: both tables double past 2 MiB, where
    # the old table's pages are handed back as they are moved. A key lost on
    # the way would let a state in twice, and the counts would part.
    state, v = state_bytes(Position.from_seed(4200036)), params(Variant.preset("thoughtful1"))
    # The third search's table is big enough from the start: it never doubles.
    searches = [_ccore.Search(state, v, 22, 10), _ccore.Search(state, v, 22, 10, exact=False),
                _ccore.Search(state, v, 22, 19)]
    for search in searches:
        assert search.run(300_000) == _ccore.RUNNING
        assert search.table_size == 2**19 and search.filled == search.states
    assert len({(search.states, search.depth, search.tried) for search in searches}) == 1


def test_any_card_in_an_empty_pile_keeps_the_hashed_key() -> None:
    # The exact key leaves out which card heads a pile emptied and filled
    # again, which only kings can do: with any card allowed, two hashes.
    state, v = state_bytes(Position.from_seed(3)), params(VARIANTS[3])
    assert _ccore.Search(state, v, 18, 10).key_words == 2
    assert _ccore.BestSearch(state, v, 18, 10, 1, 0).key_words == 2


def test_a_search_does_not_depend_on_the_searches_before_it() -> None:
    # Finished searches hand their buffers to the next ones (two sets are
    # kept): whatever ran before, the same deal searched again, with tables of
    # any size and either key, sees a clean table, so it takes exactly the
    # states it took and wins again (a stale table would hold its states).
    variant = Variant.preset("thoughtful3")
    wide = params(variant, wide=True)

    def search(seed: int, start_bits: int = 14, exact: bool = True) -> tuple[int, int]:
        core = _ccore.Search(state_bytes(Position.from_seed(seed)), wide, 24, start_bits, exact)
        return int(core.run(30_000)), int(core.states)

    seeds = (4, 7, 8)  # won within the first table's 16,384 slots
    first = [search(seed) for seed in seeds]
    assert all(status == _ccore.WON and states > 400 for status, states in first)
    for seed, answer in zip(seeds, first, strict=True):
        assert search(seed) == answer  # at once: the buffers the same search just left
        assert search(seed, exact=False) == search(seed, exact=False)  # the two-hash key
    # two alive at once, then freed together; then the same searches again
    pair = [_ccore.Search(state_bytes(Position.from_seed(seed)), wide, 24, 14) for seed in seeds[:2]]
    answers = [(int(core.run(30_000)), int(core.states)) for core in pair]
    del pair
    assert answers == first[:2]
    assert [search(seed) for seed in seeds[:2]] == first[:2]
    assert search(7, start_bits=12) == search(7, start_bits=16) == first[1]
