"""What the patience expert does with the cards it cannot see: it deals
them at random in a way that agrees with its view, and solves each such
guess with the exact patience search.

The one part of the patience players that reaches the full-information
search, as :mod:`cardtable.bots.klondike.hindsight` is for Klondike's: the
search only ever sees a guess, never the real deal's hidden cards.
"""

from __future__ import annotations

from cardtable.cards import SplitMix64
from cardtable.patience.description import Kind
from cardtable.patience.engine import PatienceGame, PatienceView, shows_turned
from cardtable.patience.moves import Move

__all__ = ["guess_deal", "judge_guess", "solve_guess"]


def guess_deal(view: PatienceView, rng: SplitMix64) -> PatienceGame:
    """A deal that agrees with ``view``: its unseen cards (face-down cards
    and the stock) dealt by ``rng``, everything the player sees in place."""
    places, rest = view.hidden_cards().deal(rng)
    piles, down = [], []
    slot = iter(places)
    for pile in view.piles:
        if pile.place.kind is Kind.STOCK:
            piles.append(rest)
            down.append(len(rest))
        else:
            cards = pile.cards[::-1] if shows_turned(view.description, pile.place.kind) else pile.cards
            piles.append([*next(slot), *cards])
            down.append(pile.face_down)
    game = PatienceGame(view.description, piles, down)
    game.pass_number = view.pass_number
    game.redeals_used = view.redeals_used
    return game


def solve_guess(game: PatienceGame, max_states: int) -> list[Move] | None:
    """The winning line of a guessed deal within ``max_states`` states, or
    None when the search finds none in its budget."""
    from cardtable.solver.patience import solve_game  # the compiled search: loaded when first asked

    # the patience core for every game, Klondike's rules included: the players play as when they were measured
    result = solve_game(game, max_states=max_states, core="patience")
    return list(result.moves) if result.result == "won" and result.moves else None


def judge_guess(game: PatienceGame, max_states: int) -> tuple[str, list[Move]]:
    """The search's word on a guessed deal within ``max_states`` states:
    ``"won"`` with its winning line, ``"lost"`` (proven, no line), or
    ``"unknown"`` when the budget ran out first."""
    from cardtable.solver.patience import solve_game

    result = solve_game(game, max_states=max_states, core="patience")
    if result.result == "won":
        return "won", list(result.moves)
    return ("lost" if result.result == "unwinnable" else "unknown"), []
