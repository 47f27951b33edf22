"""The Klondike rules engine: a mutable game with a move stack.

The engine does no I/O. It knows the whole layout (face-down cards and the
stock order too); players that must not see them get a
:class:`~cardtable.klondike.view.KlondikeView` instead.

>>> game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
>>> moves = game.legal_moves()
>>> Move.parse("D") in moves
True
>>> game.play(Move.parse("D"))
>>> game.undo()
Move.parse('D')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import Enum
from typing import cast

from cardtable.cards import Card, Suit
from cardtable.errors import IllegalMoveError
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE, Move
from cardtable.klondike.position import PILE_COUNT, Position
from cardtable.klondike.variant import Variant
from cardtable.klondike.view import KlondikeView

__all__ = ["PROGRESS_SEARCH_LIMIT", "IllegalMoveError", "KlondikeGame", "KlondikeOutcome", "counts_as_loss"]

#: States the "no progress possible" check explores before it gives up and
#: calls the game still open.
PROGRESS_SEARCH_LIMIT = 20_000


class KlondikeOutcome(Enum):
    """How a finished game ended."""

    WON = "won"
    NO_MOVES = "lost: no legal move left"
    NO_PROGRESS = "lost: no progress possible"

    @property
    def is_win(self) -> bool:
        return self is KlondikeOutcome.WON


_PILES = range(PILE_COUNT)
#: The kinds of place :meth:`Scoring.after_move` tells apart (tableau piles are the rest).
_PLACE = {WASTE: "waste", FOUNDATION: "foundation"}
# Every move legal_moves can list, built (and checked) once: moves are values.
_TO_FOUNDATION = [Move(i, FOUNDATION) for i in _PILES]
_WASTE_TO_FOUNDATION = Move(WASTE, FOUNDATION)
_WASTE_TO = [Move(WASTE, j) for j in _PILES]
# _RUN[i][j][k] moves k cards from pile i to pile j (None where i == j or k == 0: never read).
_RUN = cast("list[list[list[Move]]]",
            [[[Move(i, j, k) if i != j and k else None for k in range(14)] for j in _PILES] for i in _PILES])
_FROM_FOUNDATION = [[Move(FOUNDATION, j, 1, suit) for j in _PILES] for suit in Suit]


class KlondikeGame:
    """A game of Klondike under one :class:`Variant`.

    ``tableau[i]`` lists pile ``i`` bottom to top and ``face_down[i]`` counts
    its face-down cards (always the bottom ones); ``stock`` and ``waste`` list
    bottom to top (the last card is the top); ``foundation[suit]`` is the top
    rank on that suit's foundation (0 when empty). Treat these as read-only:
    change the game only through :meth:`play`, :meth:`undo` and :meth:`redo`.
    """

    __slots__ = (
        "_redo",
        "_stack",
        "face_down",
        "foundation",
        "pass_number",
        "score",
        "start",
        "stock",
        "tableau",
        "variant",
        "waste",
    )

    def __init__(self, start: Position | None = None, variant: Variant | None = None) -> None:
        self.variant = variant if variant is not None else Variant()
        self.start = start if start is not None else Position.from_seed(0)
        self.start.check_pass_limit(self.variant.passes)  # a pass the variant never reaches is no game
        self.tableau: list[list[Card]] = [list(p) for p in self.start.tableau]
        self.face_down: list[int] = list(self.start.face_down)
        self.stock: list[Card] = list(self.start.stock)
        self.waste: list[Card] = list(self.start.waste)
        self.foundation: list[int] = list(self.start.foundation)
        self.pass_number: int = self.start.pass_number
        self.score: int = self.variant.scoring.initial(sum(self.foundation))
        # Each entry: (move, turned_up, aux, score_before, pass_before); aux is the
        # number of cards drawn, or the suit of a card sent to a foundation.
        self._stack: list[tuple[Move, bool, int, int, int]] = []
        self._redo: list[Move] = []

    # ----- construction ---------------------------------------------------------

    @classmethod
    def from_seed(cls, seed: int, variant: Variant | None = None) -> KlondikeGame:
        """A new game dealt from ``seed`` (see :func:`cardtable.cards.shuffled_deck`)."""
        return cls(Position.from_seed(seed), variant)

    @classmethod
    def from_deal(cls, deal: str, variant: Variant | None = None) -> KlondikeGame:
        """A new game from a deal string."""
        return cls(Position.from_deal(deal), variant)

    def clone(self) -> KlondikeGame:
        """An independent copy, move stack included."""
        other = KlondikeGame.__new__(KlondikeGame)
        other.variant = self.variant
        other.start = self.start
        other.tableau = [list(p) for p in self.tableau]
        other.face_down = list(self.face_down)
        other.stock = list(self.stock)
        other.waste = list(self.waste)
        other.foundation = list(self.foundation)
        other.pass_number = self.pass_number
        other.score = self.score
        other._stack = list(self._stack)
        other._redo = list(self._redo)
        return other

    def position(self) -> Position:
        """The current layout as an immutable :class:`Position` (hashable; equal
        positions compare equal)."""
        return Position(
            tableau=tuple(tuple(p) for p in self.tableau),
            face_down=tuple(self.face_down),
            stock=tuple(self.stock),
            waste=tuple(self.waste),
            foundation=tuple(self.foundation),  # type: ignore[arg-type]
            pass_number=self.pass_number,
        )

    # ----- queries -----------------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return [entry[0] for entry in self._stack]

    @property
    def move_count(self) -> int:
        """How many moves have been played (``len(moves)`` without building the list)."""
        return len(self._stack)

    def moves_from(self, index: int) -> list[Move]:
        """The moves played from the ``index``-th on (0 for every move), oldest first."""
        return [entry[0] for entry in self._stack[index:]]

    @property
    def passes_left(self) -> int | None:
        """Passes through the stock still to come after this one (``None``: unlimited)."""
        if self.variant.passes is None:
            return None
        return self.variant.passes - self.pass_number

    def seen_stock(self) -> tuple[Card, ...]:
        """The bottom of the stock, bottom first, as far as the player has seen
        its order: the cards of the waste at the last moment the whole stock lay
        in the waste (cards leave the stock from the top only, so what lies below
        them keeps that order); empty when that never happened in this game.

        >>> game = KlondikeGame.from_seed(1, Variant.preset("draw3"))
        >>> game.seen_stock()
        ()
        >>> for move in ["D"] * 8 + ["R"]:  # the whole stock drawn, then turned over
        ...     game.play(Move.parse(move))
        >>> game.seen_stock() == tuple(game.stock) and len(game.seen_stock()) == 24
        True
        """
        last: tuple[Card, ...] = ()
        for _, seen in self._replay_seen():
            last = seen
        return last

    def _replay_seen(self) -> Iterator[tuple[KlondikeGame, tuple[Card, ...]]]:
        """Each position of this game, the start first and this one last (one
        game, moved on between yields), with :meth:`seen_stock` there."""
        replay = KlondikeGame(self.start, self.variant)
        order: tuple[Card, ...] = ()
        for entry in [None, *self._stack]:
            if entry is not None:
                replay._apply(entry[0])
            if not replay.stock:
                order = tuple(reversed(replay.waste))
            yield replay, order[:len(replay.stock)]

    def knowledge(self, seen_stock: Sequence[Card] | None = None) -> tuple[object, ...]:
        """What the player knows at this position, as a hashable key: what the
        view shows (the face-up cards, how many lie face down, the stock's
        count, the waste, the foundations, and the pass number where passes are
        counted: with unlimited passes another pass changes nothing) and the
        stock's order as far as seen (:meth:`seen_stock`; ``seen_stock`` gives
        it for a game whose earlier moves are known elsewhere, such as a deal
        guessed from a view). Two positions with the same knowledge offer the
        player the same choices with nothing new to go on; no face-down card
        is in the key.

        >>> game = KlondikeGame.from_seed(1, Variant.preset("draw1"))
        >>> start = game.knowledge()
        >>> for move in ["D"] * 24 + ["R"]:  # a pass to look at the stock: its order is now known
        ...     game.play(Move.parse(move))
        >>> game.knowledge() == start
        False
        >>> for move in ["D"] * 24 + ["R"]:  # another pass, and nothing new is seen
        ...     game.play(Move.parse(move))
        >>> game.knowledge() == game.past_knowledge()[25]
        True
        """
        seen = self.seen_stock() if seen_stock is None else tuple(seen_stock)
        return (tuple(tuple(self.tableau[i][self.face_down[i]:]) for i in range(PILE_COUNT)),
                tuple(self.face_down), len(self.stock), tuple(self.waste), tuple(self.foundation),
                self.pass_number if self.variant.passes is not None else 0, seen)

    def past_knowledge(self) -> list[tuple[object, ...]]:
        """:meth:`knowledge` at each position of this game so far, the start
        first and this position last (moves taken back are not in it)."""
        return [replay.knowledge(seen) for replay, seen in self._replay_seen()]

    def stock_order_seen(self) -> bool:
        """Whether the player has seen the order of every card left in the
        stock (:meth:`seen_stock`): only then may a verdict that reads the
        stock's order be told to a player who does not peek."""
        return len(self.seen_stock()) == len(self.stock)

    def foundation_count(self) -> int:
        """Cards on the foundations."""
        return sum(self.foundation)

    def top(self, pile: int) -> Card | None:
        """The top card of tableau pile ``pile`` (0..6), or None when empty."""
        cards = self.tableau[pile]
        return cards[-1] if cards else None

    def face_up(self, pile: int) -> list[Card]:
        """The face-up cards of pile ``pile``, bottom to top."""
        return self.tableau[pile][self.face_down[pile]:]

    def is_won(self) -> bool:
        """All 52 cards are on the foundations."""
        return sum(self.foundation) == 52

    def moved_cards(self, move: Move) -> list[Card]:
        """The cards a legal move would carry (the drawn cards for a draw,
        bottom one first; the whole waste for a recycle)."""
        if move.source == STOCK:
            n = min(self.variant.draw, len(self.stock))
            return self.stock[len(self.stock) - n:][::-1]
        if move.target == STOCK:
            return list(self.waste)
        if move.source == WASTE:
            return self.waste[-1:]
        if move.source == FOUNDATION:
            assert move.suit is not None
            rank = self.foundation[move.suit]
            return [Card(rank, move.suit)] if rank else []
        return self.tableau[move.source][-move.count:]

    # ----- legal moves ---------------------------------------------------------------

    def _accepts(self, pile: int, card: Card) -> bool:
        cards = self.tableau[pile]
        return self.variant.accepts(cards[-1] if cards else None, card)

    def _to_foundation(self, card: Card) -> bool:
        return self.variant.fits_foundation(card, self.foundation)

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order: tableau to foundation (piles left
        to right), waste to foundation, waste to tableau, tableau to tableau
        (by source pile, then run length, then target), foundation to
        tableau, draw, recycle.

        Moving a whole pile (nothing face down under it) onto an empty pile
        changes nothing and is not listed.
        """
        moves: list[Move] = []
        tableau = self.tableau
        variant = self.variant
        fits, fills_empty, accepts = variant.fits, variant.fills_empty, variant.accepts
        to_foundation, foundation = variant.fits_foundation, self.foundation
        tops = [p[-1] if p else None for p in tableau]
        for i in _PILES:
            top = tops[i]
            if top is not None and to_foundation(top, foundation):
                moves.append(_TO_FOUNDATION[i])
        waste_top = self.waste[-1] if self.waste else None
        if waste_top is not None:
            if to_foundation(waste_top, foundation):
                moves.append(_WASTE_TO_FOUNDATION)
            for j in _PILES:
                if accepts(tops[j], waste_top):
                    moves.append(_WASTE_TO[j])
        for i in _PILES:
            cards = tableau[i]
            size = len(cards)
            down = self.face_down[i]
            up = size - down
            if not up:
                continue
            # Face-up cards always form a run, one rank lower each, so only
            # the card one rank below a target's top can fit it: each target
            # pile admits at most one run length, and the variant decides.
            base = cards[down]
            base_rank = base.rank
            found: list[tuple[int, int]] = []
            for j in _PILES:
                if j == i:
                    continue
                top = tops[j]
                if top is not None:
                    m = base_rank - top.rank + 1  # how far above the run's base the candidate lies
                    if 0 <= m < up:
                        k = up - m
                        if fits(cards[size - k], top):
                            found.append((k, j))
                else:
                    # Moving a whole pile with nothing under it changes nothing.
                    for k in range(1, up + 1 if down else up):
                        if fills_empty(cards[size - k]):
                            found.append((k, j))
            found.sort()
            runs = _RUN[i]
            moves.extend(runs[j][k] for k, j in found)
        if variant.foundation_return:
            for suit in Suit:
                rank = foundation[suit]
                if rank:
                    card = Card(rank, suit)
                    for j in _PILES:
                        if accepts(tops[j], card):
                            moves.append(_FROM_FOUNDATION[suit][j])
        if self.stock:
            moves.append(DRAW)
        elif self.waste and self._may_recycle():
            moves.append(RECYCLE)
        return moves

    def _may_recycle(self) -> bool:
        passes = self.variant.passes
        return passes is None or self.pass_number < passes

    def why_illegal(self, move: Move, *, unicode: bool = False) -> str | None:
        """Why ``move`` is not legal here, or ``None`` when it is; cards are
        named in notation (``3c``), or with ``unicode`` by their suit symbols
        (``3♣``), as a table that shows symbols speaks.

        >>> game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
        >>> game.why_illegal(Move.parse("7>1"), unicode=True)
        'A♣ cannot go on 4♦: a card must be one rank lower than the card it covers'
        """
        source, target, count = move.source, move.target, move.count
        named = Card.symbol if unicode else Card.__str__
        if source == STOCK:
            return None if self.stock else "the stock is empty"
        if target == STOCK:
            if self.stock:
                return "the stock is not empty yet, so the waste cannot be turned over"
            if not self.waste:
                return "the waste is empty, so there is nothing to turn over"
            if not self._may_recycle():
                return (f"no passes left: this variant allows {self.variant.passes} "
                        f"pass{'es' if self.variant.passes != 1 else ''} through the stock")
            return None
        if source == WASTE:
            if not self.waste:
                return "the waste is empty"
            card = self.waste[-1]
        elif source == FOUNDATION:
            assert move.suit is not None
            if not self.variant.foundation_return:
                return "this variant never lets a card come back from a foundation"
            rank = self.foundation[move.suit]
            if not rank:
                return f"the {Suit(move.suit).name.lower()} foundation is empty"
            card = Card(rank, move.suit)
        else:
            cards = self.tableau[source]
            up = len(cards) - self.face_down[source]
            if not cards:
                return f"pile {source + 1} is empty"
            if count > up:
                return (f"pile {source + 1} has {up} face-up card{'s' if up != 1 else ''}, "
                        f"so {count} cannot move")
            if count > 1 and target == FOUNDATION:
                return "only one card at a time goes to a foundation"
            card = cards[-count]
        if target == FOUNDATION:
            if self._to_foundation(card):
                return None
            have = self.foundation[card.suit]
            need = "an ace" if have == 0 else f"the {named(Card(have + 1, card.suit))}"
            return f"{named(card)} cannot go to its foundation: it needs {need} next"
        dest = self.tableau[target]
        if dest:
            top = dest[-1]
            if self.variant.fits(card, top):
                return None
            if card.rank + 1 != top.rank:
                return (f"{named(card)} cannot go on {named(top)}: "
                        "a card must be one rank lower than the card it covers")
            return f"{named(card)} cannot go on {named(top)}: colours must alternate"
        if not self.variant.fills_empty(card):
            return f"pile {target + 1} is empty and only a king (or a run headed by one) may fill it"
        if 0 <= source < PILE_COUNT and count == len(self.tableau[source]):
            return f"moving all of pile {source + 1} onto an empty pile changes nothing"
        return None

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be played now."""
        return self.why_illegal(move) is None

    # ----- playing ----------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a legal move; raises :class:`IllegalMoveError` saying why not otherwise.

        A face-down card left on top of the source pile is turned up as part
        of the move.
        """
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        self._apply(move)
        if self._redo:
            if self._redo[-1] == move:
                self._redo.pop()
            else:
                self._redo.clear()

    def _apply(self, move: Move) -> None:
        """Play a move known to be legal (no checks)."""
        scoring = self.variant.scoring
        score_before, pass_before = self.score, self.pass_number
        turned_up = False
        aux = 0  # cards drawn, or the suit of a card sent to a foundation
        source, target = move.source, move.target
        if source == STOCK:
            aux = min(self.variant.draw, len(self.stock))
            stock, waste = self.stock, self.waste
            for _ in range(aux):
                waste.append(stock.pop())
        elif target == STOCK:
            self.waste.reverse()
            self.stock, self.waste = self.waste, []
            self.pass_number += 1
            self.score = scoring.after_recycle(self.score, self.variant.draw)
        else:
            if source == WASTE:
                cards = [self.waste.pop()]
            elif source == FOUNDATION:
                assert move.suit is not None
                cards = [Card(self.foundation[move.suit], move.suit)]
                self.foundation[move.suit] -= 1
            else:
                pile = self.tableau[source]
                cards = pile[-move.count:]
                del pile[-move.count:]
                if pile and self.face_down[source] == len(pile):
                    self.face_down[source] -= 1
                    turned_up = True
            if target == FOUNDATION:
                aux = cards[0].suit
                self.foundation[aux] += 1
            else:
                self.tableau[target].extend(cards)
            if scoring.kind != "none":
                self.score = scoring.after_move(
                    self.score, source=_PLACE.get(source, "tableau"), target=_PLACE.get(target, "tableau"),
                    turned_up=turned_up)
        self._stack.append((move, turned_up, aux, score_before, pass_before))

    def why_no_undo(self) -> str | None:
        """Why :meth:`undo` may not take back the last move, or ``None`` when it
        may: no move was played, or the variant keeps draws
        (:attr:`Variant.undo_rule`) and the last move drew from the stock (so
        no move before it can be taken back either).

        >>> game = KlondikeGame.from_seed(7, Variant.preset("vegas1"))
        >>> game.play(DRAW)
        >>> game.why_no_undo()
        'Vegas: draws cannot be undone'
        """
        if not self._stack:
            return "no move to undo"
        rule = self.variant.undo_rule
        if rule is not None and self._stack[-1][0].source == STOCK:
            return rule
        return None

    def undo(self) -> Move:
        """Take back the last move and return it; the state is restored exactly
        (a card the move turned up goes back face down). It can be redone.
        With no move to take back, or one the variant keeps
        (:meth:`why_no_undo`), it raises :class:`IllegalMoveError`."""
        reason = self.why_no_undo()
        if reason is not None:
            raise IllegalMoveError(reason)
        return self._undo()

    def _undo(self) -> Move:
        """Take back the last move whatever the variant's undo rule (searches
        that try moves and take them back use this)."""
        move, turned_up, aux, score_before, pass_before = self._stack.pop()
        source, target = move.source, move.target
        if source == STOCK:
            for _ in range(aux):
                self.stock.append(self.waste.pop())
        elif target == STOCK:
            self.stock.reverse()
            self.waste, self.stock = self.stock, []
        else:
            if target == FOUNDATION:
                suit = aux
                cards = [Card(self.foundation[suit], suit)]
                self.foundation[suit] -= 1
            else:
                pile = self.tableau[target]
                cards = pile[-move.count:]
                del pile[-move.count:]
            if source == WASTE:
                self.waste.append(cards[0])
            elif source == FOUNDATION:
                assert move.suit is not None
                self.foundation[move.suit] += 1
            else:
                if turned_up:
                    self.face_down[source] += 1
                self.tableau[source].extend(cards)
        self.score, self.pass_number = score_before, pass_before
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last move taken back; returns it."""
        if not self._redo:
            raise IllegalMoveError("no move to redo")
        move = self._redo[-1]
        self.play(move)
        return move

    @property
    def can_undo(self) -> bool:
        """True when :meth:`undo` may take back the last move (see :meth:`why_no_undo`)."""
        return self.why_no_undo() is None

    @property
    def redo_move(self) -> Move | None:
        """The move :meth:`redo` would play next, or None when there is none."""
        return self._redo[-1] if self._redo else None

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # ----- the end of the game -----------------------------------------------------------

    def key(self) -> tuple[object, ...]:
        """A hashable key of the layout; with unlimited passes the pass number
        is left out, since it changes nothing that can happen."""
        return (
            tuple(tuple(p) for p in self.tableau),
            tuple(self.face_down),
            tuple(self.stock),
            tuple(self.waste),
            tuple(self.foundation),
            self.pass_number if self.variant.passes is not None else 0,
        )

    def progress_possible(self, limit: int = PROGRESS_SEARCH_LIMIT) -> bool | None:
        """Whether any sequence of moves leads to progress: a card turned face
        up, or more cards on the foundations than now.

        Explores every position reachable from this one (the engine knows the
        stock order) until it finds progress (``True``), runs out of positions
        (``False``: the only moves left cycle the stock or shuffle cards back
        and forth), or has seen ``limit`` positions (``None``: not known).
        """
        base_found = sum(self.foundation)
        base_down = sum(self.face_down)
        probe = self.clone()
        probe._stack = []
        seen = {probe.key()}
        frontier = [probe.legal_moves()]
        while frontier:
            moves = frontier[-1]
            if not moves:
                frontier.pop()
                if probe._stack:
                    probe._undo()
                continue
            probe._apply(moves.pop())
            if sum(probe.foundation) > base_found or sum(probe.face_down) < base_down:
                return True
            key = probe.key()
            if key in seen:
                probe._undo()
                continue
            if len(seen) >= limit:
                return None
            seen.add(key)
            frontier.append(probe.legal_moves())
        return False

    def outcome(self, limit: int = PROGRESS_SEARCH_LIMIT) -> KlondikeOutcome | None:
        """How the game has ended, or ``None`` while it goes on.

        ``WON`` with all cards on the foundations; ``NO_MOVES`` when no legal
        move is left; ``NO_PROGRESS`` when moves are left but none can ever
        turn a card up or add to the foundations (see
        :meth:`progress_possible`; a search that reaches ``limit`` positions
        leaves the game open). The outcome follows from what the player sees:
        ``NO_PROGRESS`` waits until the player has seen the order of the
        whole stock (:meth:`stock_order_seen`), for the search reads it, and
        while cards in the stock are unseen, drawing them could still help as
        far as the player knows.
        """
        if sum(self.foundation) == 52:
            return KlondikeOutcome.WON
        if not self.legal_moves():
            return KlondikeOutcome.NO_MOVES
        if self.progress_possible(limit) is False and self.stock_order_seen():
            return KlondikeOutcome.NO_PROGRESS
        return None

    def is_over(self) -> bool:
        """True when :meth:`outcome` is not ``None``."""
        return self.outcome() is not None

    # ----- the shared game interface (cardtable.game.GameState) ------------------------

    @property
    def num_players(self) -> int:
        """Klondike is a one-player game."""
        return 1

    def current_player(self) -> int | None:
        """0 while a move is left and the game is not won, else ``None``.

        (:meth:`is_over` may end the game sooner: when moves are left but
        none can ever make progress.)
        """
        if sum(self.foundation) == 52:
            return None
        # A draw or a recycle is a move: the full list is needed only without them.
        if self.stock or (self.waste and self._may_recycle()):
            return 0
        return 0 if self.legal_moves() else None

    def legal_actions(self) -> list[Move]:
        """The same as :meth:`legal_moves`."""
        return self.legal_moves()

    def returns(self) -> tuple[float, ...]:
        """The score under the variant's scoring (Vegas dollars, or standard
        points); with no scoring, the cards on the foundations."""
        if self.variant.scoring.kind == "none":
            return (float(sum(self.foundation)),)
        return (float(self.score),)

    def view(self, player: int | None = None) -> KlondikeView:
        """What the player sees: the face-up cards, counts of the hidden ones,
        the waste, the foundations and the legal moves (see
        :class:`~cardtable.klondike.view.KlondikeView`)."""
        if player not in (None, 0):
            raise IllegalMoveError(f"Klondike has one player, seat 0, not seat {player}")
        return KlondikeView(
            variant=self.variant,
            face_up=tuple(tuple(self.tableau[i][self.face_down[i]:]) for i in range(PILE_COUNT)),
            face_down=tuple(self.face_down),
            stock_count=len(self.stock),
            waste=tuple(self.waste),
            foundation=tuple(self.foundation),  # type: ignore[arg-type]
            pass_number=self.pass_number,
            legal_moves=tuple(self.legal_moves()),
            moves_played=len(self._stack),
        )

    def action_to_string(self, action: Move) -> str:
        """The move in move notation (``W>F``, ``2>6:3``)."""
        return str(action)

    def parse_action(self, text: str) -> Move:
        """Read a move in move notation (see :mod:`cardtable.klondike.moves`)."""
        return Move.parse(text)


def counts_as_loss(game: KlondikeGame) -> bool:
    """Whether ``game``, left unfinished for another game, counts as a loss in
    a player's statistics (and carries its Vegas result): it does once a move
    has been played and it is not won; a game left before any move (or after
    every move was taken back) does not count at all. Every face asks this one
    rule: the terminal app's new game, ``cardtable play`` starting a new deal
    over a saved game, and the browser table.

    >>> game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
    >>> counts_as_loss(game)
    False
    >>> game.play(DRAW)
    >>> counts_as_loss(game)
    True
    """
    return bool(game._stack) and not game.is_won()
