"""Kings Corner actions and their notation.

An action is a small immutable value. The notation (case-insensitive when read)::

    play 7h N     play the seven of hearts from the hand onto the north pile
    move W E      move the whole west pile onto the east pile
    draw          end the turn by drawing a card
    pass          end the turn when the deck is empty

Piles are ``N E S W`` (regular) and ``NE SE SW NW`` (corners).

>>> parse_action("play 10h n")
PlayCard(card=Card.parse('Th'), target=<PilePosition.N: 0>)
>>> str(parse_action("move w e"))
'move W E'
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable._text import clip
from cardtable.cards import Card, CardError
from cardtable.kings_corner.errors import ActionNotationError
from cardtable.kings_corner.table import PilePosition

__all__ = ["DRAW", "PASS", "Action", "Draw", "MovePile", "Pass", "PlayCard", "parse_action"]


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` from the hand onto the pile at ``target``."""

    card: Card
    target: PilePosition

    def __str__(self) -> str:
        return f"play {self.card} {self.target.name}"


@dataclass(frozen=True, slots=True)
class MovePile:
    """Move the whole pile at ``source`` onto the pile at ``target``."""

    source: PilePosition
    target: PilePosition

    def __str__(self) -> str:
        return f"move {self.source.name} {self.target.name}"


@dataclass(frozen=True, slots=True)
class Draw:
    """End the turn by drawing the top card of the deck."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without drawing (only when the deck is empty)."""

    def __str__(self) -> str:
        return "pass"


#: Any Kings Corner action.
Action = PlayCard | MovePile | Draw | Pass

DRAW = Draw()
PASS = Pass()


def parse_action(text: str) -> Action:
    """Read an action from its notation; raises :class:`ActionNotationError` naming the text."""
    words = text.split()
    verb = words[0].lower() if words else ""
    try:
        if verb == "play" and len(words) == 3:
            return PlayCard(Card.parse(words[1]), PilePosition.parse(words[2]))
        if verb == "move" and len(words) == 3:
            return MovePile(PilePosition.parse(words[1]), PilePosition.parse(words[2]))
    except (CardError, ActionNotationError) as error:
        reason = str(error) if len(str(error)) <= 160 else str(error)[:159] + "…"
        raise ActionNotationError(f"bad action {clip(text)}: {reason}") from None
    if verb == "draw" and len(words) == 1:
        return DRAW
    if verb == "pass" and len(words) == 1:
        return PASS
    raise ActionNotationError(
        f"unknown action {clip(text)}: write 'play CARD PILE', 'move PILE PILE', 'draw' or 'pass'"
    )
