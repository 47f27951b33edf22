"""Players for every patience game (:mod:`cardtable.patience`): they read
only the player's view, so they play any description and never see a
face-down card.

- ``random``: a legal move drawn uniformly by its seeded generator;
- ``greedy``: a heuristic player that scores every legal move from what the
  view shows and the game's description, and plays the best (ties broken by
  its seeded generator):

  1. a card home (to a foundation or the hole) first; where the hole takes
     cards one rank apart (Golf, Black Hole, TriPeaks), the hole move after
     which the longest run of further hole moves is possible, looking only
     at the face-up cards (:func:`hole_continuation`);
  2. a move that turns a face-down card up (the pile with most face-down
     cards first), or that empties a pile, or lets a card go home next;
  3. a card out of the waste, the reserve or a free cell onto the tableau;
     a run onto a card it extends as a run (Spider's suit), the longer
     the run it joins the better;
  4. the stock's deal (or a redeal, or the waste turned over) when no move
     above is left, ahead of moves that only shift cards around -- until
     a whole pass through the stock has brought no progress: then those
     moves come first;
  5. last, moves that break a run, fill a free cell or an empty pile
     without turning anything up (but filling the one empty pile that
     keeps the stock from dealing comes before shifting cards).

  It never plays a move that leads back to a position it has seen in this
  game (from its view: it remembers every view), so it does not shuttle
  cards back and forth; it stops when only such moves are left, or after
  :data:`STALL` moves in a row that sent no card home and turned no card up.

- ``expert``: guesses the cards it cannot see, solves the guesses with the
  exact solver and plays the move that wins the most of them
  (:class:`ExpertPlayer`).

Nothing here knows a game by name: what a player needs to know of a game
(what fits where, what fills an empty pile, which piles cover which) it
reads from the description.

>>> from cardtable.game import play_out
>>> from cardtable.patience import PatienceGame, get
>>> game = play_out(PatienceGame.from_seed(get("golf"), 4), [make_player("greedy")], max_actions=500)
>>> game.is_over()
True
"""

from __future__ import annotations

from functools import cache

from cardtable.bots.patience_hindsight import guess_deal, solve_guess
from cardtable.cards import Card, SplitMix64, Suit
from cardtable.errors import RulesError
from cardtable.patience.description import Build, Description, Direction, Fill, Kind
from cardtable.patience.engine import PatienceGame, PatienceView, PileView
from cardtable.patience.moves import Move, Place

__all__ = ["LOOKAHEAD", "PLAYERS", "STALL", "VAIN_WAIT", "ExpertPlayer", "GreedyPlayer", "RandomPlayer",
           "hole_continuation", "make_player"]

#: After searches in vain the expert waits for new cards before it searches again: one after the
#: first, two after the second, four after the third, ..., at most this many; and it searches when
#: nothing is hidden any more.
VAIN_WAIT = 8

#: How many moves in a row without progress the greedy player makes before it stops.
STALL = 400

#: How many positions the greedy player's look along the hole's moves visits at most.
LOOKAHEAD = 200

# The scores of the move classes (see the module documentation); their gaps keep the classes apart.
_HOME = 1000
_TURN_UP = 300
_EMPTIES = 120
_FEEDS_HOME = 150
_FROM_RESERVE = 80
_FROM_WASTE = 60
_FROM_CELL = 50
_DEAL = 5
_IDLE_DEAL = -25
_LETS_DEAL = 60
_SWAP = -100
_BREAKS_RUN = -30
_INTO_CELL = -60
_INTO_SPACE = -20
_BACK_FROM_HOME = -200

_DECK = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))

# A position from the player's view: each pile's face-down count and face-up cards.
_Key = tuple[tuple[int, tuple[Card, ...]], ...]


class RandomPlayer:
    """A legal move drawn uniformly at random."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = SplitMix64(seed)

    def new_game(self, seed: int = 0) -> None:
        """Seed the generator for a new game."""
        self._rng = SplitMix64(seed)

    def choose(self, view: PatienceView) -> Move | None:
        """A legal move, or None when none is left."""
        moves = view.legal_moves
        return moves[self._rng.below(len(moves))] if moves else None


@cache
def _fitting(build: Build, onto: Card) -> frozenset[Card]:
    """The cards ``build`` lets go on ``onto``."""
    return frozenset(card for card in _DECK if build.fits(card, onto))


@cache
def _of_rank(rank: int) -> frozenset[Card]:
    return frozenset(card for card in _DECK if card.rank == rank)


def _key(view: PatienceView) -> _Key:
    return tuple((pile.face_down, pile.cards) for pile in view.piles)


def _covered(description: Description, counts: list[int], pile: int) -> bool:
    """Whether tableau pile ``pile`` lies under a pile that holds cards (``counts``: cards a pile)."""
    covers = description.tableau.covers
    return covers is not None and pile < len(covers) and any(counts[p] for p in covers[pile])


def hole_continuation(view: PatienceView, limit: int = LOOKAHEAD) -> int:
    """The most moves to the hole that can follow one another from the
    position ``view`` shows, playing only cards that are face up now (a
    card turned up on the way is unknown, so the look stops there); at most
    ``limit`` positions are visited. 0 in a game without a hole, or one whose
    hole takes pairs.

    >>> from cardtable.patience import PatienceGame, get
    >>> hole_continuation(PatienceGame.from_seed(get("black-hole"), 1).view()) > 0
    True
    """
    d = view.description
    if not d.hole.count or d.hole_pairs is not None:
        return 0
    hole = next(p for p in view.piles if p.place.kind is Kind.HOLE)
    if not hole.cards:
        return 0
    sources = [p for p in view.piles if p.place.kind in (Kind.TABLEAU, Kind.CELL, Kind.RESERVE, Kind.WASTE)]
    tableau = [p.place.kind is Kind.TABLEAU for p in sources]
    counts = [len(p) for p in sources]
    visible = [len(p.cards) for p in sources]  # face-up cards still to play, from each pile's top
    fits = d.hole_build.fits
    budget = [limit]
    best = [0]

    def search(top: Card, depth: int) -> None:
        best[0] = max(best[0], depth)
        for i, pile in enumerate(sources):
            if budget[0] <= 0:
                return
            if not visible[i] or (tableau[i] and _covered(d, counts, pile.place.index)):
                continue
            card = pile.cards[visible[i] - 1]
            if not fits(card, top):
                continue
            budget[0] -= 1
            visible[i] -= 1
            counts[i] -= 1
            search(card, depth + 1)
            visible[i] += 1
            counts[i] += 1

    search(hole.cards[-1], 0)
    return best[0]


class GreedyPlayer:
    """A heuristic player for every description (see the module documentation)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.new_game(seed)

    def new_game(self, seed: int = 0) -> None:
        """Forget the last game and seed the tie-breaks."""
        self._rng = SplitMix64(seed)
        self._seen: set[_Key] = set()
        self._progress: tuple[int, int] = (-1, -1)
        self._stalled = 0
        self._idle_passes = 0  # the waste turned over since the last progress

    def choose(self, view: PatienceView) -> Move | None:
        """The best-scored legal move, or None to stop (see the module documentation)."""
        moves = view.legal_moves
        if not moves:
            return None
        home = sum(len(p) for p in view.piles if p.place.kind in (Kind.FOUNDATION, Kind.HOLE))
        hidden = sum(p.face_down for p in view.piles)  # the stock's cards too: a deal brings cards into play
        progress = (home, -hidden)
        if progress > self._progress:
            self._stalled = self._idle_passes = 0
        else:
            self._stalled += 1
        self._progress = max(progress, self._progress)
        if self._stalled >= STALL:
            return None
        self._seen.add(_key(view))
        scorer = _Scorer(view, self._seen, stock_idle=self._idle_passes > 0)
        best_score: float | None = None
        ties: list[Move] = []
        for move in moves:
            score = scorer.score(move)
            if score is None:
                continue
            if best_score is None or score > best_score:
                best_score, ties = score, [move]
            elif score == best_score:
                ties.append(move)
        if not ties:
            return None  # every move leads back to a position seen before
        move = ties[self._rng.below(len(ties))]
        if move.is_recycle:
            self._idle_passes += 1
        return move


class _Scorer:
    """The scores of one view's moves (see the module documentation)."""

    def __init__(self, view: PatienceView, seen: set[_Key], *, stock_idle: bool = False) -> None:
        self.view = view
        # once a whole pass through the stock brought nothing, moves that only shift cards come first
        self.deal_score = _IDLE_DEAL if stock_idle else _DEAL
        self.d = view.description
        self.base = view.foundation_base or 1  # what a tableau rule counting ranks from the base reads
        self.seen = seen
        self.index = {pile.place: i for i, pile in enumerate(view.piles)}
        self.piles = view.piles
        self.home_takes = self._home_takes()
        hole = self.d.hole
        stock = next((p for p in self.piles if p.place.kind is Kind.STOCK), None)
        spaces = sum(1 for p in self.piles if p.place.kind is Kind.TABLEAU and not len(p))
        #: The stock holds cards but may not deal while this one pile is empty (Spider).
        self.deal_waits = self.d.stock.needs_no_empty_pile and stock is not None and bool(len(stock)) and spaces == 1
        self.looks_ahead = bool(hole.count) and self.d.hole_pairs is None and \
            self.d.hole_build.direction is not Direction.MATCH

    def _home_takes(self) -> set[Card] | None:
        """The cards some foundation takes now (None: any card, a foundation
        waiting for its first card of a free base)."""
        f = self.d.foundations
        if not f.count or f.complete_runs:
            return set()
        base = self.view.foundation_base
        takes: set[Card] = set()
        for pile in self.piles:
            if pile.place.kind is not Kind.FOUNDATION:
                continue
            if pile.cards:
                takes.update(_fitting(f.build, pile.cards[-1]))
            elif base is None:
                return None
            else:
                takes.update(_of_rank(base))
        return takes

    def _goes_home(self, card: Card) -> bool:
        return self.home_takes is None or card in self.home_takes

    def pile(self, place: Place) -> PileView:
        return self.piles[self.index[place]]

    def score(self, move: Move) -> float | None:
        """The move's score, or None for a move back to a position seen before."""
        if move.is_deal:
            return self.deal_score
        if move.is_recycle:
            return self.deal_score - 1
        target = move.target
        assert target is not None
        source = self.pile(move.source)
        left = len(source.cards) - move.count  # face-up cards left on the source
        turns_up = left == 0 and source.face_down > 0
        empties = left == 0 and source.face_down == 0
        score = 0.0
        if turns_up:
            score += _TURN_UP + 5 * source.face_down
        elif empties and move.source.kind is Kind.TABLEAU:
            score += _EMPTIES if self.d.tableau.empty is not Fill.NONE or self.d.tableau.covers else _EMPTIES // 2
        if left > 0 and target.kind is not Kind.FOUNDATION and self._goes_home(source.cards[left - 1]):
            score += _FEEDS_HOME
        if target.kind in (Kind.FOUNDATION, Kind.HOLE):
            score += _HOME
            if target.kind is Kind.HOLE and self.looks_ahead:
                # then from the tallest pile: the cards left spread over more piles
                score += 10 * self._after_hole(move) + len(source) / 10
            return score
        if self._repeats(move, source, left):
            return None
        kind = move.source.kind
        if kind is Kind.FOUNDATION:
            return score + _BACK_FROM_HOME
        if target.kind is Kind.CELL:
            return score + _INTO_CELL
        if kind is Kind.RESERVE:
            score += _FROM_RESERVE
        elif kind is Kind.WASTE:
            score += _FROM_WASTE
        elif kind is Kind.CELL:
            score += _FROM_CELL
        moved = source.cards[left]
        onto = self.pile(target)
        if empties and kind is Kind.TABLEAU and target.kind is Kind.TABLEAU and not len(onto):
            return _SWAP  # a whole pile into an empty one: only which pile is empty changes
        run = self.d.tableau.run_rule
        if onto.cards:
            if run.fits(moved, onto.cards[-1], self.base):
                score += 10 + self._run_below(onto)  # a longer run, the longer the better
        elif not turns_up:
            score += _INTO_SPACE
            if self.deal_waits and left + source.face_down > 0:
                score += _LETS_DEAL
        if kind is Kind.TABLEAU and left > 0 and run.fits(moved, source.cards[left - 1], self.base) and not turns_up:
            score += _BREAKS_RUN  # the cards already lie on a card they follow
        return score

    def _run_below(self, pile: PileView) -> int:
        """How many top cards of ``pile`` form a run (by the run rule)."""
        run = self.d.tableau.run_rule
        cards = pile.cards
        length = 1 if cards else 0
        while length < len(cards) and run.fits(cards[-length], cards[-length - 1], self.base):
            length += 1
        return length

    def _repeats(self, move: Move, source: PileView, left: int) -> bool:
        """Whether ``move`` leads to a position seen before. A move that turns
        a card up, or after which the game moves cards by itself (an empty
        pile filled from the reserve), leads somewhere new."""
        if left == 0 and source.face_down:
            return False
        if left == 0 and self.d.tableau.empty is Fill.RESERVE and move.source.kind is Kind.TABLEAU:
            return False
        target = move.target
        assert target is not None
        piles = list((p.face_down, p.cards) for p in self.piles)
        moved = source.cards[left:]
        s = self.index[move.source]
        t = self.index[target]
        piles[s] = (source.face_down, source.cards[:left])
        down, cards = piles[t]
        piles[t] = (down, cards + moved)
        return tuple(piles) in self.seen

    def _after_hole(self, move: Move) -> int:
        """The continuation along the hole after ``move`` (see :func:`hole_continuation`)."""
        s = self.index[move.source]
        h = self.index[move.target] if move.target is not None else s
        source, hole = self.piles[s], self.piles[h]
        card = source.cards[-1]
        piles = list(self.piles)
        piles[s] = PileView(source.place, source.face_down, source.cards[:-1])
        piles[h] = PileView(hole.place, hole.face_down, (*hole.cards, card))
        after = PatienceView(self.d, tuple(piles), self.view.pass_number, (), self.view.moves_played + 1,
                             self.view.redeals_used)
        return hole_continuation(after)


class ExpertPlayer:
    """The exact solver's player, from the view alone: it deals the cards it
    cannot see (the face-down cards and the stock) ``samples`` ways that
    agree with everything it sees (:meth:`~cardtable.patience.PatienceView.hidden_cards`,
    from its seeded generator), solves each guess with
    :func:`cardtable.solver.patience.solve_game` within ``max_states``
    states, and plays the first move that wins the most guesses. Each guess
    is first searched after the greedy player's move (the move a guess wins
    is the first of whichever winning line the search happens to meet first;
    among the moves that keep a guess winnable the greedy player's is the
    better bet on the cards the guess got wrong), and only when that is not
    won from the position itself; guessing stops as soon as the guesses left
    cannot change the move. It follows the chosen guess's winning line while
    no card is turned up or dealt and the line's next move is legal, then
    guesses again. With no guess won it plays the greedy player's moves
    until a card it has never seen comes into view (turned up, or dealt from
    the stock for the first time) or a redeal lays the cards out anew: until
    then it knows nothing new, so it does not search again (a search that
    wins no guess spends the whole budget, and the stock's cards come round
    again and again in a game with redeals). After searches in vain in a
    row it waits for more new cards (1, 2, 4, ... up to :data:`VAIN_WAIT`)
    before the next: a guess that many cards short of a win is seldom won
    one card later.

    In a game with nothing hidden one guess is the deal itself, and it is
    searched once, with the whole budget of a decision (``samples *
    max_states`` states): the expert wins every deal the solver wins within
    that budget, and plays the greedy player's game on the others.
    """

    name = "expert"
    #: Raised whenever a change makes the expert choose other moves at the same budget: a record of
    #: its games (``benchmarks/patience_bots.py --checkpoint``) is reused only at the same revision.
    #: 3: the winning lines it follows no longer come back to a position (the cores cut their loops).
    #: 4: in Seahaven Towers and Eight Off a card in a cell goes onto the card it builds on at once
    #: (the search's cell_onto), and the lines it follows there change with it.
    #: 5: in Spider's games the search weighs a deal and a build out of suit more (W_STOCK and W_MIXED
    #: in _pcore.c), and finds other lines there.
    revision = 5

    def __init__(self, seed: int = 0, samples: int = 6, max_states: int = 20_000) -> None:
        if samples < 1 or max_states < 1:
            raise RulesError(f"the expert needs samples and max_states of at least 1, not {samples} and {max_states}")
        self.samples = samples
        self.max_states = max_states
        self.new_game(seed)

    def new_game(self, seed: int = 0) -> None:
        """Forget the last game and seed the guesses."""
        self._rng = SplitMix64(seed)
        self._greedy = GreedyPlayer(seed)
        self._plan: list[Move] = []
        self._hidden = -1  # the hidden cards at the last search (-1: none yet)
        self._least = -1  # the fewest hidden cards seen in this game: fewer, a card never seen is in view
        self._redeals = 0  # the redeals used at the last search: one more shows a new layout
        self._vain = 0  # the searches in a row that won no guess

    def choose(self, view: PatienceView) -> Move | None:
        """The move that wins the most guesses, or the greedy player's."""
        fallback = self._greedy.choose(view)  # it sees every view, so its memory of positions stays whole
        legal = view.legal_moves
        if len(legal) <= 1:
            return legal[0] if legal else None
        hidden = sum(pile.face_down for pile in view.piles)
        if hidden == self._hidden and self._plan and self._plan[0] in legal:
            return self._plan.pop(0)
        if self._vain and view.redeals_used == self._redeals and \
                (hidden >= self._least or 0 < hidden > self._least - min(2 ** (self._vain - 1), VAIN_WAIT)):
            return fallback
        votes: dict[Move, int] = {}
        lines: dict[Move, list[Move]] = {}
        guesses, budget = (self.samples, self.max_states) if hidden else (1, self.samples * self.max_states)
        for made in range(1, guesses + 1):
            guess = guess_deal(view, self._rng)
            line = _line_after(guess, fallback, budget) if hidden else None
            line = line or solve_guess(guess, budget)
            if line:
                first = line[0]
                votes[first] = votes.get(first, 0) + 1
                lines.setdefault(first, line)
                if _decided(votes, guesses - made):
                    break
        self._hidden = hidden
        self._least = hidden if self._least < 0 else min(self._least, hidden)
        self._redeals = view.redeals_used
        self._vain = 0 if votes else self._vain + 1
        if not votes:
            self._plan = []
            return fallback
        most = max(votes.values())
        # of the moves that win the most guesses, the greedy player's, else the first found
        move = fallback if fallback is not None and votes.get(fallback) == most \
            else next(m for m in votes if votes[m] == most)
        self._plan = lines[move][1:]
        return move


def _line_after(guess: PatienceGame, move: Move | None, budget: int) -> list[Move] | None:
    """A winning line of ``guess`` that starts with ``move``, or None when the
    search finds none within ``budget`` states."""
    if move is None:
        return None
    after = guess.clone()
    after.play(move)
    rest = [] if after.is_won() else solve_guess(after, budget)
    return None if rest is None else [move, *rest]


def _decided(votes: dict[Move, int], left: int) -> bool:
    """Whether the move with the most ``votes`` keeps the lead whatever the
    ``left`` guesses still to be made win (then they need not be made)."""
    best, second = sorted([*votes.values(), 0], reverse=True)[:2]
    return best > second + left


#: The players by name.
PLAYERS: dict[str, type[RandomPlayer] | type[GreedyPlayer] | type[ExpertPlayer]] = {
    "random": RandomPlayer, "greedy": GreedyPlayer, "expert": ExpertPlayer}


def make_player(name: str, seed: int = 0) -> RandomPlayer | GreedyPlayer | ExpertPlayer:
    """A player by name (``random``, ``greedy`` or ``expert``), seeded."""
    try:
        return PLAYERS[name](seed)
    except KeyError:
        raise RulesError(f"unknown patience player {name!r}: choose {', '.join(PLAYERS)}") from None
