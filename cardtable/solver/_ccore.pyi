"""Type stub of Klondike's compiled core (cardtable/solver/_ccore.c on the
rules library cardtable/solver/klondike.h)."""

from collections.abc import Sequence
from typing import Any

from numpy.typing import NDArray
from typing_extensions import Buffer

#: A numpy array (C-contiguous, of the item size each function names) or another buffer.
_Array = NDArray[Any] | Buffer

STATE_SIZE: int
PILE_CAP: int
MAX_DEPTH: int
MAX_MOVES: int
TALON_MARK: int
RUNNING: int
WON: int
EXHAUSTED: int
TABLE_FULL: int
PRIORITY_MAX_MOVES: int
ENV_LAYOUT: dict[str, int]

class Search:
    """One resumable depth-first search from a state, with a transposition
    table that starts at ``2**start_bits`` entries and doubles up to ``2**max_bits``."""

    states: int
    status: int
    depth: int
    cut: int
    peak: int
    tried: int
    filled: int
    table_size: int
    key_words: int
    """Words a table entry takes: 1, an exact 64-bit key (used whenever only
    kings fill empty piles and it fits); 2, two 64-bit hashes."""

    def __init__(self, state: Buffer, params: Sequence[int], max_bits: int, start_bits: int = 14,
                 exact: bool = True, path: bool = False) -> None:
        """``path`` turns on the path rules: moves to states the search meets
        anyway are left out, read from the move that made each state and its
        parent's moves (the notes in ``cardtable/solver/klondike.h``)."""
    def run(self, budget: int) -> int: ...
    def path(self) -> list[int]: ...

class BestSearch:
    """One resumable best-first search from a state: open states are ranked by
    ``weight * estimate + moves made``; ``width`` > 0 tries only that many of
    the best moves of each state. Its table grows as :class:`Search`'s does."""

    states: int
    status: int
    cut: int
    nodes: int
    depth: int
    table_size: int
    key_words: int
    """As :attr:`Search.key_words`."""

    def __init__(self, state: Buffer, params: Sequence[int], max_bits: int, start_bits: int, weight: int,
                 width: int, exact: bool = True) -> None: ...
    def run(self, budget: int) -> int: ...
    def path(self) -> list[int]: ...

class EnvCore:
    """The compiled step of ``cardtable/Klondike-v0`` over an environment's
    five arrays (see :mod:`cardtable.envs._fast`)."""

    def __init__(self, b8: _Array, obs: _Array, b32: _Array, b64: _Array, hist: _Array) -> None: ...
    def deal(self, seed: int) -> None: ...
    def reset(self) -> int: ...
    def step(self, action: int) -> tuple[int, float]: ...
    def set_history(self, hist: _Array) -> None: ...

def line_moves(state: _Array, codes: Sequence[int], params: Sequence[int]) -> tuple[list[int], str, int]: ...
def generate(state: _Array, params: Sequence[int], plain: bool) -> list[tuple[int, int]]: ...
def path_prune(parent: _Array, state: _Array, codes: Sequence[int], at: int, params: Sequence[int]) -> list[int]: ...
def apply_move(state: _Array, code: int, params: Sequence[int]) -> bytes: ...
def autoplay(state: _Array, params: Sequence[int]) -> tuple[bytes, list[int]]: ...
def trivially_won(state: _Array, params: Sequence[int]) -> bool: ...
def deal(seed: int) -> bytes: ...
def priority_choice(state: _Array, params: Sequence[int], memory: int) -> tuple[int, int]: ...
def priority(games: _Array, by_seed: bool, params: Sequence[int], foundation: _Array, moves: _Array,
             codes: _Array | None) -> None: ...
def deals_from_seeds(seeds: _Array, out: _Array) -> None: ...
def first_invalid_deal(deals: _Array) -> int: ...
