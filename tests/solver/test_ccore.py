"""The C search core (:mod:`cardtable.solver._ccore`) against the numba core
(:mod:`cardtable.solver._core`) it was ported from: the same moves for the
same states, and searches that visit exactly the same states in the same
order (same status, state count, moves tried and winning line), in every
variant, for the standard order, shuffled orders and narrow searches."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.solver import _ccore, _core
from cardtable.solver._state import STATE_SIZE, encode, params, state_bytes, variant_params

VARIANTS = [
    Variant.preset("thoughtful1"),
    Variant.preset("thoughtful3"),
    Variant.preset("draw3"),
    Variant.preset("thoughtful3").replace(passes=3),
    Variant.preset("thoughtful1").replace(empty="any", foundation_return=False),
    Variant.preset("thoughtful3").replace(passes=1, foundation_return=False),
]


def test_the_layouts_agree() -> None:
    assert _ccore.STATE_SIZE == STATE_SIZE == _core.STATE_SIZE
    assert (_ccore.MAX_DEPTH, _ccore.TALON_MARK) == (_core.MAX_DEPTH, _core.TALON_MARK)
    assert (_ccore.RUNNING, _ccore.WON, _ccore.EXHAUSTED, _ccore.TABLE_FULL) == (
        _core.RUNNING, _core.WON, _core.EXHAUSTED, _core.TABLE_FULL)
    position = Position.from_seed(5)
    assert state_bytes(position) == encode(position).tobytes()


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize(("salt", "width"), [(0, 0), (3, 0), (1, 2)])
def test_searches_visit_the_same_states(variant: Variant, salt: int, width: int) -> None:
    for seed in range(12):
        position = Position.from_seed(seed)
        v = variant_params(variant, salt, width)
        arrays = _core.new_context(18, v)
        arrays["states"][0] = encode(position)
        _core.start(*[arrays[name] for name in _core.START_ARGS])
        status = int(_core.run(*[arrays[name] for name in _core.RUN_ARGS], 20_000))
        ctl = arrays["ctl"]
        search = _ccore.Search(state_bytes(position), params(variant, salt, width), 18, 10)  # grows on the way
        assert search.run(20_000) == status
        assert (search.states, search.tried, search.cut) == (
            int(ctl[_core.C_STATES]), int(ctl[_core.C_TRIED]), int(ctl[_core.C_CUT])), (variant, seed)
        if status == _core.WON:
            assert search.path() == _core.winning_path(arrays["mv"], arrays["mi"], ctl)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_the_same_moves_along_random_games(variant: Variant) -> None:
    rng = np.random.default_rng(7)
    v = variant_params(variant)
    mv, pr, acc = np.zeros(1024, dtype=np.int32), np.zeros(1024, dtype=np.int32), np.zeros(64, dtype=np.int64)
    checked = 0
    for seed in range(6):
        game = KlondikeGame(Position.from_seed(seed), variant)
        for _ in range(150):
            state = encode(game.position())
            for plain in (True, False):
                n = _core.generate(state, v, mv, pr, plain, acc)
                assert _ccore.generate(state.tobytes(), params(variant), plain) == list(
                    zip(mv[:n].tolist(), pr[:n].tolist(), strict=True))
                checked += 1
            moves = game.legal_moves()
            if not moves or game.is_won():
                break
            game.play(moves[int(rng.integers(len(moves)))])
    assert checked > 500


def test_bad_input_is_refused() -> None:
    variant = Variant.preset("thoughtful1")
    with pytest.raises(ValueError, match="440 bytes"):
        _ccore.Search(b"\0" * 10, params(variant), 16)
    with pytest.raises(ValueError, match="6 integers"):
        _ccore.Search(state_bytes(Position.from_seed(1)), (1, 0), 16)
    with pytest.raises(ValueError, match="max_bits"):
        _ccore.Search(state_bytes(Position.from_seed(1)), params(variant), 60)
    search = _ccore.Search(state_bytes(Position.from_seed(1)), params(variant), 16)
    with pytest.raises(RuntimeError, match="no win"):
        search.path()


def test_a_full_table_stops_the_search() -> None:
    # A table of 2**6 entries holds 48 keys: the search stops there.
    search = _ccore.Search(state_bytes(Position.from_seed(1000000)), params(Variant.preset("thoughtful3")), 6, 4)
    assert search.run(1_000_000) == _ccore.TABLE_FULL
    assert search.filled == 48 and search.table_size == 64
