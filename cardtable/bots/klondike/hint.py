"""A hint from the player's view: what the ``expert`` would play now, in words,
and how often it wins from here.

:func:`expert_hint` hands the expert (:meth:`ExpertPlayer.advise
<cardtable.bots.klondike.expert.ExpertPlayer.advise>`) only what the player
sees: the game's :class:`~cardtable.klondike.view.KlondikeView` and the order of
the stock as the player saw it when the whole stock last lay in the waste
(:func:`seen_stock`). The expert guesses the rest, seeded by what it sees, so
the same table always gets the same hint, and the words name no card the
player has not seen. The budget is counted in guesses and search states, not
seconds, so a hint does not depend on the machine; a ``seconds`` bound may cap
it, and then the hint says it fell back to the quicker ``greedy`` move.

The all-seeing solver's hint, which knows every card, is
:func:`cardtable.solver.hint`: a peek, to be offered as such.

>>> from cardtable.klondike import KlondikeGame, Variant
>>> game = KlondikeGame.from_seed(3, Variant.preset("draw1"))
>>> found = expert_hint(game, samples=8, max_states=2000)
>>> found == expert_hint(game, samples=8, max_states=2000)
True
>>> found.move in game.legal_moves()
True
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable._text import plural
from cardtable.bots.klondike.expert import Advice, ExpertPlayer
from cardtable.cards import Card
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move
from cardtable.klondike.narrate import describe_move

__all__ = ["HINT_SAMPLES", "HINT_STATES", "ExpertHint", "every_card_seen", "expert_hint", "seen_stock"]

#: The hint's budget: guessed deals, and the search states for each (about a second on one core).
HINT_SAMPLES = 96
HINT_STATES = 50_000


def seen_stock(game: KlondikeGame) -> tuple[Card, ...]:
    """The bottom of ``game``'s stock, bottom first, as far as the player has
    seen its order (:meth:`KlondikeGame.seen_stock
    <cardtable.klondike.KlondikeGame.seen_stock>`, the engine's one rule).

    >>> from cardtable.klondike import KlondikeGame, Move, Variant
    >>> game = KlondikeGame.from_seed(1, Variant.preset("draw3"))
    >>> seen_stock(game)
    ()
    >>> for move in ["D"] * 8 + ["R"]:  # the whole stock drawn, then turned over
    ...     game.play(Move.parse(move))
    >>> seen_stock(game) == tuple(game.stock) and len(seen_stock(game)) == 24
    True
    """
    return game.seen_stock()


def every_card_seen(game: KlondikeGame) -> bool:
    """Whether the player of ``game`` has seen every card where it lies: none
    face down, and the whole stock's order seen on an earlier pass. Only then
    may a verdict that reads the whole deal ("cannot be won") be told to a
    player who does not peek.

    >>> from cardtable.klondike import Variant
    >>> every_card_seen(KlondikeGame.from_seed(7, Variant.preset("draw1")))
    False
    """
    return not any(game.face_down) and game.stock_order_seen()


@dataclass(frozen=True, slots=True)
class ExpertHint:
    """The expert's :class:`~cardtable.bots.klondike.expert.Advice` for a game and
    its move in words (``""`` when no move is legal), naming only seen cards."""

    advice: Advice
    words: str

    @property
    def move(self) -> Move | None:
        """The move to play (None: no legal move is left)."""
        return self.advice.move

    def odds(self) -> str:
        """The estimated chance in words: "wins 61 of 96 guesses from here (64%)"."""
        advice = self.advice
        if advice.chance is None:
            return "weighed no guess in time"
        return f"wins {advice.wins} of {plural(advice.samples, 'guess', 'guesses')} from here ({advice.chance:.0%})"

    def describe(self) -> str:
        """One line for a player: the move, then the expert's odds, and why it fell back when it did."""
        if self.advice.move is None:
            if self.advice.fallback is not None:
                return (f"{self.advice.fallback}: every legal move leads back to a position "
                        "this game has been in, with nothing new to see")
            return "no legal move is left"
        if self.advice.fallback == "out of time":
            return f"{self.words}; a quick guess: the expert ran out of time"
        why = f" ({self.advice.fallback}: the quick greedy move)" if self.advice.fallback else ""
        return f"{self.words}{why}; the expert {self.odds()}"

    def to_dict(self) -> dict[str, object]:
        """The hint as plain data for ``--json``."""
        advice = self.advice
        return {"move": None if advice.move is None else str(advice.move), "words": self.words,
                "wins": advice.wins, "samples": advice.samples, "chance": advice.chance,
                "fallback": advice.fallback}


def expert_hint(game: KlondikeGame, *, samples: int = HINT_SAMPLES, max_states: int = HINT_STATES,
                seconds: float | None = None, unicode: bool = True) -> ExpertHint:
    """The ``expert``'s move from what the player of ``game`` sees (its view and
    :func:`seen_stock`), within ``samples`` guessed deals of ``max_states`` states
    each, and ``seconds`` when given (None: no bound, and the same view after the
    same moves always gets the same hint). The hint never leads back to a
    position the game has been in with nothing new seen
    (:meth:`KlondikeGame.past_knowledge
    <cardtable.klondike.KlondikeGame.past_knowledge>`): when every move would,
    its move is None and it says that no move makes progress. Nor does it put
    the tableau and foundations back as they were at a position met while
    another move, a draw included, leads somewhere new (see
    :meth:`ExpertPlayer.advise <cardtable.bots.klondike.expert.ExpertPlayer.advise>`).

    >>> from cardtable.klondike import KlondikeGame, Move, Variant
    >>> game = KlondikeGame.from_seed(83574, Variant.preset("draw1"))
    >>> for text in "2>3 D 1>F 7>F 7>2 5>3 5>2 5>2 5>3 4>1 5>4 W>4 3>4".split():
    ...     game.play(Move.parse(text))
    >>> expert_hint(game, samples=8, max_states=2000).move == Move.parse("4>3")  # 2♠ back onto 3♦
    False
    >>> game.play(Move.parse("D"))  # nor after a draw: that draw needed no 3>4 before it
    >>> expert_hint(game).move == Move.parse("4>3")
    False
    """
    expert = ExpertPlayer(samples=samples, max_states=max_states, seconds=seconds)
    advice = expert.advise(game.view(), seen_stock(game), game.past_knowledge())
    words = "" if advice.move is None else describe_move(game, advice.move, unicode=unicode, seen_only=True)
    return ExpertHint(advice, words)
