"""Positions of patience games that the tests of more than one face play."""

from __future__ import annotations

from cardtable.patience import PatienceGame, get
from cardtable.patience.position import read_position


def two_clubs_to_go_home() -> PatienceGame:
    """FreeCell with every diamond, heart and spade home, the ace of clubs on
    pile 4 and the two on pile 2: auto-finish sends those two home (``4>F``,
    ``2>F``) and stops, the king of clubs on top of the rest."""
    home = " ".join(f"F{i + 2}:" + "".join(rank + suit for rank in "A23456789TJQK") for i, suit in enumerate("dhs"))
    clubs = "".join(rank + "c" for rank in "3456789TJQK")
    return read_position(get("freecell"), f"1:{clubs} 2:2c 3: 4:Ac 5: 6: 7: 8: F1: {home} a: b: c: d:")


def a_spider_run_gone_home() -> PatienceGame:
    """One-suit Spider just after ``2>1`` completed the run King to Ace of
    spades on pile 1, which went to the first foundation; eight fives of
    spades are left on piles 3 to 10 and the stock is empty."""
    from cardtable.cards import parse_cards

    spider = get("spider-1-suit")
    run = " ".join(f"{rank}s" for rank in "KQJT98765432")
    tableau = [parse_cards(run), parse_cards("As"), *[parse_cards("5s") for _ in range(8)]]
    piles = [*tableau, *[[] for _ in range(spider.foundations.count)], []]
    game = PatienceGame(spider, piles, [0] * len(piles))
    game.play(game.parse_action("2>1"))
    return game


def a_won_canfield() -> PatienceGame:
    """Canfield won: every suit home, Ace to King; the stock, the waste and
    the reserve empty, with passes through the stock still unlimited."""
    from cardtable.cards import parse_cards
    from cardtable.patience import Kind

    canfield = get("canfield")
    home = {Kind.FOUNDATION: [parse_cards(" ".join(rank + suit for rank in "A23456789TJQK")) for suit in "cdhs"]}
    piles = [home.get(kind, [[] for _ in range(canfield.count(kind))])[i]
             for kind in (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE)
             for i in range(canfield.count(kind))]
    game = PatienceGame(canfield, piles, [0] * len(piles))
    assert game.is_won()
    return game
