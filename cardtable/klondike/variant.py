"""Klondike variants: a frozen configuration the engine reads.

A variant never copies rules code; it only says which options are in force.

>>> v = Variant.preset("seed-002")
>>> (v.draw, v.passes, v.foundation_return, v.scoring.kind)
(1, 1, False, 'vegas')
>>> Variant.preset("seed-000").replace(passes=None).describe()
'draw 3, unlimited passes, kings in empty piles, no foundation return, no scoring'

One source for each rule
------------------------
Every Python module asks :class:`Variant` and :class:`Scoring` for the rules:
what fits on what (:meth:`Variant.fits`, resting on
:meth:`cardtable.cards.Card.fits_on`), what fills an empty pile
(:meth:`Variant.fills_empty`), what may go to a foundation and when that is
safe (:meth:`Variant.fits_foundation`, :meth:`Variant.safe_to_foundation`),
and what a game is worth (:meth:`Scoring.money`, :meth:`Scoring.after_move`,
:meth:`Scoring.after_recycle`). The compiled paths (the solver's searches,
the simulator's kernel, the environment's step) share one copy in C for
speed, and differential tests hold it to the engine.

Every place a rule change must touch:

1. here: the field, its check in ``__post_init__``, the predicates above,
   :meth:`Variant.describe`, :meth:`Variant.options` / :meth:`Variant.from_options`
   (records and JSON), the presets, :data:`RULE_FIELDS`, and
   ``_WINNABILITY_FIELDS`` when the field can change whether a deal is won
   (:attr:`Variant.winnability_key`, the key of winnability studies);
2. ``cardtable/cards.py``: :meth:`~cardtable.cards.Card.fits_on`, the building
   rule both games share (Kings Corner asks it in ``kings_corner/table.py``);
3. ``cardtable/klondike/game.py``: ``legal_moves`` (its run-length shortcut
   relies on a run going down one rank a card), ``why_illegal``'s messages,
   ``_apply`` and ``undo``;
4. ``cardtable/klondike/position.py``: the face-up runs a layout may hold;
5. ``cardtable/klondike/record.py``: the variant headers of a game record;
6. ``cardtable/cli/_options.py``: the command-line flags;
7. the one compiled copy, Klondike's rules in C: ``cardtable/solver/klondike.h``
   (the card tables, the array state, the seeded shuffle and deal, move
   generation with its pruning and soundness notes, move application, the
   safe moves) and the paths on it in ``cardtable/solver/_ccore.c`` (the
   searches' estimate and state keys; the simulator's ``priority`` kernel,
   which plays only the rule identities ``cardtable/sim/runner.py`` names,
   compared by :attr:`Variant.kernel_key`, so a new field sends games to the
   engine until the kernel learns it; the environment's step: the pass
   limit, the Vegas money table from ``Scoring.money`` and the action
   numbering), with ``params`` in ``cardtable/solver/_state.py`` and
   ``relaxation`` in ``cardtable/solver/search.py``. Held to the engine
   directly, in every rule combination each path plays, by
   ``tests/solver/test_core_differential.py`` (moves, safe moves, both
   searches' winning lines), ``tests/sim/test_fast_priority.py`` and
   ``tests/envs/test_fast_matches_engine.py``; ``.ci/sanitize`` runs them on a
   build with AddressSanitizer and UndefinedBehaviorSanitizer;
8. ``cardtable/klondike/patience.py``: the field as the ``klondike`` patience
   description gives it (an option of ``presets/klondike.json`` or a field
   written by ``klondike_description``, read back by ``variant_of``), held to
   this engine move by move in every rule combination by
   ``tests/patience/test_klondike_differential.py``.

``tests/test_rule_sites.py`` fails when a field is added to :class:`Variant` or
:class:`Scoring` without :data:`RULE_FIELDS` learning it, pointing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Literal, TypeVar

from cardtable._text import clip
from cardtable.cards import Card
from cardtable.errors import RulesError

if TYPE_CHECKING:
    import numpy as np

#: A count of foundation cards: one game's (an int) or many games' (a numpy array).
_Count = TypeVar("_Count", int, "np.ndarray")

__all__ = ["PRESETS", "PRESET_NOTES", "PRESET_TITLES", "RULE_FIELDS", "Scoring", "Variant", "VariantError",
           "parse_passes"]


#: Klondike's name among the patience games (``--game klondike``), and in the results store.
GAME = "klondike"


class VariantError(RulesError):
    """A variant option or preset name is not valid."""


ScoringKind = Literal["none", "standard", "vegas"]


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a game is scored.

    ``standard`` is the familiar points game: ``waste_to_tableau`` for a card
    from the waste to the tableau, ``to_foundation`` for any card to a
    foundation, ``turn_up`` for turning a tableau card face up,
    ``foundation_to_tableau`` (negative) for taking a card back, and a recycle
    penalty for turning the waste over (``recycle_draw1`` in draw 1,
    ``recycle_draw3`` in draw 3); the score never falls below zero.

    ``vegas`` is seed 002's money game: the player pays ``ante`` dollars and
    wins ``per_card`` dollars for each card on the foundations (a card taken
    back loses its dollars again).
    """

    kind: ScoringKind = "none"
    ante: int = 52
    per_card: int = 5
    waste_to_tableau: int = 5
    to_foundation: int = 10
    turn_up: int = 5
    foundation_to_tableau: int = -15
    recycle_draw1: int = -100
    recycle_draw3: int = -20

    def __post_init__(self) -> None:
        if self.kind not in ("none", "standard", "vegas"):
            raise VariantError(f"scoring must be none, standard or vegas, not {clip(self.kind)}")

    def money(self, foundation: _Count) -> _Count:
        """Dollars won or lost with ``foundation`` cards on the foundations,
        under these Vegas amounts (seed 002: pay $52, win $5 a card), whatever
        scoring is kept. Works on one count or on a numpy array of counts.

        >>> Scoring(kind="vegas").money(15)
        23
        """
        return self.winnings(foundation) - self.ante

    def winnings(self, foundation: _Count) -> _Count:
        """Dollars paid out for ``foundation`` cards, before the ante is taken off."""
        return self.per_card * foundation

    def initial(self, foundation: int = 0) -> int:
        """The score of a game that starts with ``foundation`` cards already
        on the foundations."""
        return self.money(foundation) if self.kind == "vegas" else 0

    def after_move(self, score: int, *, source: str, target: str, turned_up: bool) -> int:
        """The score after a card move: ``source`` and ``target`` are
        ``"tableau"``, ``"waste"`` or ``"foundation"``; ``turned_up`` says the
        move turned a face-down card up.

        >>> Scoring(kind="standard").after_move(0, source="waste", target="tableau", turned_up=False)
        5
        """
        if self.kind == "vegas":
            if target == "foundation":
                return score + self.per_card
            if source == "foundation":
                return score - self.per_card
            return score
        if self.kind == "standard":
            delta = self.turn_up if turned_up else 0
            if target == "foundation":
                delta += self.to_foundation
            elif source == "waste":
                delta += self.waste_to_tableau
            elif source == "foundation":
                delta += self.foundation_to_tableau
            return max(0, score + delta)
        return score

    def after_recycle(self, score: int, draw: int) -> int:
        """The score after the waste is turned over in a draw-``draw`` game."""
        if self.kind != "standard":
            return score
        return max(0, score + (self.recycle_draw1 if draw == 1 else self.recycle_draw3))


_EMPTY_RULES = ("king", "any")
#: The fields that decide whether a deal can be won (scoring does not).
_WINNABILITY_FIELDS = ("draw", "passes", "empty", "foundation_return")


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules of one Klondike game.

    - ``draw``: cards turned from the stock at a time (1 or 3). In draw 3 the
      three are fanned on the waste and only the top one plays; fewer are
      turned when fewer remain.
    - ``passes``: how many times the player may go through the stock, or
      ``None`` for no limit. ``1`` means the waste is never turned over.
    - ``empty``: what an empty tableau pile accepts: ``"king"`` (a king, or a
      run headed by one) or ``"any"`` card.
    - ``foundation_return``: whether a foundation's top card may come back to
      the tableau.
    - ``scoring``: see :class:`Scoring`.
    """

    name: str = "custom"
    draw: int = 1
    passes: int | None = None
    empty: str = "king"
    foundation_return: bool = False
    scoring: Scoring = field(default_factory=Scoring)

    def __post_init__(self) -> None:
        if type(self.draw) is not int or self.draw not in (1, 3):
            raise VariantError(f"draw must be 1 or 3, not {clip(self.draw)}")
        if self.passes is not None and (type(self.passes) is not int or self.passes < 1):
            raise VariantError(f"passes must be a whole number >= 1 or unlimited, not {clip(self.passes)}")
        if self.empty not in _EMPTY_RULES:
            raise VariantError(f"empty must be 'king' or 'any', not {clip(self.empty)}")

    @property
    def undo_rule(self) -> str | None:
        """What the player may not take back, in words, or ``None`` when any
        move may be undone. Under Vegas scoring the custom of the casino game
        holds: a draw cannot be undone, nor any move before it, so undo cannot
        be used to look at the stock and go back (the engine's
        :meth:`~cardtable.klondike.KlondikeGame.why_no_undo` enforces it).

        >>> Variant.preset("vegas3").undo_rule, Variant.preset("draw3").undo_rule
        ('Vegas: draws cannot be undone', None)
        """
        return "Vegas: draws cannot be undone" if self.scoring.kind == "vegas" else None

    @property
    def kings_only(self) -> bool:
        """True when only a king (or a king-led run) fills an empty pile."""
        return self.empty == "king"

    # ----- the rules the engine, the bots and the simulator ask ---------------------

    #: ``fits(card, top)``: True when ``card`` (or a run headed by it) may be
    #: built on the tableau card ``top``: one rank lower and the other colour
    #: (the building rule both games share, :meth:`Card.fits_on`, itself).
    fits = staticmethod(Card.fits_on)

    def fills_empty(self, card: Card) -> bool:
        """True when ``card`` (or a run headed by it) may fill an empty tableau pile."""
        return card.rank == 13 or self.empty == "any"

    def accepts(self, top: Card | None, card: Card) -> bool:
        """True when ``card`` may go on a tableau pile whose top card is
        ``top`` (``None``: the pile is empty)."""
        return self.fills_empty(card) if top is None else card.fits_on(top)

    @staticmethod
    def fits_foundation(card: Card, foundation: Sequence[int]) -> bool:
        """True when ``card`` may go to its foundation, whose top ranks by suit
        are ``foundation`` (0 for an empty one): the next rank of its suit."""
        return foundation[card.suit] + 1 == card.rank

    def safe_to_foundation(self, card: Card, foundation: Sequence[int]) -> bool:
        """True when sending ``card`` to its foundation can never cost a win:
        no card that could still need it as a place to land is left in play.

        A card of rank ``r <= 2`` is always safe; otherwise both foundations of
        the other colour must reach ``r - 1``. When foundation cards may come
        back, the other foundation of the card's own colour must also reach
        ``r - 2``: then every card that could stand on it is a foundation card.

        >>> rules = Variant()
        >>> rules.safe_to_foundation(Card.parse("5h"), (4, 0, 4, 4))
        True
        >>> rules.replace(foundation_return=True).safe_to_foundation(Card.parse("5h"), (4, 0, 4, 4))
        False
        """
        rank = card.rank
        if rank <= 2:
            return True
        red = card.is_red
        other = (0, 3) if red else (1, 2)
        if any(foundation[s] < rank - 1 for s in other):
            return False
        if self.foundation_return:
            twin = (1 if card.suit == 2 else 2) if red else (3 if card.suit == 0 else 0)
            return foundation[twin] >= rank - 2
        return True

    def rules_key(self) -> tuple[object, ...]:
        """Every field but the name, scoring included: two variants with the
        same key play and score every game the same. A compiled kernel takes a
        game only when its key is one the kernel was written for, so a field
        added here sends games back to the engine until the kernel learns it."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.name != "name")

    @property
    def kernel_key(self) -> tuple[object, ...]:
        """The key a compiled kernel selects games by: :meth:`rules_key`, so
        that a kernel takes a game only when it was written for every rule
        and the scoring in force.

        >>> Variant.preset("seed-002").kernel_key == Variant.preset("seed-002").replace(name="x").kernel_key
        True
        """
        return self.rules_key()

    @property
    def winnability_key(self) -> str:
        """The key a winnability study of this variant is kept under: the rules
        that decide whether a deal can be won, as JSON. Variants with the same
        rules share it whatever their name or scoring.

        >>> Variant.preset("thoughtful3").winnability_key
        '{"draw": 3, "empty": "king", "foundation_return": true, "passes": "unlimited"}'
        >>> Variant.preset("draw1").winnability_key == Variant.preset("standard1").winnability_key
        True
        """
        import json

        options = self.options()
        return json.dumps({name: options[name] for name in _WINNABILITY_FIELDS}, sort_keys=True)

    @property
    def game_key(self) -> tuple[str, str]:
        """The game and rules the results store keeps this variant's runs,
        games and studies under: ``klondike`` and :attr:`winnability_key`
        (scoring is kept beside them, as the variant).

        >>> Variant.preset("draw3").game_key
        ('klondike', '{"draw": 3, "empty": "king", "foundation_return": false, "passes": "unlimited"}')
        """
        return GAME, self.winnability_key

    @property
    def label(self) -> str:
        """The name a person's games of this variant are kept under: the
        preset's name when the variant is that preset exactly, else
        ``custom:`` and its description.

        >>> Variant.preset("draw3").label
        'draw3'
        >>> Variant.preset("draw3").replace(passes=3).label
        'custom: draw 3, 3 passes, kings in empty piles, no foundation return, no scoring'
        """
        if PRESETS.get(self.name) == self:
            return self.name
        return f"custom: {self.describe()}"

    @property
    def title(self) -> str:
        """The variant's name for a player: the preset's (:data:`PRESET_TITLES`)
        when the variant is that preset exactly, else ``Custom:`` and its
        description. Only shown: games are kept under :attr:`label`.

        >>> Variant.preset("seed-002").title
        'Vegas (draw 1, one pass, classic table)'
        >>> Variant.preset("draw3").replace(passes=3).title
        'Custom: draw 3, 3 passes, kings in empty piles, no foundation return, no scoring'
        """
        if PRESETS.get(self.name) == self:
            return PRESET_TITLES[self.name]
        return f"Custom: {self.describe()}"

    def replace(self, **changes: object) -> Variant:
        """A copy with some options changed (its name becomes ``custom``
        unless a name is given or nothing actually changed)."""
        if "scoring" in changes and isinstance(changes["scoring"], str):
            changes["scoring"] = replace(self.scoring, kind=changes["scoring"])  # type: ignore[arg-type]
        new = replace(self, **changes)  # type: ignore[arg-type]
        if "name" not in changes and new != self:
            new = replace(new, name="custom")
        return new

    def describe(self) -> str:
        """One line of plain words."""
        passes = "unlimited passes" if self.passes is None else (
            "one pass" if self.passes == 1 else f"{self.passes} passes")
        empty = "kings in empty piles" if self.kings_only else "any card in empty piles"
        back = "foundation return" if self.foundation_return else "no foundation return"
        scoring = {"none": "no scoring", "standard": "standard scoring",
                   "vegas": f"Vegas ${self.scoring.ante} to play, ${self.scoring.per_card} a card"}
        return f"draw {self.draw}, {passes}, {empty}, {back}, {scoring[self.scoring.kind]}"

    def options(self) -> dict[str, object]:
        """The options as a plain dictionary (for records and JSON)."""
        return {
            "name": self.name,
            "draw": self.draw,
            "passes": "unlimited" if self.passes is None else self.passes,
            "empty": self.empty,
            "foundation_return": self.foundation_return,
            "scoring": self.scoring.kind,
        }

    @classmethod
    def from_options(cls, options: dict[str, object]) -> Variant:
        """Read :meth:`options` back. Unknown keys are an error, and so is an
        option that contradicts the preset named by ``name``."""
        if not isinstance(options, dict):
            raise VariantError(f"variant options must map option names to values, not {clip(options)}")
        known = {"name", "draw", "passes", "empty", "foundation_return", "scoring"}
        unknown = set(options) - known
        if unknown:
            raise VariantError(f"unknown variant field(s): {clip(', '.join(sorted(map(str, unknown))))}")
        name = str(options.get("name", "custom"))
        if name not in PRESETS and name != "custom":
            raise VariantError(f"unknown variant {clip(name)}; known: {', '.join(PRESETS)}, or custom")
        base = PRESETS.get(name, cls())
        variant = Variant(
            name=name,
            draw=_parse_whole(options.get("draw", base.draw), "draw"),
            passes=parse_passes(options.get("passes", base.passes)),
            empty=str(options.get("empty", base.empty)),
            foundation_return=_parse_bool(options.get("foundation_return", base.foundation_return)),
            scoring=replace(base.scoring, kind=str(options.get("scoring", base.scoring.kind))),  # type: ignore[arg-type]
        )
        if name != "custom" and variant.rules_key() != base.rules_key():
            # A preset's name promises its rules: an option that changes them is a contradiction.
            given, own = variant.options(), base.options()
            field_ = next(key for key in own if given[key] != own[key])
            raise VariantError(f"variant {name} has {field_} {own[field_]}, not {clip(given[field_])}; "
                               "name it custom to change its rules")
        return variant

    @classmethod
    def every(cls) -> list[Variant]:
        """Every combination of the rules that decide play, 24 in all: draw 1
        and 3, passes unlimited, 1 and 3, kings-only or any card to an empty
        pile, and foundation cards kept home or let back (scoring left at its
        default). The list the differential tests and benchmarks sweep.

        >>> len(Variant.every()), Variant.every()[0].passes, Variant.every()[-1].foundation_return
        (24, None, True)
        """
        return [cls(draw=draw, passes=passes, empty=empty, foundation_return=back)
                for draw in (1, 3) for passes in (None, 1, 3) for empty in _EMPTY_RULES for back in (False, True)]

    @classmethod
    def preset(cls, name: str) -> Variant:
        """A named preset, by its name (``seed-002``) or its player's name
        (:data:`PRESET_TITLES`: ``"Vegas (draw 1, one pass, classic table)"``;
        case, spaces and punctuation do not matter); see ``cardtable variants``.

        >>> Variant.preset("vegas (draw 1, one pass)") == Variant.preset("vegas1")
        True
        """
        key = name if name in PRESETS else _ALIASES.get(_spelling(name))
        if key is None:
            raise VariantError(
                f"unknown variant {clip(name)}; known: {', '.join(PRESETS)} "
                "(or their names in 'cardtable variants')")
        return PRESETS[key]


def parse_passes(value: object) -> int | None:
    """Read a pass limit: a whole number >= 1, or ``unlimited`` (also ``None``)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("unlimited", "inf", "none")):
        return None
    passes = _parse_whole(value, "passes", "a whole number or 'unlimited'")
    if passes < 1:
        raise VariantError(f"passes must be at least 1, not {passes}")
    return passes


def _parse_whole(value: object, what: str, expected: str = "a whole number") -> int:
    """A whole number given as an int or as digits; anything else (a bool, a
    float such as 2.7 or 1e999, other text) is a :class:`VariantError`."""
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) < 10:
        return int(value.strip())
    raise VariantError(f"{what} must be {expected}, not {clip(value)}")


def _parse_bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("yes", "true", "1", "on"):
        return True
    if text in ("no", "false", "0", "off"):
        return False
    raise VariantError(f"foundation_return: expected yes or no, not {clip(value)}")


#: The rule fields every site in the list above knows, by class. A field added
#: to :class:`Variant` or :class:`Scoring` must be added here once every site
#: handles it.
RULE_FIELDS: dict[str, tuple[str, ...]] = {
    "Variant": ("name", "draw", "passes", "empty", "foundation_return", "scoring"),
    "Scoring": ("kind", "ante", "per_card", "waste_to_tableau", "to_foundation", "turn_up",
                "foundation_to_tableau", "recycle_draw1", "recycle_draw3"),
}

_VEGAS = Scoring(kind="vegas")

#: The named presets, by name.
PRESETS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(name="seed-002", draw=1, passes=1, foundation_return=False, scoring=_VEGAS),
        Variant(name="seed-000", draw=3, passes=3, foundation_return=False),
        Variant(name="seed-001", draw=3, passes=None, foundation_return=True),
        Variant(name="seed-004", draw=3, passes=None, foundation_return=True),
        Variant(name="draw1", draw=1, passes=None, foundation_return=False),
        Variant(name="draw3", draw=3, passes=None, foundation_return=False),
        Variant(name="thoughtful1", draw=1, passes=None, foundation_return=True),
        Variant(name="thoughtful3", draw=3, passes=None, foundation_return=True),
        Variant(name="vegas1", draw=1, passes=1, scoring=_VEGAS),
        Variant(name="vegas3", draw=3, passes=3, scoring=_VEGAS),
        Variant(name="standard1", draw=1, passes=None, scoring=Scoring(kind="standard")),
        Variant(name="standard3", draw=3, passes=None, scoring=Scoring(kind="standard")),
    )
}

#: Each preset's name for a player, as the apps and ``cardtable variants`` show it. The presets'
#: own names (``seed-002``, ``thoughtful1``...) stay the keys a person's games and stored runs are
#: kept under (:attr:`Variant.label`); :meth:`Variant.preset` takes either.
PRESET_TITLES: dict[str, str] = {
    "draw1": "Klondike (draw 1)",
    "draw3": "Klondike (draw 3)",
    "standard1": "Klondike with points (draw 1)",
    "standard3": "Klondike with points (draw 3)",
    "thoughtful1": "Klondike, cards come back (draw 1)",
    "thoughtful3": "Klondike, cards come back (draw 3)",
    "vegas1": "Vegas (draw 1, one pass)",
    "vegas3": "Vegas (draw 3, three passes)",
    "seed-000": "Klondike, three passes (draw 3)",
    "seed-001": "Klondike, cards come back (draw 3, classic table)",
    "seed-002": "Vegas (draw 1, one pass, classic table)",
    "seed-004": "Archeologitaire (draw 3, cards come back)",
}

#: One line about each preset for a player, for ``cardtable variants`` and the new-game dialog.
PRESET_NOTES: dict[str, str] = {
    "draw1": "the common game: turn one card at a time, go through the stock as often as you like",
    "draw3": "turn three cards at a time (only the top one plays), as often as you like",
    "standard1": "draw 1 with the familiar points: 10 a card home, 5 a card turned up, 100 off a redeal",
    "standard3": "draw 3 with the familiar points: 10 a card home, 5 a card turned up, 20 off a redeal",
    "thoughtful1": "draw 1, and a card on a foundation may come back to the piles (the rules solvers study; "
                   "the cards are dealt face down as usual)",
    "thoughtful3": "draw 3, and a card on a foundation may come back to the piles (the rules solvers study; "
                   "the cards are dealt face down as usual)",
    "vegas1": "the casino game: pay $52, win $5 a card home; draw 1, one pass, and draws cannot be undone",
    "vegas3": "the casino game: pay $52, win $5 a card home; draw 3, three passes, and draws cannot be undone",
    "seed-000": "draw 3, and only three passes through the stock",
    "seed-001": "the same rules as 'Klondike, cards come back (draw 3)', kept for the games played at this table",
    "seed-002": "the same rules as 'Vegas (draw 1, one pass)', kept for the games played at this table",
    "seed-004": "Archeologitaire's rules: draw 3, unlimited passes, and foundation cards may come back",
}


def _spelling(name: str) -> str:
    """A name as :meth:`Variant.preset` compares it: lower case, letters and digits only."""
    return "".join(char for char in name.lower() if char.isalnum())


#: Every name a preset answers to, spelled as :func:`_spelling` does: its own name and its player's name.
_ALIASES: dict[str, str] = {_spelling(text): key for key in PRESETS for text in (key, PRESET_TITLES[key])}
