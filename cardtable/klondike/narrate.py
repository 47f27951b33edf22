"""A game record told in words, as a careful person would narrate it.

>>> from cardtable.klondike import KlondikeRecord, KlondikeGame, Move, Variant
>>> game = KlondikeGame.from_seed(1, Variant.preset("seed-002"))
>>> game.play(Move.parse("D"))
>>> text = narrate(KlondikeRecord.from_game(game), unicode=False)
>>> print([line for line in text.splitlines() if line.startswith("1.")][0])
1. draw Qc
"""

from __future__ import annotations

from cardtable._text import plural
from cardtable.cards import Card
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import FOUNDATION, STOCK, WASTE, Move
from cardtable.klondike.record import KlondikeRecord
from cardtable.klondike.render import render

__all__ = ["describe_move", "narrate"]


def _cards(cards: list[Card], unicode: bool) -> str:
    return " ".join(c.symbol() if unicode else str(c) for c in cards)


def describe_move(game: KlondikeGame, move: Move, *, unicode: bool = True, seen_only: bool = False) -> str:
    """One legal move in words, as it would be played from ``game``'s position
    (the game is left unchanged). A face-down card the move turns up is named,
    and so are the cards a draw turns up, unless ``seen_only``: then the words
    name only cards the player sees before the move (as a hint must).

    >>> from cardtable.klondike import KlondikeGame, Move, Variant
    >>> game = KlondikeGame.from_seed(1, Variant.preset("draw3"))
    >>> describe_move(game, Move.parse("D"), seen_only=True)
    'draw 3 cards from the stock'
    """
    cards = game.moved_cards(move)
    text = _cards(cards, unicode)
    source, target = move.source, move.target
    if source == STOCK:
        if seen_only:
            return f"draw {plural(len(cards), 'card')} from the stock"
        return f"draw {text}"
    if target == STOCK:
        return f"turn the waste over ({plural(len(cards), 'card')}) to start pass {game.pass_number + 1}"
    if source == WASTE:
        origin = "from the waste"
    elif source == FOUNDATION:
        origin = "from its foundation"
    else:
        origin = f"from pile {source + 1}"
    if target == FOUNDATION:
        where = "to the foundation"
    else:
        top = game.top(target)
        shown = (top.symbol() if unicode else str(top)) if top is not None else None
        where = f"onto {shown} in pile {target + 1}" if shown else f"to the empty pile {target + 1}"
    sentence = f"{text} {origin} {where}"
    if 0 <= source < 7:
        pile = game.tableau[source]
        left = len(pile) - move.count
        if left and game.face_down[source] == left and seen_only:
            sentence += ", turning a card up"
        elif left and game.face_down[source] == left:
            sentence += f", turning up {_cards([pile[left - 1]], unicode)}"
    return sentence


def narrate(record: KlondikeRecord, *, unicode: bool = True, color: bool = False, title: str = "") -> str:
    """The whole game: the layout at the start, each move in words with its
    number (and the money or points as they change), then the final layout
    and the tally."""
    game = KlondikeGame(record.start, record.variant)
    variant = record.variant
    scoring = variant.scoring.kind
    lines = []
    if title:
        lines += [title, "=" * len(title)]
    lines.append(f"Variant: {variant.name} ({variant.describe()})")
    if record.start.is_deal:
        lines.append(f"Deal: {record.start.deal_string()}")
    if scoring == "vegas":
        lines.append(f"The player pays ${variant.scoring.ante} to play: {_money(game.score)}.")
    lines += ["", render(game.position(), unicode=unicode, color=color, passes=variant.passes, draw=variant.draw), ""]
    for number, move in enumerate(record.moves, 1):
        words = describe_move(game, move, unicode=unicode)
        before = game.score
        game.play(move)
        if game.score != before:
            if scoring == "vegas":
                sign = "+" if game.score >= before else "-"
                words += f"  [{sign}${abs(game.score - before)}: {_money(game.score)}]"
            else:
                words += f"  [score {game.score}]"
        lines.append(f"{number}. {words}")
    lines += ["", render(game.position(), unicode=unicode, color=color, passes=variant.passes, draw=variant.draw), ""]
    found = game.foundation_count()
    outcome = "won" if game.is_won() else "lost"
    tally = f"{plural(len(record.moves), 'move')}, {plural(found, 'card')} on the foundations: {outcome}"
    if scoring == "vegas":
        net = game.score
        tally += f". Paid ${variant.scoring.ante}, won ${variant.scoring.winnings(found)}: net {_money(net)}."
    elif scoring == "standard":
        tally += f". Score {game.score}."
    lines.append(tally)
    return "\n".join(lines)


def _money(amount: int) -> str:
    return f"+${amount}" if amount >= 0 else f"-${-amount}"
