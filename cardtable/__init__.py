"""cardtable: play, study and solve solitaire-family card games.

The rules engines (:mod:`cardtable.klondike`, :mod:`cardtable.kings_corner`)
do no I/O, and both speak one game interface (:mod:`cardtable.game`); bots,
the solver, the simulator and the faces (:mod:`cardtable.cli`) are thin
clients of them. Every error a user can cause is a
:class:`cardtable.errors.CardtableError`.
"""

from cardtable.cards import Card, CardError, Colour, Suit, new_deck, shuffled_deck

__version__ = "0.1.0"

__all__ = ["Card", "CardError", "Colour", "Suit", "__version__", "new_deck", "shuffled_deck"]
