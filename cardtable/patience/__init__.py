"""Patience games as data: a description per game, one engine for them all.

- :mod:`.description`: the frozen description of a game, read from JSON and checked;
- :mod:`.moves`: moves and their notation;
- :mod:`.engine`: :class:`PatienceGame`, which plays any description through
  the shared game interface (:mod:`cardtable.game`);
- :mod:`.formats`: positions as PySol boards (fc-solve's and black-hole-solver's format);
- :mod:`.position`: positions as position strings, the games' own notation;
- :mod:`.record`: game records, text and JSON, in the style of Klondike's;
- :mod:`.layout`: where every pile lies on the table, for every face;
- :mod:`.render`: a position drawn as text where the layout places each pile;
- :mod:`.registry`: the shipped games by name (``presets/*.json``).

Players for every description are in :mod:`cardtable.bots.patience`; the
command line's ``cardtable games`` lists, describes, deals and plays them, and
``--game`` chooses one in ``deal``, ``show``, ``replay`` and ``simulate``.

>>> game = PatienceGame.from_seed(get("golf"), 7)
>>> game.is_over(), len(game.legal_moves()) > 0
(False, True)
"""

from cardtable.patience.description import Description, DescriptionError, Kind
from cardtable.patience.engine import PatienceGame, PatienceOutcome, PatienceView
from cardtable.patience.moves import Move, MoveError, Place
from cardtable.patience.registry import get, load, names

__all__ = ["Description", "DescriptionError", "Kind", "Move", "MoveError", "PatienceGame", "PatienceOutcome",
           "PatienceView", "Place", "get", "load", "names"]
