"""Each shipped game's distinctive rules, on hand-made positions."""

from __future__ import annotations

from cardtable.cards import Card, parse_cards
from cardtable.patience import Kind, Move, PatienceGame, Place, get
from cardtable.patience.description import Description


def _game(description: Description, tableau: list[str], **others: list[str]) -> PatienceGame:
    """A position: tableau piles (face up) and other piles by kind name; the
    rest of the cards go to the first foundations as complete suits."""
    piles: list[list[Card]] = []
    counts = {kind: description.count(kind) for kind in Kind}
    order = (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE)
    given = {Kind.TABLEAU: tableau, **{Kind(k): v for k, v in others.items()}}
    for kind in order:
        texts = given.get(kind, [])
        for i in range(counts[kind]):
            piles.append(parse_cards(texts[i]) if i < len(texts) else [])
    down = [0] * len(piles)
    stock_at = sum(counts[k] for k in order[:4])
    if counts[Kind.STOCK]:
        down[stock_at] = len(piles[stock_at])
    return PatienceGame(description, piles, down)


def _moves(game: PatienceGame) -> set[str]:
    return {str(move) for move in game.legal_moves()}


def test_freecell_supermove_is_sized_by_free_cells_and_empty_columns() -> None:
    run = "5d Kh Qs Jh Ts 9h 8s"
    game = _game(get("freecell"), [run, "9c", "", "", "2c", "3c", "4c", "5c"], cells=["Ac", "Ad"])
    assert "1>2" not in _moves(game)  # 8s on 9c: the same colour
    assert "1>3:6" in _moves(game)  # 2 free cells, 1 other empty column: (2 + 1) * 2**1 = 6
    small = _game(get("freecell"), [run, "Jd", "", "2h", "2c", "3c", "4c", "5c"], cells=["Ac", "Ad", "Ah"])
    # 1 free cell, 1 empty column: (1 + 1) * 2**0 = 2 to the empty column, (1 + 1) * 2**1 = 4 to another
    assert "1>3:2" in _moves(small) and "1>3:3" not in _moves(small)
    assert "1>2:3" in _moves(small)
    none_free = _game(get("freecell"), [run, "Jd", "2s", "2h", "2c", "3c", "4c", "5c"], cells=["Ac", "Ad", "Ah", "As"])
    assert "1>2:3" not in _moves(none_free) and "1>2" not in _moves(none_free)


def test_bakers_game_builds_in_suit_and_freecell_in_alternate_colours() -> None:
    tableau = ["9s", "Ts", "Td", "2c", "3c", "4c", "5c", "6c"]
    assert "1>2" in _moves(_game(get("bakers-game"), tableau)) and "1>3" not in _moves(_game(get("bakers-game"),
                                                                                           tableau))
    assert "1>3" in _moves(_game(get("freecell"), tableau)) and "1>2" not in _moves(_game(get("freecell"), tableau))


def test_seahaven_and_eight_off_spaces_take_only_kings() -> None:
    game = _game(get("seahaven-towers"), ["5h Kd Qd", "5c", "", "2c", "3c", "4c", "6c", "7c", "8c", "9c"])
    assert "2>3" not in _moves(game)
    assert "1>3:2" in _moves(game) and "1>3" not in _moves(game)
    eight = _game(get("eight-off"), ["5h Ks", "5c", "", "2c", "3c", "4c", "6c", "7c"])
    assert "1>3" in _moves(eight) and "2>3" not in _moves(eight)


def test_golf_plays_one_apart_with_no_wrap_and_nothing_on_a_king_by_default() -> None:
    golf = get("golf")
    tableau = ["Qs", "Ah", "2d", "Jc", "5c", "6c", "7c"]
    game = _game(golf, tableau, hole=["Kd"], stock=["9c"])
    assert _moves(game) == {"D"}  # nothing on a King, and the Ace is not next to it
    assert {"1>H", "2>H"} <= _moves(_game(golf.with_options("queens-on-kings", "wrap"), tableau, hole=["Kd"]))
    assert _moves(_game(golf.with_options("queens-on-kings"), tableau, hole=["Kd"])) == {"1>H"}
    game = _game(golf, tableau, hole=["3h"], stock=["9c"])
    assert {"3>H", "D"} == _moves(game)  # one apart, up or down, any suit
    game.play(Move.parse("3>H"))
    assert "2>H" in _moves(game)


def test_golf_is_won_when_the_tableau_is_empty_and_black_hole_when_the_hole_has_every_card() -> None:
    golf = _game(get("golf"), ["2s"], hole=["3h"], stock=["9c"])
    golf.play(Move.parse("1>H"))
    assert golf.is_won() and golf.outcome() is not None and golf.outcome().is_win  # type: ignore[union-attr]
    hole = PatienceGame.from_seed(get("black-hole"), 1)
    assert hole.pile(Place(Kind.HOLE)) == [Card.parse("As")]
    assert [len(hole.pile(place)) for place in hole.places(Kind.TABLEAU)] == [3] * 17
    wraps = _game(get("black-hole"), ["Kc", "2c"], hole=["As"])
    assert _moves(wraps) == {"1>H", "2>H"}


def test_beleaguered_castle_deals_the_aces_to_the_foundations_and_moves_one_card() -> None:
    game = PatienceGame.from_seed(get("beleaguered-castle"), 4)
    assert [str(c) for place in game.places(Kind.FOUNDATION) for c in game.pile(place)] == ["Ac", "Ad", "Ah", "As"]
    assert all(len(game.pile(place)) == 6 for place in game.places(Kind.TABLEAU))
    castle = _game(get("beleaguered-castle"), ["9h Ts", "Jd"])
    assert "1>2" in _moves(castle) and "1>2:2" not in _moves(castle)  # one card at a time, any suit


def test_king_albert_plays_from_the_reserve_but_never_onto_it() -> None:
    game = PatienceGame.from_seed(get("king-albert"), 2)
    assert [len(game.pile(p)) for p in game.places(Kind.TABLEAU)] == list(range(1, 10))
    assert [len(game.pile(p)) for p in game.places(Kind.RESERVE)] == [1] * 7
    albert = _game(get("king-albert"), ["Ts", "Jc"], reserve=["9h", "Ac"])
    assert {"R1>1", "R2>F"} <= _moves(albert)
    assert not any(">R" in move for move in _moves(albert))


def test_fan_and_bakers_dozen_spaces() -> None:
    fan = _game(get("fan"), ["5h Ks", "5c", ""])
    assert "1>3" in _moves(fan) and "2>3" not in _moves(fan)
    dozen = _game(get("bakers-dozen"), ["5h Ks", "5c", ""])
    assert "1>3" not in _moves(dozen) and "2>3" not in _moves(dozen)  # spaces stay empty
    dealt = PatienceGame.from_seed(get("bakers-dozen"), 11)
    for place in dealt.places(Kind.TABLEAU):
        pile = dealt.pile(place)
        kings = [card.rank == 13 for card in pile]
        assert kings == sorted(kings, reverse=True)  # every King under the other cards


def test_forty_thieves_two_decks_one_pass() -> None:
    description = get("forty-thieves")
    game = PatienceGame.from_seed(description, 8)
    assert sum(len(p) for p in game.piles) == 104
    assert len(game.pile(Place(Kind.STOCK))) == 64
    while Move.parse("D") in game.legal_moves():
        game.play(Move.parse("D"))
    assert "R" not in _moves(game)  # one pass


def test_yukon_moves_any_face_up_stack_and_russian_builds_in_suit() -> None:
    yukon = _game(get("yukon"), ["8s 3c 9d", "9h"])
    assert "1>2:3" in _moves(yukon)  # 8s on 9h with the unordered cards on it
    russian = _game(get("russian-solitaire"), ["8s 3c 9d", "9h", "9s"])
    assert "1>3:3" in _moves(russian) and "1>2:3" not in _moves(russian)


def test_klondike_description_deals_as_cardtable_klondike() -> None:
    from cardtable.klondike import KlondikeGame

    for seed in (0, 5, 99):
        ours = PatienceGame.from_seed(get("klondike"), seed)
        theirs = KlondikeGame.from_seed(seed)
        assert [ours.pile(p) for p in ours.places(Kind.TABLEAU)] == theirs.tableau
        assert ours.pile(Place(Kind.STOCK)) == theirs.stock
        assert sorted(map(str, ours.legal_moves())) == sorted(map(str, theirs.legal_moves()))


def test_spider_removes_a_complete_run_and_deals_only_with_no_empty_pile() -> None:
    spider = get("spider-1-suit")
    run = " ".join(f"{rank}s" for rank in "KQJT98765432")
    game = _game(spider, [run, "As", *(["5s"] * 8)], stock=["9s"] * 10)
    assert "2>1" in _moves(game)
    game.play(Move.parse("2>1"))
    assert game.pile(Place(Kind.TABLEAU, 0)) == [] and len(game.pile(Place(Kind.FOUNDATION, 0))) == 13
    assert "D" not in _moves(game)  # an empty pile
    game.undo()
    assert len(game.pile(Place(Kind.TABLEAU, 0))) == 12 and "D" in _moves(game)


def test_a_foundation_of_whole_runs_shows_its_king_on_top_in_every_face() -> None:
    from cardtable.bots.patience_hindsight import guess_deal
    from cardtable.cards import SplitMix64
    from cardtable.patience.render import render

    for name, spaces in (("spider-1-suit", 10), ("spider", 10), ("scorpion", 7)):
        description = get(name)
        run = " ".join(f"{rank}s" for rank in "KQJT98765432")
        game = _game(description, [run, "As", *(["5h"] * (spaces - 2))])
        game.play(Move.parse("2>1"))
        home = next(p for p in game.view().piles if p.place == Place(Kind.FOUNDATION, 0))
        assert home.cards[-1] == Card.parse("Ks") and home.cards[0] == Card.parse("As"), name
        assert "Ks" in render(game.view(), unicode=False) and "As" not in render(game.view(), unicode=False)
        # a guess rebuilt from the view holds the run as the engine laid it
        assert guess_deal(game.view(), SplitMix64(1)).pile(Place(Kind.FOUNDATION, 0)) == \
            game.pile(Place(Kind.FOUNDATION, 0))


def test_scorpion_deals_its_three_stock_cards_to_the_first_three_piles() -> None:
    game = PatienceGame.from_seed(get("scorpion"), 3)
    assert [game.face_down(p) for p in game.places(Kind.TABLEAU)] == [3, 3, 3, 3, 0, 0, 0]
    game.play(Move.parse("D"))
    assert [len(game.pile(p)) for p in game.places(Kind.TABLEAU)] == [8, 8, 8, 7, 7, 7, 7]


def test_canfield_base_set_by_the_first_card_reserve_fills_spaces_and_ranks_wrap() -> None:
    game = PatienceGame.from_seed(get("canfield"), 6)
    base = game.pile(Place(Kind.FOUNDATION, 0))[0]
    assert len(game.pile(Place(Kind.RESERVE))) == 13 and game.face_down(Place(Kind.RESERVE)) == 12
    assert len(game.pile(Place(Kind.STOCK))) == 34
    canfield = get("canfield")
    position = _game(canfield, ["5h", "4s 3d", "Ah", "9c"], foundations=["Kc", "", "", ""],
                     reserve=["Qs 2d"], stock=["3h", "4h", "5h"])
    moves = _moves(position)
    assert "R1>F" not in moves and "3>2" not in moves  # the base is a King: an Ace does not start a foundation
    assert "2>1:2" in moves and "2>1" not in moves  # the whole pile, or its top card where it fits
    assert "3>F" not in moves
    kings = _game(canfield, ["Kd"], foundations=["Jc", "", "", ""], reserve=["Qs 2d"], stock=["3h"])
    assert "1>F" not in _moves(kings)
    emptied = _game(canfield, ["Kc", "7d", "8d", "9d"], foundations=["Qc", "", "", ""], reserve=["Qs 2d"])
    emptied.play(Move.parse("1>F"))  # the King goes on the Queen, the reserve's 2d fills the space
    assert emptied.pile(Place(Kind.TABLEAU, 0)) == [Card.parse("2d")]
    assert emptied.pile(Place(Kind.RESERVE)) == [Card.parse("Qs")] and emptied.face_down(Place(Kind.RESERVE)) == 0
    assert base.rank in range(1, 14)
    wrap = _game(canfield, ["Ah", "2c"], foundations=["Kc", "", "", ""], reserve=["Qs"])
    assert "1>F" not in _moves(wrap) and "2>F" not in _moves(wrap)
    ace = _game(canfield, ["As", "Kh"], foundations=["Kd", "", "", ""], reserve=["Qs"])
    # building down wraps: a King goes on an Ace, not an Ace on a King; a King starts a foundation
    assert "2>1" in _moves(ace) and "1>2" not in _moves(ace) and "2>F" in _moves(ace)


def test_tripeaks_plays_only_uncovered_cards_and_turns_them_up_when_freed() -> None:
    tripeaks = get("tripeaks")
    game = PatienceGame.from_seed(tripeaks, 3)
    assert [game.face_down(p) for p in game.places(Kind.TABLEAU)] == [1] * 18 + [0] * 10
    assert len(game.pile(Place(Kind.STOCK))) == 23 and len(game.pile(Place(Kind.HOLE))) == 1
    bottom = ["5h", "4c", *(["Qc"] * 8)]
    rows = ["Ks"] * 18 + bottom
    position = _game(tripeaks, rows, hole=["6d"], stock=["2c"])
    position.down[:18] = [1] * 18
    assert _moves(position) == {"19>H", "D"}  # only the bottom row is free: Ks, 4c and Qc do not fit on 6d
    position.play(Move.parse("19>H"))
    assert position.face_down(Place(Kind.TABLEAU, 9)) == 1  # pile 10 still lies under pile 20
    position.play(Move.parse("20>H"))
    assert position.face_down(Place(Kind.TABLEAU, 9)) == 0  # both piles over it are gone: it turns up
    position.undo()
    assert position.face_down(Place(Kind.TABLEAU, 9)) == 1
    wraps = _game(tripeaks, ["Qc"] * 18 + ["Ah", *(["Qc"] * 9)], hole=["Kd"], stock=["2c"])
    assert "19>H" in _moves(wraps) and "19>H" not in _moves(_game(tripeaks.with_options("no-wrap"),
                                                                   ["Qc"] * 18 + ["Ah", *(["Qc"] * 9)],
                                                                   hole=["Kd"], stock=["2c"]))


def test_pyramid_discards_free_pairs_that_make_13_and_kings_alone() -> None:
    pyramid = get("pyramid")
    dealt = PatienceGame.from_seed(pyramid, 9)
    assert len(dealt.pile(Place(Kind.STOCK))) == 24 and all(dealt.face_down(p) == 0 for p in dealt.places(Kind.TABLEAU))
    rows = ["Qc"] * 15 + ["Ac"] + ["Qc"] * 5 + ["Ks", "5h", "8d", "6c", "2c", "2d", "3s"]
    game = _game(pyramid, rows, stock=["Jh"], waste=["Qd"])
    assert _moves(game) == {"22>H", "23+24>H", "D"}  # only the bottom row is free: K alone, 5 + 8
    game.play(Move.parse("22>H"))
    assert "16+W>H" not in _moves(game)  # the Ace lies under pile 23 still
    game.play(Move.parse("23+24>H"))
    assert {"16+W>H", "16+17>H"} <= _moves(game) and len(game.pile(Place(Kind.HOLE))) == 3
    game.undo()
    game.undo()
    assert _moves(game) == {"22>H", "23+24>H", "D"}
    game.play(Move.parse("D"))
    assert "W>H" not in _moves(game) and "R" not in _moves(game)  # a Jack is no King; one pass only
    assert str(Move.parse("28+W>H")) == "28+W>H"
    assert get("pyramid").with_options("three-passes").stock.passes == 3


def test_la_belle_lucie_redeals_twice_and_never_fills_a_space() -> None:
    lucie = get("la-belle-lucie")
    game = PatienceGame.from_seed(lucie, 21)
    assert [len(game.pile(p)) for p in game.places(Kind.TABLEAU)] == [3] * 17 + [1]
    assert "D" in _moves(game)
    before = game.key()
    game.play(Move.parse("D"))
    tableau = [game.pile(p) for p in game.places(Kind.TABLEAU)]
    assert sorted(c.index for pile in tableau for c in pile) == list(range(52))
    assert [len(pile) for pile in tableau] == [3] * 17 + [1] and game.key() != before
    again = PatienceGame.from_seed(lucie, 21)
    again.play(Move.parse("D"))
    assert again.key() == game.key()  # the redeal's shuffle is seeded by the deal
    game.play(Move.parse("D"))
    assert "D" not in _moves(game) and game.why_illegal(Move.parse("D")) == "no redeal is left"
    game.undo()
    game.undo()
    assert game.key() == before
    spaces = _game(lucie, ["5h Ks", "5c", ""])
    assert "1>3" not in _moves(spaces) and "2>3" not in _moves(spaces)


def test_accordion_moves_a_pile_onto_the_first_or_third_to_its_left_on_a_match() -> None:
    accordion = get("accordion")
    dealt = PatienceGame.from_seed(accordion, 4)
    assert all(len(dealt.pile(p)) == 1 for p in dealt.places(Kind.TABLEAU))
    row = ["5h", "9c", "Kd", "5s", "9d", "Qs", "Qh"] + [""] * 45
    game = _game(accordion, row)
    # 5s onto 5h (three to its left, same rank), 9d onto 9c (three), Qh onto Qs (next, same rank)
    assert _moves(game) == {"4>1", "5>2", "7>6"}
    game.play(Move.parse("4>1"))  # the gap closes: the 9d's next pile is now the Kd
    assert _moves(game) == {"5>3", "7>6"}
    assert game.why_illegal(Move.parse("6>3")) == "pile 3 is not 1 or 3 piles to the left of pile 6"
    # a pile goes by its top card, not the card at its bottom
    two = _game(accordion, ["5h", "9s 5s"] + [""] * 50)
    assert _moves(two) == {"2>1:2"}
    assert not _moves(_game(accordion, ["5h", "5s 9s"] + [""] * 50))
    assert _game(accordion, ["5h", "5s 9s"] + [""] * 50).why_illegal(Move.parse("2>1:2")) == \
        "9s does not go on pile 1 now"
    two.play(Move.parse("2>1:2"))
    assert two.pile(Place(Kind.TABLEAU, 0)) == [Card.parse(c) for c in ("5h", "9s", "5s")]
    assert not two.is_won()  # a hand-made position short of 52 cards is never won
    won = _game(accordion, [" ".join(str(c) for c in accordion.cards.deck())] + [""] * 51)
    assert won.is_won() and won.returns() == (51.0,)
