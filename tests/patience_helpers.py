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
