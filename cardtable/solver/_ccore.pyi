"""Type stub of the compiled search core (cardtable/solver/_ccore.c)."""

from collections.abc import Sequence

from typing_extensions import Buffer

STATE_SIZE: int
PILE_CAP: int
MAX_DEPTH: int
MAX_MOVES: int
TALON_MARK: int
RUNNING: int
WON: int
EXHAUSTED: int
TABLE_FULL: int

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

    def __init__(self, state: Buffer, params: Sequence[int], max_bits: int, start_bits: int = 14) -> None: ...
    def run(self, budget: int) -> int: ...
    def path(self) -> list[int]: ...

def safe_moves_along(state: Buffer, codes: Sequence[int], params: Sequence[int]) -> tuple[list[int], list[int]]: ...
def generate(state: Buffer, params: Sequence[int], plain: bool) -> list[tuple[int, int]]: ...
