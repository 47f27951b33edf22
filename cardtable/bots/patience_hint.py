"""A hint in any patience game from the player's view: what the ``expert``
would play now, in words, and how many of its guesses it wins from here.

:func:`patience_hint` guesses and searches as the ``expert`` player
(:class:`~cardtable.bots.patience.ExpertPlayer`) does at a decision, with the
game's history added: it deals the cards the player cannot see (the
face-down cards and the stock) ``samples`` ways that agree with the view
(:func:`~cardtable.bots.patience_hindsight.guess_deal`), solves each guess
with the exact patience search
(:func:`~cardtable.bots.patience_hindsight.solve_guess`) and gives the first
move that wins the most guesses. Unlike the expert it searches each guess
from the position alone (not first after the greedy player's move) and makes
every guess, so that its count of guesses won is the move's own. The
guesses are seeded by what the player sees, so the same table always gets
the same hint. When no guess is won the hint is the ``greedy`` player's
move, and it says so.

A hint never leads back to a position the game has been in, as the player
saw it (the piles' face-up cards and their face-down counts, the redeals
used, and the pass when passes are limited): following hints from the deal
never meets a position twice, so it ends. When every legal move would lead
back, the hint has no move and says that no move makes progress.

The hint reads no face-down card and not the stock's order unless asked to
``peek``: then one search of the real deal gives the next move of a winning
line, said to be a peek.

>>> from cardtable.patience import PatienceGame, get
>>> game = PatienceGame.from_seed(get("golf"), 4)
>>> found = patience_hint(game, samples=4, max_states=2000)
>>> found.move in game.legal_moves(), found == patience_hint(game, samples=4, max_states=2000)
(True, True)
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, replace

from cardtable._text import plural
from cardtable.bots.patience import GreedyPlayer
from cardtable.bots.patience_hindsight import guess_deal, solve_guess
from cardtable.cards import Card, SplitMix64
from cardtable.errors import RulesError
from cardtable.patience.description import Kind
from cardtable.patience.engine import PatienceGame, PatienceView
from cardtable.patience.moves import Move, Place
from cardtable.patience.words import place_words

__all__ = ["HINT_SAMPLES", "HINT_SECONDS", "HINT_STATES", "NO_GUESS_WON", "NO_PROGRESS", "OUT_OF_TIME", "PatienceHint",
           "SeenPosition", "move_words", "patience_hint", "seen_position"]

#: The hint's budget: guessed deals, and the search states for each (a fraction of a second in most games).
HINT_SAMPLES = 8
HINT_STATES = 25_000
#: The faces' cap on a hint's seconds: the budget above takes a fraction of a second, and only a much
#: slower machine meets this cap (then the hint weighs the guesses it made, or falls back to the greedy move).
HINT_SECONDS = 10.0

#: A position as the player sees it (:func:`seen_position`).
SeenPosition = tuple[tuple[tuple[int, tuple[str, ...]], ...], int, int]

#: Why a hint is not the expert's own move (:attr:`PatienceHint.fallback`).
NO_GUESS_WON = "no guess was won"
OUT_OF_TIME = "out of time"
NO_PROGRESS = "no move makes progress"


def seen_position(view: PatienceView) -> SeenPosition:
    """A position as the player sees it: every pile's face-down count and
    face-up cards, the redeals used and, where passes through the stock are
    limited, the pass (with no limit a new pass changes nothing the player
    may do). Two positions with the same key look the same to the player.

    >>> from cardtable.patience import PatienceGame, get
    >>> game = PatienceGame.from_seed(get("klondike"), 1)
    >>> seen_position(game.view()) == seen_position(game.clone().view())
    True
    """
    piles = tuple((pile.face_down, tuple(str(card) for card in pile.cards)) for pile in view.piles)
    passes = view.pass_number if view.description.stock.passes is not None else 0
    return piles, passes, view.redeals_used


def _history(game: PatienceGame) -> tuple[set[SeenPosition], GreedyPlayer]:
    """The positions ``game`` has been in, as the player saw them (the current
    one included), and a greedy player that has seen each of them."""
    greedy = GreedyPlayer()
    replay = PatienceGame(game.description, *game.start, shuffle_seed=game.shuffle_seed)
    met: set[SeenPosition] = set()
    for move in game.moves:
        view = replay.view()
        met.add(seen_position(view))
        greedy.choose(view)
        replay.play(move)
    met.add(seen_position(game.view()))
    return met, greedy


def _may_lead_back(after: SeenPosition, shown: Counter[str], met: set[SeenPosition]) -> bool:
    """Whether the position ``after`` a move, found on a guessed deal, may be
    one the game has been in, the cards the move brings into view being any
    (``shown``: the cards in view before it). A deal from a stock whose order
    the player saw on an earlier pass brings the cards the player remembers,
    back to a position met then; the guess cannot know which they are."""
    piles, passes, redeals = after
    left = Counter(shown)
    blurred: list[tuple[int, list[str | None]]] = []
    for down, cards in piles:
        kept: list[str | None] = []
        for card in cards:
            if left[card] > 0:
                left[card] -= 1
                kept.append(card)
            else:
                kept.append(None)  # a card the move brings into view
        blurred.append((down, kept))
    if all(card is not None for _, kept in blurred for card in kept):
        return False  # it shows no new card: the exact look-up decided
    for position in met:
        other, other_passes, other_redeals = position
        if (other_passes, other_redeals) != (passes, redeals):
            continue
        if all(down == odown and len(kept) == len(ocards) and
               all(card is None or card == ocard for card, ocard in zip(kept, ocards, strict=True))
               for (down, kept), (odown, ocards) in zip(blurred, other, strict=True)):
            return True
    return False


def _seed(view: PatienceView) -> int:
    """The guesses' seed: what the player sees, hashed the same way in every process."""
    text = repr((view.description.rules_key, seen_position(view), view.pass_number))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def move_words(view: PatienceView, move: Move) -> str:
    """``move`` in words before it is played, naming only face-up cards of ``view``.

    >>> from cardtable.patience import PatienceGame, get
    >>> from cardtable.patience.moves import DEAL
    >>> move_words(PatienceGame.from_seed(get("golf"), 3).view(), DEAL)
    'deal from the stock'
    """
    if move.is_deal:
        return "deal from the stock" if view.description.stock.count else "redeal the tableau"
    if move.is_recycle:
        return "turn the waste over"
    assert move.target is not None
    piles = {pile.place: pile.cards for pile in view.piles}

    def top(place: Place, count: int = 1) -> tuple[Card, ...]:
        return piles[place][-count:]

    cards = top(move.source, move.count)
    head = f"the {cards[0].name()}" + (f" and {plural(len(cards) - 1, 'card')} on it" if len(cards) > 1 else "")
    source = place_words(move.source)
    if move.pair is not None:  # two cards of two piles: each named with its own
        source += f" and the {top(move.pair)[0].name()} from {place_words(move.pair)}"
    target = move.target
    if target.kind is Kind.TABLEAU:
        onto = piles[target]
        where = f"onto the {onto[-1].name()} in pile {target.index + 1}" if onto else \
            f"to the empty pile {target.index + 1}"
    else:
        where = f"to {place_words(target, any_foundation='a foundation')}"
    return f"{head} from {source} {where}"


@dataclass(frozen=True, slots=True)
class PatienceHint:
    """A hint: ``move`` (None when no legal move is left, or none makes
    progress), ``words`` for it naming only cards the player sees, the
    ``wins`` among the ``samples`` guesses weighed after it, ``fallback`` when
    the move is the ``greedy`` player's or there is none (why: ``"no guess was
    won"``, ``"out of time"``, ``"no move makes progress"``), ``peek``
    when it comes from the real deal's cards, and ``every_card_seen`` when
    nothing was hidden (the one guess was the deal itself)."""

    move: Move | None
    words: str
    wins: int
    samples: int
    fallback: str | None = None
    peek: bool = False
    every_card_seen: bool = False

    @property
    def chance(self) -> float | None:
        """The estimated chance of winning after the move (None: no guess weighed)."""
        return None if self.samples == 0 or self.fallback else self.wins / self.samples

    def describe(self) -> str:
        """One line for a player: the move in words, then the expert's odds, or why it fell back.

        >>> PatienceHint(None, "", 0, 0).describe()
        'no legal move is left'
        """
        if self.move is None:
            if self.fallback == NO_PROGRESS:
                return f"{NO_PROGRESS}: every legal move leads back to a position this game has been in"
            return "no legal move is left"
        if self.peek or self.every_card_seen:
            how = "peek: " if self.peek else ""
            if self.fallback is None:
                return f"{self.words} ({how}a winning line starts so)"
            return f"{self.words} ({how}no winning line found: the quick greedy move)"
        if self.fallback == OUT_OF_TIME:
            return f"{self.words} (a quick guess: the expert ran out of time)"
        if self.fallback is not None:
            return f"{self.words} ({self.fallback}: the quick greedy move)"
        return f"{self.words}; the expert wins {self.wins} of {plural(self.samples, 'guess', 'guesses')} " \
            f"from here ({self.wins / self.samples:.0%})"

    def to_dict(self) -> dict[str, object]:
        """The hint as plain data."""
        return {"move": None if self.move is None else str(self.move), "words": self.words, "wins": self.wins,
                "samples": self.samples, "chance": self.chance, "fallback": self.fallback, "peek": self.peek,
                "every_card_seen": self.every_card_seen}


def patience_hint(game: PatienceGame, *, samples: int = HINT_SAMPLES, max_states: int = HINT_STATES,
                  seconds: float | None = None, peek: bool = False) -> PatienceHint:
    """The ``expert``'s move in ``game`` from what its player sees (see the
    module documentation): ``samples`` guessed deals of ``max_states`` states
    each (one guess of ``samples * max_states`` states when nothing is
    hidden), no more guesses once ``seconds`` have passed (None: no bound, and
    the same view after the same positions always gets the same hint). With
    ``peek`` it searches the real deal instead, within ``samples * max_states``
    states. The greedy player's move only when no guess is won.

    >>> from cardtable.patience import PatienceGame, get
    >>> patience_hint(PatienceGame.from_seed(get("freecell"), 1), samples=2, max_states=5000).fallback is None
    True
    """
    if samples < 1 or max_states < 1:
        raise RulesError(f"a hint needs samples and max_states of at least 1, not {samples} and {max_states}")
    view = game.view()
    if not view.legal_moves:
        return PatienceHint(None, "", 0, 0)
    met, greedy = _history(game)
    rng = SplitMix64(_seed(view))
    # The moves' results are found on a deal the view alone decides (the real one only when peeking).
    table = game.clone() if peek else guess_deal(view, SplitMix64(0))
    shown = Counter(str(card) for pile in view.piles for card in pile.cards)
    allowed = []
    for move in view.legal_moves:
        table.play(move)
        after = seen_position(table.view())
        table.undo()
        if after in met or (not peek and _may_lead_back(after, shown, met)):
            continue
        allowed.append(move)
    if not allowed:
        return PatienceHint(None, "", 0, 0, NO_PROGRESS, peek)
    hidden = any(pile.face_down for pile in view.piles)
    seen = not hidden
    guesses, budget = (samples, max_states) if hidden and not peek else (1, samples * max_states)
    deadline = None if seconds is None else time.monotonic() + seconds
    votes: Counter[Move] = Counter()
    weighed = 0
    for _ in range(guesses):
        if deadline is not None and weighed and time.monotonic() > deadline:
            break
        line = solve_guess(table if peek else guess_deal(view, rng), budget)
        weighed += 1
        if line and line[0] in allowed:
            votes[line[0]] += 1
    if votes:
        move = max(votes, key=lambda m: votes[m])  # the first of the best, in the order they were found
        return PatienceHint(move, move_words(view, move), votes[move], weighed, None, peek, seen)
    fallback = OUT_OF_TIME if weighed < guesses else NO_GUESS_WON
    move = greedy.choose(replace(view, legal_moves=tuple(allowed))) or allowed[0]
    return PatienceHint(move, move_words(view, move), 0, weighed, fallback, peek, seen)
