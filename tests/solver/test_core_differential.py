"""Klondike's compiled core (:mod:`cardtable.solver._ccore`, on the rules
library ``klondike.h``) against the rules engine, on random positions in all
24 rule combinations.

For each position reached by random play in the engine:

- the core's plain moves equal the engine's legal moves, and playing each one
  in the core gives the engine's next position;
- the core's search moves (draws compressed, one empty pile per target) are
  exactly the engine's moves with every waste top reachable by drawing and
  recycling, and each one, expanded to engine moves, is legal and lands on the
  position the core computes;
- along every winning line a search finds, the array state after each move
  code and the safe moves the core's ``autoplay`` finds after it is the
  engine's position, and the core's ``line_moves`` writes out the very moves
  the engine replay plays, for the depth-first and the best-first search;
- the fill and pair rules never change a verdict, and a line the rules do not
  allow is refused;
- the deal of a seed is the engine's deal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from cardtable.cards import Card, Suit
from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE, interned
from cardtable.klondike.position import PILE_COUNT
from cardtable.solver import _ccore
from cardtable.solver._state import (
    DOWN,
    FILL_FLAG,
    FILL_SHIFT,
    HOME_FLAG,
    LEN,
    LOC_FOUNDATION,
    PAIR_FLAG,
    PAIR_FOUNDATION,
    PAIR_SUIT_SHIFT,
    PASS,
    PILE_CAP,
    SRC_TALON,
    TALON,
    TLEN,
    V_DRAW,
    V_FILL,
    V_PAIR,
    V_PASSES,
    WP,
    decode,
    pack,
    params,
    plain_move,
    state_bytes,
    unpack,
)
from cardtable.solver.search import _BestSearch, _Search, line_moves, solve

# The engine-side replay of a search line: what the core's line_moves must
# write out, played move by move in the rules engine.


def _play_safe_moves(game: KlondikeGame, marks: list[int]) -> None:
    """Play in ``game`` the safe foundation moves the core logged (a pile
    index each, or ``TALON_MARK + card`` for a talon card)."""
    for mark in marks:
        if mark >= _ccore.TALON_MARK:
            _play_from_talon(game, Card.from_index(mark - _ccore.TALON_MARK), FOUNDATION)
        else:
            game.play(interned(mark, FOUNDATION))


def _play_code(game: KlondikeGame, code: int) -> None:
    """Play one core move code in ``game``: a talon move draws (recycling at
    most once) until its card is the waste top, then plays it."""
    src, dst, count, card, recycle = unpack(code)
    target = FOUNDATION if dst == LOC_FOUNDATION else dst
    if code & FILL_FLAG:  # first the whole of the pile it fills moves onto another pile
        game.play(interned(dst, (code >> FILL_SHIFT) & 7, len(game.tableau[dst])))
    if src == LOC_FOUNDATION:
        game.play(interned(FOUNDATION, target, 1, Card.from_index(card).suit))
    elif src != SRC_TALON:
        game.play(interned(src, target, count))
        if code & HOME_FLAG:  # then the card it uncovers goes home
            game.play(interned(src, FOUNDATION))
    else:
        draw = DRAW
        if recycle:
            while game.stock:
                game.play(draw)
            game.play(RECYCLE)
        want = Card.from_index(card)
        while not game.waste or game.waste[-1] is not want:
            game.play(draw)  # raises if the stock runs out: a core bug
        game.play(interned(WASTE, target))
        if code & PAIR_FLAG:  # then the builder goes onto the card
            builder = (code >> FILL_SHIFT) & 7
            if builder == PAIR_FOUNDATION:
                game.play(interned(FOUNDATION, dst, 1, Suit((code >> PAIR_SUIT_SHIFT) & 3)))
            else:
                game.play(interned(builder, dst, count))
                if code & HOME_FLAG:
                    game.play(interned(builder, FOUNDATION))


def _play_from_talon(game: KlondikeGame, card: Card, target: int) -> None:
    """Draw (recycling when the stock runs out) until ``card`` is the waste top, then play it."""
    draw, recycle = DRAW, RECYCLE
    for _ in range(3 * 52):
        if game.waste and game.waste[-1] is card:
            game.play(interned(WASTE, target))
            return
        game.play(draw if game.stock else recycle)
    raise AssertionError(f"solver bug: {card} never reached the waste top")


def _finish(game: KlondikeGame) -> None:
    """Win a game with no face-down card whose talon cards are all reachable:
    play the lowest card left each time (it is a pile top or in the talon)."""
    draw, recycle = DRAW, RECYCLE
    while not game.is_won():
        lowest = min((c for pile in game.tableau for c in pile), key=lambda c: c.rank, default=None)
        talon_low = min(list(game.stock) + list(game.waste), key=lambda c: c.rank, default=None)
        if talon_low is not None and (lowest is None or talon_low.rank < lowest.rank):
            lowest = talon_low
        assert lowest is not None
        for i, pile in enumerate(game.tableau):
            if pile and pile[-1] is lowest:
                game.play(interned(i, FOUNDATION))
                break
        else:
            while not game.waste or game.waste[-1] is not lowest:
                game.play(draw if game.stock else recycle)
            game.play(interned(WASTE, FOUNDATION))


GAMES = 40  # random games per variant in the long sweep (slow); every other position met is checked
QUICK_GAMES = 12  # the first of them, in the default suite (at least 15 positions a game in each variant)

VARIANTS = Variant.every()


def _random_positions(variant: Variant, games: int, seed: int) -> list[KlondikeGame]:
    rng = random.Random(seed)
    found = []
    for g in range(games):
        game = KlondikeGame(Position.from_seed(seed * 1000 + g), variant)
        for _ in range(rng.randrange(0, 150)):
            moves = game.legal_moves()
            if not moves:
                break
            # favour progress so that positions deep into the game appear too
            good = [m for m in moves if m.target == FOUNDATION or m.source == WASTE]
            game.play(rng.choice(good) if good and rng.random() < 0.5 else rng.choice(moves))
            if rng.random() < 0.5:
                found.append(game.clone())
        found.append(game)
    return found


def _core_moves(state: bytes, v: tuple[int, ...], plain: bool) -> list[int]:
    return [code for code, _ in _ccore.generate(state, v, plain)]


def _target_kind(game: KlondikeGame, target: int) -> object:
    if target == FOUNDATION:
        return "F"
    return target if game.tableau[target] else "empty"


def _safe(game: KlondikeGame, rank: int, suit: int, wide: bool = False) -> bool:
    """The documented safe-move rule (foundation return variant), or the wide
    rule: other colour at ``rank - 2``, the twin at ``rank - 3``."""
    red = suit in (1, 2)
    others = (0, 3) if red else (1, 2)
    gap = 2 if wide else 1
    return rank <= 2 or (all(game.foundation[o] >= rank - gap for o in others)
                         and game.foundation[3 - suit] >= rank - gap - 1)


def _king_waiting(game: KlondikeGame) -> bool:
    if game.variant.empty == "any":
        return True
    if any(c.rank == 13 for c in list(game.stock) + list(game.waste)):
        return True
    if any(down and pile[down].rank == 13 for pile, down in zip(game.tableau, game.face_down, strict=True)):
        return True
    return game.variant.foundation_return and 13 in game.foundation


def _host_at_hand(game: KlondikeGame, card: object) -> bool:
    """Some card of rank one lower and the other colour is face up, in the talon or on a foundation."""
    wanted = {(c.rank, c.colour) for pile, down in zip(game.tableau, game.face_down, strict=True)
              for c in pile[down:]}
    wanted |= {(c.rank, c.colour) for c in list(game.stock) + list(game.waste)}
    if game.variant.foundation_return:
        from cardtable.cards import Card, Suit

        wanted |= {(r, Card(r, s).colour) for s in Suit for r in range(1, game.foundation[s] + 1)}
    return (card.rank - 1, 1 - card.colour) in wanted  # type: ignore[attr-defined]


def _onto_higher_twin(game: KlondikeGame, move: Move) -> bool:
    """The move puts a waste card, a foundation card or a pile's whole face-up
    run onto a pile top whose twin (the same rank and colour) tops a lower
    pile that the move takes nothing from: the same move there makes a child
    of the same key, and the search makes that one only."""
    target = move.target
    if not 0 <= target <= 6 or not game.tableau[target]:
        return False
    if 0 <= move.source <= 6 and move.count < len(game.tableau[move.source]) - game.face_down[move.source]:
        return False  # part of a run, moved so that the card it uncovers goes home: a move of its own
    top = game.tableau[target][-1]
    return any(game.tableau[j] and game.tableau[j][-1].rank == top.rank and game.tableau[j][-1].colour == top.colour
               for j in range(target) if j != move.source)


def _pruned(game: KlondikeGame, move: Move, wide: bool = False, twins: bool = True) -> bool:
    """Moves the search leaves out by its documented rules: a partial run
    moved onto a pile when the card it uncovers cannot go home; a whole pile
    emptied with kings only and no king ready; a foundation card brought back
    that autoplay would send straight home; with a free talon (draw 1,
    unlimited passes), a waste card put on the tableau that nothing could
    use, and else a waste card put on the tableau that autoplay would send
    straight home; and (``twins``) a move onto the higher of two twin pile
    tops."""
    if twins and _onto_higher_twin(game, move):
        return True
    if move.source == FOUNDATION:
        return _safe(game, game.foundation[move.suit], move.suit, wide)
    if move.source == WASTE and move.target != FOUNDATION:
        free = game.variant.draw == 1 and game.variant.passes is None
        if _pairs(game, wide) and game.tableau[move.target] and not _built_from_talon(game, game.waste[-1]):
            return True  # the pair rule: only with the move that builds on it (see _pair_macros)
        card = game.waste[-1]
        safe = _safe(game, card.rank, card.suit, True) if wide else \
            game.variant.safe_to_foundation(card, game.foundation)
        if not free and game.foundation[card.suit] + 1 == card.rank and safe:
            return True  # it goes home only: onto a pile autoplay would send it home at once
        return free and not _host_at_hand(game, game.waste[-1])
    if 0 <= move.source <= 6 and move.target != FOUNDATION and game.tableau[move.target]:
        pile = game.tableau[move.source]
        if move.count < len(pile) - game.face_down[move.source]:
            under = pile[-move.count - 1]
            return game.foundation[under.suit] + 1 != under.rank
        if move.count == len(pile):
            # with the fill rule a whole pile moves only with the king that fills it (see _fill_macros)
            return _fills(game, wide) or not _king_waiting(game)
    return False


def _pairs(game: KlondikeGame, wide: bool) -> bool:
    """Whether the search plays by the pair rule here: it does with ``wide``
    when the talon is free (draw 1, unlimited passes)."""
    return wide and game.variant.draw == 1 and game.variant.passes is None


def _built_from_talon(game: KlondikeGame, card: Card) -> bool:
    """Some talon card, or the lowest card of a pile with no face-down card,
    could be built on ``card``: then it goes to a pile top alone under the
    pair rule."""
    lowest = [pile[0] for pile, down in zip(game.tableau, game.face_down, strict=True) if pile and not down]
    return any(c.rank == card.rank - 1 and c.colour != card.colour
               for c in list(game.stock) + list(game.waste) + lowest)


def _pair_macros(game: KlondikeGame, wide: bool) -> set[tuple[object, ...]]:
    """The pair rule's moves, worked out in the engine: each waste card (after
    any draws) that goes to a pile top, when no talon card or whole pile could
    be built on it, followed at once by each move the search would make that
    builds on it, from a pile or a foundation, as ("pair", card, pile, the
    builder's source, its cards or suit)."""
    out: set[tuple[object, ...]] = set()
    if not _pairs(game, wide):
        return out
    for g in _talon_closure(game):
        for move in g.legal_moves():
            if move.source != WASTE or move.target in (FOUNDATION, STOCK) or not g.tableau[move.target]:
                continue
            card = g.waste[-1]
            if _built_from_talon(g, card):
                continue
            placed = g.clone()
            placed.play(move)
            for builder in placed.legal_moves():
                # (the pair's two moves are one step: the builder goes onto the card just placed)
                if builder.target != move.target or _pruned(placed, builder, wide, twins=False):
                    continue
                if 0 <= builder.source <= 6:
                    out.add(("pair", str(card), move.target, builder.source, builder.count))
                elif builder.source == FOUNDATION:
                    out.add(("pair", str(card), move.target, ("F", builder.suit)))
    return out


def _fills(game: KlondikeGame, wide: bool) -> bool:
    """Whether the search plays by the fill rule here: it does with ``wide``
    (solve's default) when only kings fill empty piles."""
    return wide and game.variant.empty == "king"


def _fill_macros(game: KlondikeGame, wide: bool) -> set[tuple[object, ...]]:
    """The fill rule's moves, worked out in the engine: when no pile is empty,
    each whole pile moved onto another pile followed at once by a king moved
    into it (a king lowest face up on face-down cards, one the waste can
    play after any draws and recycles, or one on a foundation), as
    ("fill", pile, target, cards, the king's source, and its cards or card)."""
    out: set[tuple[object, ...]] = set()
    if not _fills(game, wide) or not all(game.tableau):
        return out
    for move in game.legal_moves():
        if not (0 <= move.source <= 6 and 0 <= move.target <= 6):
            continue
        if game.face_down[move.source] or move.count != len(game.tableau[move.source]):
            continue
        emptied = game.clone()
        emptied.play(move)
        head = ("fill", move.source, move.target, move.count)
        for king in emptied.legal_moves():
            if king.target != move.source:
                continue
            if 0 <= king.source <= 6:
                out.add((*head, king.source, king.count))
            elif king.source == FOUNDATION and not _pruned(emptied, king, wide):
                out.add((*head, ("F", king.suit)))
        for g in _talon_closure(emptied):
            for king in g.legal_moves():
                if king.source == WASTE and king.target == move.source and not _pruned(g, king, wide):
                    out.add((*head, "W", str(g.waste[-1])))
    return out


def _talon_closure(game: KlondikeGame) -> list[KlondikeGame]:
    """The game after every sequence of draws and recycles (one for each
    waste length and, with a pass limit, pass)."""
    seen = set()
    found = []
    frontier = [game.clone()]
    while frontier:
        g = frontier.pop()
        key = (len(g.waste), g.pass_number if g.variant.passes is not None else 0)
        if key in seen:
            continue
        seen.add(key)
        found.append(g)
        for move in g.legal_moves():
            if move.source == STOCK or move.target == STOCK:
                nxt = g.clone()
                nxt.play(move)
                frontier.append(nxt)
    return found


def _engine_macros(game: KlondikeGame, wide: bool = False) -> set[tuple[object, ...]]:
    """Every (card, target) the waste can play after any draws and recycles,
    and every other move, with empty-pile targets merged."""
    out: set[tuple[object, ...]] = set()
    for move in game.legal_moves():
        if move.source in (WASTE, STOCK) or move.target == STOCK:
            continue
        if _pruned(game, move, wide):
            continue
        source = ("F", move.suit) if move.source == FOUNDATION else move.source
        out.add((source, _target_kind(game, move.target), move.count))
    for g in _talon_closure(game):
        for move in g.legal_moves():
            if move.source == WASTE and move.target != STOCK and not _pruned(g, move, wide):
                out.add(("W", str(g.waste[-1]), _target_kind(g, move.target)))
    return out | _fill_macros(game, wide) | _pair_macros(game, wide)


def _core_macro_set(game: KlondikeGame, codes: list[int]) -> set[tuple[object, ...]]:
    from cardtable.cards import Card

    out: set[tuple[object, ...]] = set()
    for code in codes:
        src, dst, count, card, _ = unpack(code)
        if code & PAIR_FLAG:
            builder = (code >> FILL_SHIFT) & 7
            source = ("F", Suit((code >> PAIR_SUIT_SHIFT) & 3)) if builder == PAIR_FOUNDATION else builder
            cards = () if builder == PAIR_FOUNDATION else (count,)
            out.add(("pair", str(Card.from_index(card)), dst, source, *cards))
            continue
        if code & FILL_FLAG:
            head = ("fill", dst, (code >> FILL_SHIFT) & 7, len(game.tableau[dst]))
            if src == SRC_TALON:
                out.add((*head, "W", str(Card.from_index(card))))
            elif src == LOC_FOUNDATION:
                out.add((*head, ("F", Card.from_index(card).suit)))
            else:
                out.add((*head, src, count))
            continue
        target = _target_kind(game, FOUNDATION if dst == LOC_FOUNDATION else dst)
        if src == SRC_TALON:
            out.add(("W", str(Card.from_index(card)), target))
        elif src == LOC_FOUNDATION:
            out.add((("F", Card.from_index(card).suit), target, 1))
        else:
            out.add((src, target, count))
    return out


def _name(v: Variant) -> str:
    return f"d{v.draw}-p{v.passes}-{v.empty}-r{int(v.foundation_return)}"


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_core_matches_engine(variant: Variant) -> None:
    # Every rule combination on the first QUICK_GAMES random games; the long sweep below plays GAMES.
    _check_core_against_engine(variant, wide=False, games=QUICK_GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_core_matches_engine_on_40_games(variant: Variant) -> None:
    _check_core_against_engine(variant, wide=False, games=GAMES)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.foundation_return or v.empty == "king"], ids=_name)
def test_core_matches_engine_with_the_wide_rule(variant: Variant) -> None:
    # The wide rule changes which foundation cards the search never brings back
    # (in the variants that bring cards back), and with kings only it comes with
    # the fill rule: a quarter of the positions.
    _check_core_against_engine(variant, wide=True, games=GAMES // 4)


def _check_core_against_engine(variant: Variant, wide: bool, games: int) -> None:
    v = params(variant, wide=wide)
    checked = fills = pairs = 0
    for game in _random_positions(variant, games, _name(variant).__len__() * 7 + variant.draw + 500 * wide):
        state = state_bytes(game.position())
        assert decode(state) == game.position()
        plain = _core_moves(state, v, True)
        engine_moves = game.legal_moves()
        assert sorted(map(str, (plain_move(c) for c in plain))) == sorted(map(str, engine_moves)), str(game.position())
        for code in plain:
            child = _ccore.apply_move(state, code, v)
            after = game.clone()
            after.play(plain_move(code))
            expected = after.position()
            got = decode(child)
            assert got == expected or (got.pass_number == 100 and got.tableau == expected.tableau)
        macros = _core_moves(state, v, False)
        assert _core_macro_set(game, macros) == _engine_macros(game, wide), str(game.position())
        for code in macros:
            child = _ccore.apply_move(state, code, v)
            after = game.clone()
            _play_code(after, code)
            assert decode(child) == after.position()
            fills += bool(code & FILL_FLAG)
            pairs += bool(code & PAIR_FLAG)
        checked += 1
    assert checked >= 15 * games
    if _fills(KlondikeGame(Position.from_seed(1), variant), wide):
        assert fills >= 5, fills  # the fill rule's moves were met and checked
    if _pairs(KlondikeGame(Position.from_seed(1), variant), wide):
        assert pairs >= 5, pairs  # and the pair rule's


def test_autoplay_is_the_engine_foundation_move() -> None:
    variant = Variant.preset("thoughtful1")
    game = KlondikeGame(Position.parse("|Ac/|2c/KcQcJcTc9c8c7c6c5c4c|3c/|/|/|/| - - -KKK 1"), variant)
    state, log = _ccore.autoplay(state_bytes(game.position()), params(variant))
    assert log == [0, 1] + [2] * 11
    for pile in log:
        game.play(Move(pile, FOUNDATION))
    assert decode(state) == game.position()
    assert game.is_won()


def test_the_wide_rule_sends_home_what_it_says_and_no_more() -> None:
    # 5h on a pile: clubs and spades at 3 (5 - 2), diamonds at 2 (5 - 3). Only
    # the wide rule calls it safe; the stock is not a free talon in draw 3.
    rest = [f"{rank}{suit}" for suit, low in zip("cdhs", (4, 3, 6, 4), strict=True)
            for rank in "A23456789TJQK"[low - 1:]]
    position = Position.parse(f"|5h/|/|/|/|/|/| {''.join(rest)} - 3243 1")
    variant = Variant.preset("thoughtful3")
    assert _ccore.autoplay(state_bytes(position), params(variant))[1] == []
    state, log = _ccore.autoplay(state_bytes(position), params(variant, wide=True))
    assert log == [0] and decode(state).foundation == (3, 2, 5, 3)
    # one club lower and 5h is not safe by either rule
    position = Position.parse(f"|5h/|/|/|/|/|/| 3c{''.join(rest)} - 2243 1")
    assert _ccore.autoplay(state_bytes(position), params(variant, wide=True))[1] == []


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.passes is None], ids=_name)
def test_autoplay_with_the_wide_rule_stops_only_when_nothing_is_safe(variant: Variant) -> None:
    # Every card autoplay sends home was next and safe by the wide rule when it
    # went, and when it stops no pile top (nor, with a free talon, any talon
    # card) is.
    free = variant.draw == 1
    checked = 0
    for game in _random_positions(variant, 10, 31 + variant.draw):
        state, log = _ccore.autoplay(state_bytes(game.position()), params(variant, wide=True))
        for mark in log:
            card = Card.from_index(mark - _ccore.TALON_MARK) if mark >= _ccore.TALON_MARK else game.tableau[mark][-1]
            assert game.foundation[card.suit] + 1 == card.rank and _safe(game, card.rank, card.suit, wide=True)
            _play_safe_moves(game, [mark])
        assert _same_position(state, game)
        at_hand = [pile[-1] for pile in game.tableau if pile] + (list(game.stock) + list(game.waste) if free else [])
        assert not [c for c in at_hand
                    if game.foundation[c.suit] + 1 == c.rank and _safe(game, c.rank, c.suit, wide=True)]
        checked += bool(log)
    assert checked >= 5


def _same_position(state: bytes, game: KlondikeGame) -> bool:
    """The array state is the game's position (the pass number aside with
    unlimited passes, where the engine may recycle to reach a talon card)."""
    got, want = decode(state), game.position()
    if game.variant.passes is None:
        got = Position(got.tableau, got.face_down, got.stock, got.waste, got.foundation, want.pass_number)
    return got == want


@pytest.mark.parametrize("wide", [False, True], ids=["narrow", "wide"])
def test_winning_lines_keep_the_array_state_in_step(wide: bool) -> None:
    # wide brings the fill rule's moves (a whole pile, then the king that fills it)
    checked = {"depth": 0, "best": 0}
    fills = 0
    for variant in VARIANTS:
        v = params(variant, wide=wide)
        for seed in range(4):
            position = Position.from_seed(seed)
            for kind, search in (("depth", _Search(position, variant, 20_000, 1, 0, wide=wide)),
                                 ("best", _BestSearch(position, variant, 20_000, 1, 3, wide=wide))):
                search.advance(20_000, None)
                if not search.won:
                    continue
                game = KlondikeGame(position, variant)
                state, marks = _ccore.autoplay(state_bytes(position), v)
                _play_safe_moves(game, marks)
                assert _same_position(state, game)
                path = search.winning_path()
                fills += sum(1 for code in path if code & FILL_FLAG)
                for code in path:
                    _play_code(game, code)
                    state, step = _ccore.autoplay(_ccore.apply_move(state, code, v), v)
                    _play_safe_moves(game, step)
                    assert _same_position(state, game), (variant, seed, kind)
                assert _ccore.trivially_won(state, v)
                # The core's line writer gives the same engine moves, safe moves and finish included.
                _finish(game)
                assert list(line_moves(KlondikeGame(position, variant), path, wide=wide)) == game.moves_from(0)
                checked[kind] += 1
    assert min(checked.values()) >= 10, checked
    assert (fills > 0) == wide, fills


def _searched_with_and_without(game: KlondikeGame, rule: int, bits: int,
                               budget: int) -> list[tuple[_ccore.Search, int]]:
    """The main search from ``game``'s position under its variant with the
    wide rules on, with the rule at parameter index ``rule`` and then without
    it: each search and its status after ``budget`` states."""
    state = state_bytes(game.position())
    on = params(game.variant, wide=True)
    off = tuple(0 if k == rule else x for k, x in enumerate(on))
    searches = [_ccore.Search(state, v, bits, 12) for v in (on, off)]
    return [(search, int(search.run(budget))) for search in searches]


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.empty == "king"], ids=_name)
def test_the_fill_rule_never_changes_a_verdict(variant: Variant) -> None:
    # The fill rule is proved to keep every win (the notes in klondike.h): the
    # main search with it and without it (the wide rule on in both) decides
    # deals and positions alike, and with it searches no more states on a loss
    # (each of its moves is two moves of the search without it).
    decided = {"won": 0, "unwinnable": 0}
    seeds = (4200141, 4200179, 4200020, 4200121, 4200153, 4200167, 7, 12)
    games = [KlondikeGame(Position.from_seed(seed), variant) for seed in seeds]
    for game in games + _random_positions(variant, 4, 91 + variant.draw)[:12]:
        (search, got), (search_without, want) = _searched_with_and_without(game, V_FILL, 16, 40_000)
        if got != _ccore.RUNNING and want != _ccore.RUNNING:
            assert got == want, str(game.position())
            decided["won" if got == _ccore.WON else "unwinnable"] += 1
            if got == _ccore.EXHAUSTED:
                assert search.states <= search_without.states, str(game.position())
    assert sum(decided.values()) >= 3, decided


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 2**31 + 3, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 4200012])
def test_the_deal_of_a_seed_is_the_engines(seed: int) -> None:
    assert _ccore.deal(seed) == state_bytes(Position.from_seed(seed))
    assert decode(_ccore.deal(seed)) == Position.from_seed(seed)


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_the_wide_rule_never_changes_a_verdict(variant: Variant) -> None:
    # The wide rule (and with kings only the fill rule it brings) is proved to
    # keep every win (docs/solver.md); here the solver with them and without
    # them decides the same deals and positions alike,
    # in every rule combination, and its winning lines win in the engine.
    decided = {"won": 0, "unwinnable": 0}
    seeds = (4200141, 4200179, 4200020, 4200121, 4200153, 4200167, 7, 12)  # quick losses and wins
    games = [KlondikeGame(Position.from_seed(seed), variant) for seed in seeds]
    for game in games + _random_positions(variant, 4, 77 + variant.draw)[:12]:
        wide = solve(game.position(), variant, max_states=20_000)
        narrow = solve(game.position(), variant, max_states=20_000, wide=False)
        if wide.decided and narrow.decided:
            assert wide.result == narrow.result, str(game.position())
            decided[wide.result] += 1
        if wide.result == "won":
            replay = game.clone()
            for move in wide.moves:
                replay.play(move)
            assert replay.is_won()
    # (one pass of draw 3 wins almost nothing, and draw 1 with three passes loses little)
    assert sum(decided.values()) >= 3, decided


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.draw == 1 and v.passes is None], ids=_name)
def test_the_pair_rule_never_changes_a_verdict(variant: Variant) -> None:
    # The pair rule is proved to keep every win (the notes in klondike.h): the
    # main search with it and without it (the wide and fill rules on in both)
    # decides deals and positions alike, and its winning lines replay.
    decided = {"won": 0, "unwinnable": 0}
    pairs = 0
    seeds = (6004071, 6004114, 6004128, 6004139, 6004210, 6004243, 6004278, 6004321, 7, 12, 4200069, 6004054)
    games = [KlondikeGame(Position.from_seed(seed), variant) for seed in seeds]
    for game in games + _random_positions(variant, 4, 77 + int(variant.foundation_return))[:16]:
        (search, got), (_, want) = _searched_with_and_without(game, V_PAIR, 20, 300_000)
        if got == _ccore.WON:
            path = list(search.path())
            pairs += sum(1 for code in path if code & PAIR_FLAG)
            replay = game.clone()
            for move in line_moves(game, path, wide=True):
                replay.play(move)
            assert replay.is_won()
        if got in (_ccore.WON, _ccore.EXHAUSTED) and want in (_ccore.WON, _ccore.EXHAUSTED):
            assert got == want, str(game.position())
            decided["won" if got == _ccore.WON else "unwinnable"] += 1
    # with any card in empty piles these deals are all won
    assert decided["won"] >= 5 and (variant.empty == "any" or decided["unwinnable"] >= 2), decided
    assert pairs > 0


def test_a_line_the_rules_do_not_allow_is_a_solver_bug() -> None:
    # line_moves checks every move it writes against the rules, and that the
    # line wins: a wrong line raises (naming where) rather than give moves.
    from cardtable.solver._state import pack

    variant = Variant.preset("thoughtful1")
    game = KlondikeGame(Position.from_seed(2), variant)
    search = _Search(game.position(), variant, 20_000, 0, 0)
    search.advance(20_000, None)
    path = search.winning_path()
    assert len(path) > 2 and list(line_moves(game, path))  # the line as found wins
    with pytest.raises(AssertionError, match=r"line has an end that is not won \(at its end\)"):
        line_moves(game, path[:1])
    state = state_bytes(game)
    legal = {code for code, _ in _ccore.generate(state, params(variant), True)}
    tops = [pile[-1].index for pile in game.tableau]
    bad = next(pack(i, j, 1, tops[i], 0) for i in range(7) for j in range(7)
               if i != j and pack(i, j, 1, tops[i], 0) not in legal)
    with pytest.raises(AssertionError, match=r"a move the rules do not allow \(at move 1 of 2\)"):
        line_moves(game, [bad, path[0]])


def test_a_line_checks_each_draw_and_recycle_against_the_pass_limit() -> None:
    # A talon move that recycles first is written as draws to the end of the
    # stock, a recycle and draws to its card: allowed with a pass left, not
    # on the last pass (the line stops at the recycle, before any other move).
    from cardtable.solver._state import pack

    draw, recycle = pack(8, SRC_TALON, 1, 0, 0), pack(SRC_TALON, 8, 1, 0, 0)
    for passes, allowed in ((None, True), (2, True), (1, False)):
        variant = Variant.preset("thoughtful1").replace(passes=passes)
        # a deal with no safe move at the start, so the line begins with the talon move
        game = next(g for g in (KlondikeGame(Position.from_seed(n), variant) for n in range(100))
                    if _ccore.autoplay(state_bytes(g), params(variant))[0] == state_bytes(g))
        card = game.position().stock[-1].index  # the top of the stock: drawn first
        plain, why, at = _ccore.line_moves(state_bytes(game), [pack(SRC_TALON, 0, 1, card, 1)], params(variant))
        stock = len(game.position().stock)
        if allowed:  # every draw, the recycle, one draw (then the card onto pile 1, legal or not)
            assert plain[:stock + 2] == [draw] * stock + [recycle, draw]
        else:
            assert (why, at) == ("a move the rules do not allow", 0)
            assert plain == [draw] * stock  # the draws, and no recycle


def _reveal_first_kind(state: bytes, code: int) -> int:
    """The kind of a move in the reveal-first order, worked out here from the
    move and the state: 0 a pile's whole face-up run off its face-down cards,
    1 a pile card home, 2 a talon card to the tableau, 3 a talon card home,
    4 a foundation card back, 5 any other move of the search."""
    src, dst, count, _, _ = unpack(code)
    if code & FILL_FLAG:
        return 5
    if src == SRC_TALON:
        return 3 if dst == LOC_FOUNDATION else 2
    if src == LOC_FOUNDATION:
        return 4
    if dst == LOC_FOUNDATION:
        return 1
    down, length = state[DOWN + src], state[LEN + src]
    return 0 if not code & HOME_FLAG and down > 0 and count == length - down else 5


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.passes is None], ids=_name)
def test_the_reveal_first_order_is_its_own_order_of_the_same_moves(variant: Variant) -> None:
    # The reveal-first search (the solver's first companion search) tries the
    # same moves as the main search, sorted by kind, and in each kind the lower
    # card first.
    kinds_seen = set()
    for game in _random_positions(variant, 6, 91 + variant.draw):
        state = state_bytes(game.position())
        standard = _ccore.generate(state, params(variant, wide=True), False)
        ordered = _ccore.generate(state, params(variant, wide=True, order=1), False)
        assert [code for code, _ in ordered] == [code for code, _ in standard]
        ranked = sorted(ordered, key=lambda pair: -pair[1])  # the search's sort is stable
        keys = [(_reveal_first_kind(state, code), unpack(code)[3] % 13) for code, _ in ranked]  # kind, rank - 1
        assert keys == sorted(keys), str(game.position())
        kinds_seen.update(kind for kind, _ in keys)
    assert {0, 2, 5} <= kinds_seen, kinds_seen


@pytest.mark.parametrize("variant", [Variant.preset("thoughtful1"), Variant.preset("thoughtful3"),
                                     Variant.preset("thoughtful3").replace(passes=3)], ids=_name)
def test_the_reveal_first_search_decides_as_the_main_search(variant: Variant) -> None:
    # Another order of the same moves: a loss is proved with exactly as many
    # states (a depth-first search with a table of states seen reaches every
    # state once, in whatever order), and a win found replays in the engine.
    decided = {"won": 0, "unwinnable": 0}
    seeds = (4200141, 4200179, 4200020, 4200121, 6000158, 6000107, 7, 12)
    for seed in seeds:
        game = KlondikeGame(Position.from_seed(seed), variant)
        state = state_bytes(game.position())
        standard = _ccore.Search(state, params(variant, wide=True), 20, 12)
        reveal = _ccore.Search(state, params(variant, wide=True, order=1), 20, 12)
        got, want = int(reveal.run(400_000)), int(standard.run(400_000))
        if got == want == _ccore.EXHAUSTED:
            assert reveal.states == standard.states
            decided["unwinnable"] += 1
        elif _ccore.WON in (got, want):
            assert got == want == _ccore.WON, seed
            replay = game.clone()
            for move in line_moves(game, list(reveal.path()), wide=True):
                replay.play(move)
            assert replay.is_won()
            decided["won"] += 1
    assert decided["won"] >= 2 and decided["unwinnable"] >= 1, decided


def _with_and_without_path_rules(game: KlondikeGame, budget: int) -> tuple[tuple[_ccore.Search, int], ...]:
    """The main search from ``game``'s position under its variant with the
    wide rules on, with the path rules and then without them: each search and
    its status after ``budget`` states."""
    state = state_bytes(game.position())
    v = params(game.variant, wide=True)
    searches = [_ccore.Search(state, v, 18, 12, path=path) for path in (True, False)]
    return tuple((search, int(search.run(budget))) for search in searches)


def _check_path_rules(game: KlondikeGame, budget: int, decided: dict[str, int]) -> tuple[int, int]:
    """Search ``game`` with and without the path rules and check that they
    agree: the same verdict, and on a loss the same states (the rules leave
    out only moves to states the search meets anyway: the notes in klondike.h)
    with no more moves tried; a win with the rules replays in the engine.
    Counts the verdict in ``decided``; returns the moves tried with and
    without the rules on a loss, else (0, 0)."""
    (pruned, got), (whole, want) = _with_and_without_path_rules(game, budget)
    if _ccore.RUNNING in (got, want):
        return 0, 0
    assert got == want, str(game.position())
    if got == _ccore.WON:
        replay = game.clone()
        for move in line_moves(game, list(pruned.path()), wide=True):
            replay.play(move)
        assert replay.is_won(), str(game.position())
        decided["won"] += 1
        return 0, 0
    assert pruned.states == whole.states, str(game.position())
    assert pruned.tried <= whole.tried, str(game.position())
    decided["unwinnable"] += 1
    return pruned.tried, whole.tried


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_the_path_rules_never_change_a_verdict(variant: Variant) -> None:
    # The path rules (undo, twice, commute: the notes in klondike.h) are proved
    # to keep every win and every state the search would meet: with them and
    # without them the main search decides deals and positions alike, and a
    # loss searches the very same states with no more moves tried.
    decided = {"won": 0, "unwinnable": 0}
    seeds = (4200141, 4200179, 4200020, 4200121, 4200153, 4200167, 7, 12)
    games = [KlondikeGame(Position.from_seed(seed), variant) for seed in seeds]
    for game in games + _random_positions(variant, 3, 53 + variant.draw)[:8]:
        _check_path_rules(game, 20_000, decided)
    assert sum(decided.values()) >= 3, decided


@pytest.mark.parametrize("preset", ["thoughtful1", "thoughtful3"])
def test_the_path_rules_leave_out_children(preset: str) -> None:
    # On losses the rules leave out moves: fewer children a state, the same states.
    variant = Variant.preset(preset)
    decided = {"won": 0, "unwinnable": 0}
    tried = [0, 0]
    for seed in (4200141, 4200179, 4200020, 4200121, 6000158, 6000107):
        with_rules, without = _check_path_rules(KlondikeGame(Position.from_seed(seed), variant), 400_000, decided)
        tried[0] += with_rules
        tried[1] += without
    assert decided["unwinnable"] >= 1, decided
    assert tried[0] < 0.95 * tried[1], tried


@settings(max_examples=40)
@given(seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS))
def test_any_deal_is_decided_alike_with_the_path_rules(seed: int, variant: Variant) -> None:
    # Any deal of any variant: the same verdict with the path rules and without them, the same states on a
    # loss, and a win found with them replays to a won game in the rules engine (within 5,000 states).
    decided = {"won": 0, "unwinnable": 0}
    _check_path_rules(KlondikeGame(Position.from_seed(seed), variant), 5_000, decided)
    event(f"{variant.draw}: {max(decided, key=decided.__getitem__) if any(decided.values()) else 'unknown'}")


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_the_path_rules_decide_as_without_them_on_2000_deals(variant: Variant) -> None:
    # As test_the_path_rules_never_change_a_verdict, on the first 2,000 deals from seed 9,100,000 that both
    # searches decide within 5,000 states (at most 12,000 deals tried: with one pass and kings only, about a
    # fifth decide).
    decided = {"won": 0, "unwinnable": 0}
    for seed in range(9_100_000, 9_112_000):
        _check_path_rules(KlondikeGame(Position.from_seed(seed), variant), 5_000, decided)
        if sum(decided.values()) >= 2_000:
            break
    assert sum(decided.values()) >= 2_000, decided


def _played(state: bytes, code: int, v: tuple[int, ...]) -> bytes:
    """The state after move ``code`` and autoplay."""
    return _ccore.autoplay(_ccore.apply_move(state, code, v), v)[0]


def _cards(state: bytes, v: tuple[int, ...]) -> bytes:
    """What of ``state`` the search's key reads, up to twins: the bytes with the
    places past each pile's and the talon's end cleared, and with unlimited
    passes the pass cleared and the waste position as the key holds it (0 at
    the talon's end or at a multiple of the draw, always with a draw of 1)."""
    out = bytearray(state)
    for i in range(PILE_COUNT):
        out[PILE_CAP * i + out[LEN + i]:PILE_CAP * (i + 1)] = bytes(PILE_CAP - out[LEN + i])
    out[TALON + out[TLEN]:TALON + 52] = bytes(52 - out[TLEN])
    if v[V_PASSES] == 0:
        out[PASS] = 0
        if out[WP] == out[TLEN] or out[WP] % v[V_DRAW] == 0:
            out[WP] = 0
    return bytes(out)


def _key_view(state: bytes, v: tuple[int, ...]) -> tuple[object, ...]:
    """What of ``state`` the search's key holds, twins forgotten: ``_cards``'s
    talon, waste position, pass and foundations, each pile's face-down cards
    and lowest face-up card, and the face-up cards as a set (which of two
    twins holds a run is not kept)."""
    out = _cards(state, v)
    piles, face_up = [], []
    for i in range(PILE_COUNT):
        n, down = out[LEN + i], out[DOWN + i]
        cards = out[PILE_CAP * i:PILE_CAP * i + n]
        piles.append((bytes(cards[:down]), cards[down] if n > down else -1))
        face_up.extend(cards[down:])
    return bytes(out[TALON:]), tuple(piles), tuple(sorted(face_up))


def _twin_move(state: bytes, code: int) -> int | None:
    """The move ``code`` onto the lowest other pile whose top is the twin (the
    same rank and colour) of the top of the pile it goes to, or None: what the
    twin rule of the path rules (``sibling_prune`` in klondike.h) looks for."""
    if code & FILL_FLAG:  # a whole pile onto a pile top, and a king into the pile it leaves
        target, shift, width, away = (code >> FILL_SHIFT) & 7, FILL_SHIFT, 7, {code & 15, (code >> 4) & 15}
    elif code & (HOME_FLAG | PAIR_FLAG) or (code >> 4) & 15 >= PILE_COUNT:
        return None
    else:
        target, shift, width, away = (code >> 4) & 15, 4, 15, {code & 15}

    def top(i: int) -> tuple[int, bool] | None:  # the pile top's rank and whether it is red
        n = state[LEN + i]
        return None if n == 0 else (state[PILE_CAP * i + n - 1] % 13, state[PILE_CAP * i + n - 1] // 13 in (1, 2))

    if top(target) is None:
        return None
    for j in range(target):
        if j not in away and top(j) == top(target):
            return (code & ~(width << shift)) | (j << shift)
    return None


#: A move code's recycle flag: two talon moves of one card to one place, one with a recycle and one without,
#: make states the key holds as one with unlimited passes (the talon commute rule reads either).
RECYCLE_FLAG = 1 << 20


def _a_move_of_g(state: bytes, code: int, v: tuple[int, ...]) -> bool:
    """Whether ``code`` is a move of the graph the path rules' proof reads at
    ``state``: one generate() gives, or one it leaves out by a rule on the
    state alone (onto the higher of two twin tops; a safe talon card onto a
    pile) whose child, as the key holds it, the kept move makes."""
    moves = _core_moves(state, v, False)
    if code in moves:
        return True
    twin = _twin_move(state, code)
    if twin is not None and twin in moves and \
            _key_view(_played(state, twin, v), v) == _key_view(_played(state, code, v), v):
        return True
    if code & 15 == SRC_TALON and (code >> 4) & 15 < PILE_COUNT and not code & (FILL_FLAG | PAIR_FLAG | HOME_FLAG):
        home = pack(SRC_TALON, LOC_FOUNDATION, 1, (code >> 14) & 63, (code >> 20) & 1)
        return home in moves and _cards(_played(state, home, v), v) == _cards(_played(state, code, v), v)
    return False


def _left_out_for(parent: bytes, codes: list[int], at: int, v: tuple[int, ...]) -> dict[str, int]:
    """Check that each move the path rules leave out of ``parent``'s child by
    ``codes[at]`` makes a state the search meets anyway, as the notes in
    klondike.h claim of each rule: the parent (undo), the parent's child by one
    of ``codes`` (twice), or the child of ``Y = parent + m`` (``m`` before
    ``codes[at]`` in ``codes``, after autoplay) by ``codes[at]``, a move the
    search makes at ``Y`` (commute; when both are talon cards' moves, ``m``
    and ``codes[at]`` with either recycle flag), or, as the key
    holds it, the child by the same move onto the twin of its target's top, a
    move of the child's too (twin), or, for a talon card played onto a pile,
    the child by its move home (safe). Returns how many were left out by each,
    by commute around a card sent home, by commute of two talon cards' moves,
    by commute with a fill step, and by commute through autoplay (cards sent
    home at ``Y``)."""
    last = codes[at]
    state = _played(parent, last, v)
    whole = _core_moves(state, v, False)
    kept = _ccore.path_prune(parent, state, codes, at, v)
    assert set(kept) <= set(whole) and [m for m in whole if m in set(kept)] == kept
    counts = {"undo": 0, "twice": 0, "commute": 0, "home": 0, "talon": 0, "twin": 0, "safe": 0, "fill": 0,
              "autoplay": 0}
    children = {_cards(_played(parent, code, v), v) for code in codes}
    both_talon = last & 15 == SRC_TALON
    for m in set(whole) - set(kept):
        twin = _twin_move(state, m)
        if twin is not None and twin in whole and \
                _key_view(_played(state, twin, v), v) == _key_view(_played(state, m, v), v):
            counts["twin"] += 1
            continue
        if m & 15 == SRC_TALON and (m >> 4) & 15 < PILE_COUNT and not m & (FILL_FLAG | PAIR_FLAG):
            home = pack(SRC_TALON, LOC_FOUNDATION, 1, (m >> 14) & 63, (m >> 20) & 1)
            if home in whole and _cards(_played(state, home, v), v) == _cards(_played(state, m, v), v):
                counts["safe"] += 1
                continue
        made = _cards(_played(state, m, v), v)
        if made == _cards(parent, v):
            counts["undo"] += 1
            continue
        if made in children:
            counts["twice"] += 1
            continue
        talon = both_talon and m & 15 == SRC_TALON
        flags = (0, RECYCLE_FLAG) if talon else (0,)
        listed = [m ^ f for f in flags if m ^ f in codes[:at]]
        assert listed, (last, m)
        y, sent = _ccore.autoplay(_ccore.apply_move(parent, listed[0], v), v)
        again = [last ^ f for f in flags if _a_move_of_g(y, last ^ f, v)]
        assert any(_cards(_played(y, a, v), v) == made for a in again), (last, m)
        counts["commute"] += 1
        counts["home"] += (m >> 4) & 15 == LOC_FOUNDATION or (last >> 4) & 15 == LOC_FOUNDATION
        counts["talon"] += talon
        counts["fill"] += bool((m | last) & FILL_FLAG)
        counts["autoplay"] += bool(sent)
    return counts


def _walks(seeds: range, v: tuple[int, ...], rng: random.Random) -> Iterator[tuple[bytes, list[int]]]:
    """Random walks of the search's moves, 60 moves at most from each seed's deal: each state on the way with
    its moves in the order the search tries them (the walk goes on by one of them, chosen by ``rng``)."""
    for seed in seeds:
        state = _ccore.autoplay(state_bytes(Position.from_seed(seed)), v)[0]
        for _ in range(60):
            codes = [code for code, _ in sorted(_ccore.generate(state, v, False), key=lambda cp: -cp[1])]
            if not codes:
                break
            yield state, codes
            state = _played(state, rng.choice(codes), v)


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_each_move_the_path_rules_leave_out_is_met_anyway(variant: Variant) -> None:
    # The claim each path rule's proof rests on, checked move by move along random walks of the search's
    # moves: a move left out makes the parent, a child of the parent, or the other order's state.
    v = params(variant, wide=True)
    rng = random.Random(variant.draw * 1009 + len(_name(variant)))
    counts = {"undo": 0, "twice": 0, "commute": 0, "home": 0, "talon": 0, "twin": 0, "safe": 0, "fill": 0,
              "autoplay": 0}
    for state, codes in _walks(range(4_300_000, 4_300_006), v, rng):
        for at in range(len(codes)):
            for rule, k in _left_out_for(state, codes, at, v).items():
                counts[rule] += k
    assert counts["undo"] + counts["twice"] + counts["commute"] > 0, counts


def _left_out_along_walks(rule: str, variants: tuple[Variant, ...], seeds: range, rng_seed: int) -> None:
    """Along random walks from ``seeds``, in each of ``variants``, some moves
    the path rules leave out are left out by ``rule``, each checked to make
    the child the kept move makes (``_left_out_for``)."""
    for variant in variants:
        v = params(variant, wide=True)
        rng = random.Random(rng_seed)
        count = 0
        for state, codes in _walks(seeds, v, rng):
            count += sum(_left_out_for(state, codes, at, v)[rule] for at in range(len(codes)))
        assert count > 0, (rule, variant)


def test_the_path_rules_commute_cards_sent_home() -> None:
    # Cards sent home commute with the other moves the commute rule takes, in draw 3 and in draw 1 with one
    # pass (with a free talon autoplay sends home most talon cards that could go, and the rule does not send
    # one home: see the notes).
    _left_out_along_walks("home", (Variant(draw=3, passes=None, foundation_return=True), Variant(draw=1, passes=1)),
                          range(4_300_100, 4_300_104), 1)


def test_the_path_rules_commute_two_talon_moves() -> None:
    # Two talon cards' moves commute when the talon after the other order keeps the same cards, reaches the
    # card and leaves the waste position as the key holds it (and the pass, with limited passes): in draw 3
    # with unlimited passes and with three.
    _left_out_along_walks("talon", (Variant(draw=3, passes=None, foundation_return=True), Variant(draw=3, passes=3)),
                          range(4_300_200, 4_300_210), 2)


def _top(state: bytes, i: int) -> tuple[int, bool] | None:
    """Pile i's top card's rank index and whether it is red, or None for an empty pile."""
    n = state[LEN + i]
    return None if n == 0 else (state[PILE_CAP * i + n - 1] % 13, state[PILE_CAP * i + n - 1] // 13 in (1, 2))


def _onto_pile(code: int) -> bool:
    """A run, a talon card or a foundation card onto a pile, with no other move in the code."""
    return not code & (HOME_FLAG | PAIR_FLAG | FILL_FLAG) and (code >> 4) & 15 < PILE_COUNT


def test_the_search_moves_go_onto_the_lower_of_two_twins() -> None:
    # A move onto a pile top whose twin (the same rank and colour) tops a lower pile that the move takes
    # nothing from makes, as the key holds it, the state the same move onto that lower pile makes:
    # generate() gives only that one, in every search (klondike.h, *twin targets*). In draw 3 and in draw 1
    # (kings only and any card in an empty pile).
    for variant in (Variant(draw=3, passes=None, foundation_return=True), Variant(draw=1, passes=None),
                    Variant(draw=3, passes=3, empty="any")):
        v = params(variant, wide=True)
        higher = 0
        for state, codes in _walks(range(4_300_300, 4_300_310), v, random.Random(3)):
            for code in filter(_onto_pile, codes):
                src, dst = code & 15, (code >> 4) & 15
                assert _twin_move(state, code) is None, code  # never onto the higher twin
                if _top(state, dst) is None:
                    continue
                for j in range(dst + 1, PILE_COUNT):
                    if j != src and _top(state, j) == _top(state, dst):
                        left = (code & ~(15 << 4)) | (j << 4)
                        assert left not in codes
                        assert _key_view(_played(state, left, v), v) == _key_view(_played(state, code, v), v)
                        higher += 1
        assert higher > 0, variant


def test_a_safe_talon_card_goes_home_only() -> None:
    # A talon card autoplay would send home, played onto a pile, is sent home by autoplay at once: the child
    # is the very state its move home makes, and generate() gives the move home only (klondike.h, *a safe
    # talon card onto a pile*); a talon card that is not safe keeps its moves onto piles. Not with a free
    # talon, where autoplay takes such cards from the talon itself. In draw 3 with unlimited passes and with
    # three, and in draw 1 with one pass.
    for variant in (Variant(draw=3, passes=None, foundation_return=True), Variant(draw=3, passes=3),
                    Variant(draw=1, passes=1)):
        v = params(variant, wide=True)
        safe = kept = 0
        for state, codes in _walks(range(4_300_400, 4_300_410), v, random.Random(4)):
            for home in codes:
                if home & 15 != SRC_TALON or (home >> 4) & 15 != LOC_FOUNDATION:
                    continue
                card = (home >> 14) & 63
                fits = (card % 13 + 1, card // 13 not in (1, 2))  # its pile top: a rank higher, the other colour
                for t in range(PILE_COUNT):
                    if _top(state, t) != fits or any(_top(state, j) == fits for j in range(t)):
                        continue  # (the lower of two twins only: the rule above)
                    onto = pack(SRC_TALON, t, 1, card, (home >> 20) & 1)
                    same = _cards(_played(state, onto, v), v) == _cards(_played(state, home, v), v)
                    assert (onto in codes) != same, (onto, home)
                    safe += same
                    kept += not same
        assert safe > 0 and kept > 0, (variant, safe, kept)


def test_the_path_rules_commute_fill_steps() -> None:
    # A fill step (a whole pile onto a pile top and a king into the pile it leaves) commutes with the other
    # moves the commute rule takes when the piles are apart: in draw 3 with unlimited passes and with three,
    # and in draw 1 with one pass (not with a free talon: see the notes).
    _left_out_along_walks("fill", (Variant(draw=3, passes=None, foundation_return=True), Variant(draw=3, passes=3),
                                   Variant(draw=1, passes=1)), range(4_300_500, 4_300_530), 5)


def test_the_path_rules_commute_through_autoplay() -> None:
    # Two moves commute when autoplay after the one tried first sends cards home but leaves what the other
    # reads as it was: the other order's state, after autoplay, is the same. In draw 3 with unlimited passes
    # and with one, and in draw 1 with three passes.
    _left_out_along_walks("autoplay", (Variant(draw=3, passes=None, foundation_return=True), Variant(draw=3, passes=1),
                                       Variant(draw=1, passes=3)), range(4_300_600, 4_300_630), 6)
