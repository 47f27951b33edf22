"""The klondike description, played by the patience engine, against
cardtable's own Klondike engine: the same deal and the same legal moves
after every random move, in four rule combinations, as sorted sets. (The
klondike description moves no whole pile to a space, as Klondike's engine
does not; ``tests/patience/test_klondike_differential.py`` holds the order of
the moves too, in all 24 rule combinations, and the compiled core.)"""

from __future__ import annotations

import pytest

from cardtable.cards import SplitMix64
from cardtable.klondike import KlondikeGame, Variant
from cardtable.klondike.moves import Move as KlondikeMove
from cardtable.patience import Kind, Move, PatienceGame, Place, get

COMBINATIONS = [
    ((), Variant()),
    (("draw-3",), Variant(draw=3)),
    (("draw-3", "three-passes", "foundation-return"), Variant(draw=3, passes=3, foundation_return=True)),
    (("one-pass", "any-in-space"), Variant(passes=1, empty="any")),
]


def _same_notation(moves: list[str]) -> list[str]:
    """Klondike names a foundation by its suit (``Fh>3``), the patience engine by its place (``F1>3``)."""
    return sorted(m if not m.startswith("F") else "F>" + m.split(">")[1] for m in moves)


def _not_pointless(game: PatienceGame, moves: list[Move]) -> list[str]:
    """The moves but a whole pile moved to a space, which Klondike's engine leaves out as pointless."""
    kept = []
    for move in moves:
        if (move.source.kind is Kind.TABLEAU and move.target is not None and move.target.kind is Kind.TABLEAU
                and move.count == len(game.pile(move.source)) and not game.pile(move.target)):
            continue
        kept.append(str(move))
    return kept


@pytest.mark.parametrize(("options", "variant"), COMBINATIONS)
def test_the_same_legal_moves_as_klondike_after_every_random_move(options: tuple[str, ...],
                                                                  variant: Variant) -> None:
    description = get("klondike").with_options(*options)
    played = 0
    for seed in range(25):
        ours, theirs = PatienceGame.from_seed(description, seed), KlondikeGame.from_seed(seed, variant)
        rng = SplitMix64(seed)
        for _ in range(250):
            moves = _not_pointless(ours, ours.legal_moves())
            assert _same_notation(moves) == _same_notation([str(m) for m in theirs.legal_moves()]), (seed, played)
            assert ours.is_won() == theirs.is_won()
            if not moves:
                break
            text = moves[rng.below(len(moves))]
            ours.play(Move.parse(text))
            if text.startswith("F"):
                card = ours.pile(Place(Kind.TABLEAU, int(text.split(">")[1]) - 1))[-1]
                text = f"F{card.suit.letter}>{text.split('>')[1]}"
            theirs.play(KlondikeMove.parse(text))
            played += 1
    assert played > 1000
