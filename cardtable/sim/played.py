"""A person's games and Kings Corner hands, and their statistics, in the
results store (:mod:`cardtable.runs.store`).

A person's Klondike games (:class:`PlayedGame`, one row each, written by
:func:`record_played`) are kept under their variant's label
(:attr:`Variant.label <cardtable.klondike.Variant.label>`), and
:func:`play_stats` sums them up per label (:class:`PlayStats`). A person's
Kings Corner hands (:class:`PlayedHand`, written by :func:`record_hand`)
are kept under their table's label (:func:`kings_corner_label`), and
:func:`hand_stats` sums them up (:class:`HandStats`): hands and matches
played and won, the mean penalty, and streaks of matches won. Every other
patience game's games are kept the same way under their game and rules
(:meth:`PlayedGame.of_patience`, with the game's record to review it), and
:func:`game_stats` sums up one game's, counting first the figures the
terminal app kept before the store kept them (:func:`keep_earlier_figures`).
A store made
before played games (or hands) were kept gains their table the first time
it is opened for writing; read-only, it simply has none.

>>> import tempfile, pathlib
>>> from cardtable.klondike import Variant
>>> from cardtable.runs.store import ResultsStore
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> draw1 = Variant.preset("draw1")
>>> with ResultsStore(path) as store:
...     for won in (True, False, True, True):
...         record_played(store, PlayedGame.of(draw1, start="seed 7", won=won, seconds=200.0 if won else 30.0,
...                                            moves=120 if won else 15, foundation=52 if won else 4))
>>> with ResultsStore(path, create=False) as store:
...     stats, = play_stats(store)
>>> (stats.variant, stats.played, stats.won, stats.current_streak, stats.best_streak, stats.fewest_moves)
('draw1', 4, 3, 2, 2, 120)
"""

from __future__ import annotations

import datetime
import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from cardtable.errors import RulesError
from cardtable.klondike.variant import GAME, Variant
from cardtable.runs.store import ONE_RULE_SET, ResultsStore

if TYPE_CHECKING:
    from cardtable.klondike.game import KlondikeGame
    from cardtable.patience.engine import PatienceGame

__all__ = ["RESULTS", "DailyStats", "EarlierFigures", "HandStats", "PlayStats", "PlayedGame", "PlayedHand",
           "daily_stats", "daily_streaks", "earlier_figures", "game_stats", "hand_stats", "keep_earlier_figures",
           "kings_corner_label", "play_stats", "played_games", "played_hands", "record_hand", "record_played"]


#: How a played game ended: won, lost (no legal move left), or abandoned (left while moves remained).
RESULTS = ("won", "lost", "abandoned")


@dataclass(frozen=True)
class PlayedGame:
    """One game a person played to its end (won, or given up).

    ``variant`` is the label of :attr:`~cardtable.klondike.Variant.label` and ``options`` the
    variant's :meth:`~cardtable.klondike.variant.Variant.options`; ``start``
    is the deal or position string the game began from; ``seconds`` the time
    it took, ``moves`` the moves made and ``foundation`` the cards on the
    foundations at the end (52 exactly when ``won``). ``finished`` is when it
    ended (``YYYY-MM-DD HH:MM:SS``, local time); left empty, the store fills
    it in. ``daily`` is the date (``YYYY-MM-DD``) of the daily deal the game
    was (:mod:`cardtable.solver.daily`), or None. :meth:`of` builds one from
    a :class:`Variant`.

    A game of another patience game (:meth:`of_patience`) names its
    ``game`` and ``rules`` (:func:`~cardtable.solver.patience_study.study_key`),
    and ``total``, the cards its foundations hold when all are home (its
    win may ask for something else: Golf's empty tableau); Klondike's are
    its 52. ``result`` says how the game ended: ``won``, ``lost`` (no legal
    move left) or ``abandoned`` (left while moves remained; left empty,
    ``lost`` is never guessed: a game not won is ``abandoned``). ``record``
    is the game's record (its deal and moves, to review it), or None.

    A value that cannot describe a game raises :class:`ValueError` when built.
    """

    variant: str
    options: dict[str, object]
    start: str
    won: bool
    seconds: float
    moves: int
    foundation: int
    finished: str = ""
    daily: str | None = None
    game: str = GAME
    rules: str = ""
    total: int = 52
    result: str = ""
    record: str | None = None

    def __post_init__(self) -> None:
        if not self.variant:
            raise ValueError("a played game needs its variant's label")
        if not self.result:
            object.__setattr__(self, "result", "won" if self.won else "abandoned")
        if self.result not in RESULTS or (self.result == "won") != bool(self.won):
            raise ValueError(f"result must be one of {', '.join(RESULTS)} and 'won' exactly when the game is won, "
                             f"not {self.result!r} (won={self.won!r})")
        if self.game != GAME and not self.rules:
            raise ValueError(f"a played game of {self.game} needs its rules key")
        if self.daily is not None:
            try:
                datetime.date.fromisoformat(self.daily)
            except (TypeError, ValueError):
                raise ValueError(f"daily must be a date written YYYY-MM-DD, not {self.daily!r}") from None
        if isinstance(self.moves, bool) or not isinstance(self.moves, int) or self.moves < 0:
            raise ValueError(f"moves must be a whole number >= 0, not {self.moves!r}")
        if isinstance(self.total, bool) or not isinstance(self.total, int) or self.total < 1 \
                or (self.game == GAME and self.total != 52):
            raise ValueError(f"total must be the game's cards (52 for Klondike), not {self.total!r}")
        if isinstance(self.foundation, bool) or not isinstance(self.foundation, int) \
                or not 0 <= self.foundation <= self.total:
            raise ValueError(f"foundation must be a whole number from 0 to {self.total}, not {self.foundation!r}")
        if not isinstance(self.seconds, int | float) or not math.isfinite(self.seconds) or self.seconds < 0:
            raise ValueError(f"seconds must be a number >= 0, not {self.seconds!r}")
        if self.game == GAME and self.won != (self.foundation == 52):
            raise ValueError(f"a game is won exactly when all 52 cards are on the foundations "
                             f"(won={self.won!r}, foundation={self.foundation})")
        try:
            json.dumps(self.options)
        except (TypeError, ValueError) as error:
            raise ValueError(f"the variant options must be plain JSON values: {error}") from None

    @classmethod
    def of(cls, variant: Variant, *, start: str, won: bool, seconds: float, moves: int, foundation: int,
           finished: str = "", daily: str | None = None) -> PlayedGame:
        """A played game of ``variant``, its label and options filled in."""
        return cls(variant.label, variant.options(), start, won, seconds, moves, foundation, finished, daily)

    @classmethod
    def of_game(cls, game: KlondikeGame, *, won: bool, seconds: float, daily: str | None = None) -> PlayedGame:
        """``game`` as played: its start (a deal string, else a position
        string), its moves and its foundation cards, with ``seconds`` rounded
        to the millisecond; both faces count their finished games by it."""
        start = game.start.deal_string() if game.start.is_deal else str(game.start)
        return cls.of(game.variant, start=start, won=won, seconds=round(seconds, 3), moves=len(game.moves),
                      foundation=game.foundation_count(), daily=daily)

    @classmethod
    def of_patience(cls, game: PatienceGame, *, deal: str | None, seconds: float, daily: str | None = None,
                    finished: str = "", peeked: bool = False) -> PlayedGame:
        """``game`` of any patience game as played from ``deal`` (its seed's
        text, as :meth:`PatienceGame.from_seed` reads it; None: from a
        position, which its record keeps), kept under its
        game and rules (:func:`~cardtable.solver.patience_study.study_key`):
        won, lost when no legal move is left, else abandoned; with its
        record (to review it) and ``seconds`` rounded to the millisecond.
        A game of Klondike's rules (:func:`~cardtable.klondike.patience.variant_of`)
        is kept as Klondike's faces keep it, under its variant, so it counts
        in Klondike's statistics. Both faces of the patience games count
        their finished games by it. A game the player ``peeked`` at (saw its
        face-down cards) has ``Peeked: yes`` in its record's headers."""
        from cardtable.klondike.patience import plain_preset, variant_of
        from cardtable.patience.record import PatienceRecord, rules_name

        description = game.description
        outcome = game.outcome()
        result = "abandoned" if outcome is None else "won" if outcome.is_win else "lost"
        fields = ("position" if deal is None else deal, result == "won", round(seconds, 3), len(game.moves),
                  game.foundation_cards(), finished, daily)
        record = str(PatienceRecord.from_game(game, deal, **({"Peeked": "yes"} if peeked else {})))
        variant = variant_of(description)
        if variant is not None:
            preset = plain_preset(variant)
            variant = variant if preset is None else Variant.preset(preset)
            return cls(variant.label, variant.options(), *fields, result=result, record=record)
        return cls(rules_name(description), {"applied": list(description.applied)}, *fields, game=description.name,
                   rules=description.rules_key, total=description.cards.total, result=result, record=record)

    def to_row(self) -> dict[str, object]:
        """The game as a row of the store's ``played`` table, stamped with
        the time now when its ``finished`` is empty."""
        game, rules = self.game_key
        return {"finished": self.finished or _now(), "variant": self.variant, "options": json.dumps(self.options),
                "start": self.start, "won": int(self.won), "seconds": float(self.seconds), "moves": self.moves,
                "foundation": self.foundation, "daily": self.daily, "game": game, "rules": rules,
                "total": self.total, "result": self.result, "record": self.record}

    @property
    def game_key(self) -> tuple[str, str]:
        """The game and rules the game is kept under: a patience game's own;
        Klondike's, under its variant's rules (:attr:`Variant.game_key
        <cardtable.klondike.Variant.game_key>`); options that name no
        variant keep their own JSON as the rules."""
        if self.game != GAME:
            return self.game, self.rules
        try:
            return Variant.from_options(self.options).game_key
        except (RulesError, TypeError, ValueError):
            return GAME, json.dumps(self.options, sort_keys=True)

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> PlayedGame:
        """The game of a row of the ``played`` table's :data:`_GAME_COLUMNS`."""
        finished, label, options, start, won, seconds, moves, foundation, daily, game, rules, total, result, \
            record = row
        if str(game) == GAME:  # Klondike's rules are its variant's options
            rules = ""
        return cls(str(label), json.loads(str(options)), str(start), bool(won), float(seconds), int(moves),
                   int(foundation), str(finished), None if daily is None else str(daily), str(game), str(rules),
                   int(total), str(result), None if record is None else str(record))


@dataclass(frozen=True)
class PlayStats:
    """A person's record in one variant (by label).

    ``current_streak`` counts the wins in a row up to the latest game (0 when
    it was lost), ``best_streak`` the longest run of wins; ``best_seconds`` is
    the fastest win and ``fewest_moves`` the fewest moves in a win (each None
    before the first win). ``win_rate`` is ``won / played`` (0.0 before any
    game).
    """

    variant: str
    played: int
    won: int
    win_rate: float
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None

    def to_dict(self) -> dict[str, object]:
        """The figures as a plain dictionary (for JSON)."""
        return asdict(self)


#: Kings Corner's name in the results store (its hands are kept under its one set of rules).
KINGS_CORNER = "kings-corner"


def kings_corner_label(opponents: int, level: str, target: int, *, people: int = 0) -> str:
    """The name a person's Kings Corner hands are kept under: the table
    (``opponents`` others, ``people`` of them people and the rest ``level``
    bots, playing to ``target`` points).

    >>> kings_corner_label(3, "strategic", 25)
    '3 strategic bots, to 25 points'
    >>> kings_corner_label(3, "expert", 25, people=1)
    '1 person and 2 expert bots, to 25 points'
    >>> kings_corner_label(2, "expert", 10, people=2)
    '2 people, to 10 points'
    """
    if not 0 <= people <= opponents:
        raise ValueError(f"{people} people cannot be among {opponents} opponents")
    bots = opponents - people
    named = [f"{people} {'person' if people == 1 else 'people'}"] if people else []
    if bots or not people:
        named.append(f"{bots} {level} bot{'s' if bots != 1 else ''}")
    return f"{' and '.join(named)}, to {target} point{'s' if target != 1 else ''}"


@dataclass(frozen=True)
class PlayedHand:
    """One Kings Corner hand a person played to its end.

    ``label`` names the table (:func:`kings_corner_label`), ``match_seed``
    the match and ``hand`` the hand in it (from 1); ``won`` says whether
    they emptied their hand first, ``penalty`` is their penalty points in
    the hand and ``seconds`` the time it took. On the match's last hand
    ``match_won`` says whether their total was the lowest (a tie shares
    the win); else it is None. ``finished`` as in :class:`PlayedGame`.

    A value that cannot describe a hand raises :class:`ValueError` when built.
    """

    label: str
    match_seed: str
    hand: int
    won: bool
    penalty: int
    seconds: float
    match_won: bool | None = None
    finished: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            raise ValueError("a played hand needs its table's label")
        for name in ("hand", "penalty"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name == "hand" else 0):
                raise ValueError(f"{name} must be a whole number >= {1 if name == 'hand' else 0}, not {value!r}")
        if not math.isfinite(self.seconds) or self.seconds < 0:
            raise ValueError(f"seconds must be a finite number >= 0, not {self.seconds!r}")
        if self.won and self.penalty:
            raise ValueError("a hand emptied first has no penalty points")

    def to_row(self) -> dict[str, object]:
        """The hand as a row of the store's ``played_hands`` table, stamped
        with the time now when its ``finished`` is empty."""
        return {"finished": self.finished or _now(), "label": self.label, "match_seed": self.match_seed,
                "hand": self.hand, "won": int(self.won), "penalty": self.penalty, "seconds": float(self.seconds),
                "match_won": None if self.match_won is None else int(self.match_won), "game": KINGS_CORNER,
                "rules": ONE_RULE_SET}

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> PlayedHand:
        """The hand of a row of the ``played_hands`` table's :data:`_HAND_COLUMNS`."""
        label, seed, number, won, penalty, seconds, match_won, finished = row
        return cls(str(label), str(seed), int(number), bool(won), int(penalty), float(seconds),
                   None if match_won is None else bool(match_won), str(finished))


@dataclass(frozen=True)
class HandStats:
    """A person's record at one Kings Corner table: hands played and won,
    the mean penalty a hand, matches finished and won, and the current and
    best streak of matches won."""

    label: str
    hands: int
    hands_won: int
    mean_penalty: float
    matches: int
    matches_won: int
    match_win_rate: float
    current_streak: int
    best_streak: int

    def to_dict(self) -> dict[str, object]:
        """The figures as plain JSON values."""
        return dict(self.__dict__)


def _hand_stats(label: str, hands: list[tuple[bool, int, bool | None]]) -> HandStats:
    """Sum up ``(won, penalty, match_won)`` of one table's hands, oldest first."""
    matches = [match_won for _, _, match_won in hands if match_won is not None]
    streak = best = 0
    for match_won in matches:
        streak = streak + 1 if match_won else 0
        best = max(best, streak)
    return HandStats(
        label=label, hands=len(hands), hands_won=sum(won for won, _, _ in hands),
        mean_penalty=sum(p for _, p, _ in hands) / len(hands) if hands else 0.0,
        matches=len(matches), matches_won=sum(matches), match_win_rate=sum(matches) / len(matches) if matches else 0.0,
        current_streak=streak, best_streak=best)


@dataclass(frozen=True)
class EarlierFigures:
    """A game's figures from before the store kept its games (the terminal
    app's statistics file of a patience game): games ``played`` and
    ``won``, the wins in a row at the end (``streak``) and at best, the
    fastest win in seconds and the fewest moves of a win (None before a
    win); ``source`` says where they came from (the file's path).

    Figures that no games could give raise :class:`ValueError` when built.
    """

    played: int
    won: int
    streak: int
    best_streak: int
    fastest: float | None
    fewest: int | None
    source: str = ""

    def __post_init__(self) -> None:
        counts = (self.played, self.won, self.streak, self.best_streak)
        if not all(type(value) is int and value >= 0 for value in counts) \
                or not self.streak <= self.best_streak <= self.won <= self.played:
            raise ValueError(f"earlier figures need whole numbers with streak <= best streak <= won <= played, "
                             f"not {counts}")
        if (self.fastest is None) != (self.fewest is None) or (self.fastest is None) != (self.won == 0):
            raise ValueError("earlier figures have a fastest win and fewest moves exactly when a game was won")
        if self.fastest is not None and (not math.isfinite(self.fastest) or self.fastest < 0):
            raise ValueError(f"the fastest win must be a number of seconds >= 0, not {self.fastest!r}")
        if self.fewest is not None and (type(self.fewest) is not int or self.fewest < 0):
            raise ValueError(f"the fewest moves must be a whole number >= 0, not {self.fewest!r}")


_BEFORE_COLUMNS = ("played", "won", "streak", "best_streak", "fastest", "fewest", "source")


def earlier_figures(store: ResultsStore, game: str, rules: str) -> EarlierFigures | None:
    """The figures of ``game`` under ``rules`` from before the store kept
    its games (:func:`keep_earlier_figures`), or None."""
    rows = store.select("played_before", _BEFORE_COLUMNS, where={"game": game, "rules": rules}, order="game",
                        action="read earlier figures")
    if not rows:
        return None
    played, won, streak, best, fastest, fewest, source = rows[0]
    return EarlierFigures(int(played), int(won), int(streak), int(best), None if fastest is None else float(fastest),
                          None if fewest is None else int(fewest), str(source))


def keep_earlier_figures(store: ResultsStore, game: str, rules: str, figures: EarlierFigures) -> bool:
    """Keep ``figures`` as those of ``game`` under ``rules`` from before
    the store kept its games, unless figures are kept already (they are
    taken once: the games played since count on top of them); whether
    they were kept now."""
    if earlier_figures(store, game, rules) is not None:
        return False
    store.put("played_before", {"game": game, "rules": rules, **{name: getattr(figures, name)
                                                                for name in _BEFORE_COLUMNS}},
              action="keep earlier figures")
    return True


def _play_stats(label: str, games: list[tuple[bool, float, int]], before: EarlierFigures | None = None) -> PlayStats:
    """Sum up ``(won, seconds, moves)`` of one label's games, oldest first,
    after the figures kept from ``before`` them (if any)."""
    streak = best = 0 if before is None else before.streak
    if before is not None:
        best = before.best_streak
    for won, _, _ in games:
        streak = streak + 1 if won else 0
        best = max(best, streak)
    wins = [(seconds, moves) for won, seconds, moves in games if won]
    if before is not None and before.fastest is not None and before.fewest is not None:
        wins.append((before.fastest, before.fewest))
    played = len(games) + (0 if before is None else before.played)
    won_count = sum(won for won, _, _ in games) + (0 if before is None else before.won)
    return PlayStats(
        variant=label, played=played, won=won_count, win_rate=won_count / played if played else 0.0,
        current_streak=streak, best_streak=best,
        best_seconds=min(s for s, _ in wins) if wins else None,
        fewest_moves=min(m for _, m in wins) if wins else None)


def game_stats(store: ResultsStore | None, game: str, rules: str, label: str, *, player: str | None = None,
               earlier: EarlierFigures | None = None) -> PlayStats:
    """A person's record in ``game`` under ``rules`` (any patience game; its
    games of every label together, named ``label``), all zeros when never
    played (None: no store yet): the browser table's ``player``'s, or with
    None the terminal app's person's, whose figures from before the store
    kept the game (:func:`earlier_figures`, else ``earlier`` while the
    store has not taken them) count first."""
    where = None if store is None else _whose(store, "played", {"game": game, "rules": rules}, player)
    rows = [] if store is None or where is None else store.select(
        "played", ("won", "seconds", "moves"), where=where, action="read played games")
    before = None
    if player is None:
        before = (earlier_figures(store, game, rules) if store is not None else None) or earlier
    return _play_stats(label, [(bool(won), float(seconds), int(moves)) for won, seconds, moves in rows], before)


#: The columns of :meth:`PlayedGame.from_row` and :meth:`PlayedHand.from_row`.
_GAME_COLUMNS = ("finished", "variant", "options", "start", "won", "seconds", "moves", "foundation", "daily",
                 "game", "rules", "total", "result", "record")
_HAND_COLUMNS = ("label", "match_seed", "hand", "won", "penalty", "seconds", "match_won", "finished")


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


def record_played(store: ResultsStore, game: PlayedGame, *, player: str | None = None) -> None:
    """Keep one game a person played (in one transaction), stamping it
    with the time now when its ``finished`` is empty; ``player`` names the
    browser table's player who played it (None: the terminal app's person)."""
    row = game.to_row() if player is None else {**game.to_row(), "player": player}
    store.append("played", row, action="record a played game")


def _whose(store: ResultsStore, table: str, where: dict[str, object], player: str | None) -> dict[str, object] | None:
    """The ``where`` of one person's rows of ``table`` (games or hands), narrowed
    by ``where``: ``player``'s, or with None the terminal app's person's (every
    row of a store made before rows named their player); None: no row can match."""
    if "player" in store.columns(table):
        return {**where, "player": player}
    return None if player is not None else where


def _of_game(game: str, variant: str | None, rules: str | None = None) -> dict[str, object]:
    """The ``where`` of a game's played games (those of one variant label, of one rules key)."""
    where: dict[str, object] = {"game": game}
    if variant is not None:
        where["variant"] = variant
    if rules is not None:
        where["rules"] = rules
    return where


def played_games(store: ResultsStore, variant: str | None = None, *, player: str | None = None,
                 game: str = GAME, rules: str | None = None) -> list[PlayedGame]:
    """Every game of ``game`` (Klondike unless told) a person played (or
    those of one variant label, or of one rules key), oldest first: the
    browser table's ``player``'s, or with None the terminal app's person's."""
    where = _whose(store, "played", _of_game(game, variant, rules), player)
    if where is None:
        return []
    return [PlayedGame.from_row(row)
            for row in store.select("played", _GAME_COLUMNS, where=where, action="read played games")]


def play_stats(store: ResultsStore, variant: str | None = None, *, player: str | None = None,
               game: str = GAME) -> list[PlayStats]:
    """A person's record in each variant label of ``game`` (Klondike unless
    told) played, ordered by label; given a label, just that one (all zeros
    when it was never played). The person is the browser table's
    ``player``, or with None the terminal app's person (games kept without
    a player)."""
    games: dict[str, list[tuple[bool, float, int]]] = {} if variant is None else {variant: []}
    where = _whose(store, "played", _of_game(game, variant), player)
    rows = [] if where is None else store.select("played", ("variant", "won", "seconds", "moves"), where=where,
                                                 action="read played games")
    for label, won, seconds, moves in rows:
        games.setdefault(str(label), []).append((bool(won), float(seconds), int(moves)))
    return [_play_stats(label, games[label]) for label in sorted(games)]


def record_hand(store: ResultsStore, hand: PlayedHand, *, player: str | None = None) -> None:
    """Keep one Kings Corner hand a person played (in one transaction),
    stamped with the time now when its ``finished`` is empty; ``player``
    names the browser table's player who played it (None: the terminal
    app's person)."""
    row = hand.to_row() if player is None else {**hand.to_row(), "player": player}
    store.append("played_hands", row, action="record a played hand")


def played_hands(store: ResultsStore, label: str | None = None, *, player: str | None = None) -> list[PlayedHand]:
    """Every Kings Corner hand a person played (or those at one table),
    oldest first: the browser table's ``player``'s, or with None the
    terminal app's person's (hands kept without a player)."""
    where = _whose(store, "played_hands", {} if label is None else {"label": label}, player)
    if where is None:
        return []
    return [PlayedHand.from_row(row)
            for row in store.select("played_hands", _HAND_COLUMNS, where=where, action="read played hands")]


def hand_stats(store: ResultsStore, label: str | None = None, *, player: str | None = None) -> list[HandStats]:
    """A person's record at each Kings Corner table played, ordered by
    label; given a label, just that one (all zeros when never played). The
    person is the browser table's ``player``, or with None the terminal
    app's person (hands kept without a player)."""
    hands: dict[str, list[tuple[bool, int, bool | None]]] = {} if label is None else {label: []}
    for hand in played_hands(store, label, player=player):
        hands.setdefault(hand.label, []).append((hand.won, hand.penalty, hand.match_won))
    return [_hand_stats(name, hands[name]) for name in sorted(hands)]


@dataclass(frozen=True)
class DailyStats:
    """A person's daily deals in one variant (by label): ``days`` the days
    whose daily deal they played (a game won or left after a move), ``days_won``
    the days on which they won it; ``current_streak`` the days won in a row up
    to today (or up to yesterday, while today's deal is not won yet) and
    ``best_streak`` the longest such run. A day lost, or a day missed, ends a
    streak."""

    variant: str
    days: int
    days_won: int
    current_streak: int
    best_streak: int

    def to_dict(self) -> dict[str, object]:
        """The figures as a plain dictionary (for JSON)."""
        return asdict(self)


def daily_streaks(days_won: Iterable[datetime.date], today: datetime.date) -> tuple[int, int]:
    """The current and the best streak of consecutive days won, given the days
    whose daily deal was won: the current one ends today, or yesterday while
    today is not won yet (today is not over); else it is 0.

    >>> d = datetime.date
    >>> daily_streaks([d(2026, 1, 1), d(2026, 1, 2), d(2026, 1, 4), d(2026, 1, 5)], d(2026, 1, 6))
    (2, 2)
    >>> daily_streaks([d(2026, 1, 1), d(2026, 1, 2), d(2026, 1, 3)], d(2026, 1, 5))
    (0, 3)
    """
    won = set(days_won)
    best = run = 0
    previous: datetime.date | None = None
    for day in sorted(won):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    one = datetime.timedelta(days=1)
    end = today if today in won else today - one
    current = 0
    while end in won:
        current += 1
        end -= one
    return current, best


def daily_stats(store: ResultsStore, today: datetime.date, variant: str | None = None, *,
                player: str | None = None, game: str = GAME, rules: str | None = None) -> list[DailyStats]:
    """A person's daily deals of ``game`` (Klondike unless told; under
    ``rules`` only, when given) in each variant label that has any (or in
    the label ``variant`` only), ordered by label; streaks end at
    ``today``. The person is the browser table's ``player``, or with None
    the terminal app's person (games kept without a player)."""
    days: dict[str, dict[datetime.date, bool]] = {}
    where = _whose(store, "played", _of_game(game, variant, rules), player)
    if where is None:
        return []
    for label, won, daily in store.select("played", ("variant", "won", "daily"), where=where,
                                          action="read played games"):
        if daily is None:
            continue
        try:
            day = datetime.date.fromisoformat(str(daily))
        except ValueError:
            continue  # not written by cardtable: no day to count
        seen = days.setdefault(str(label), {})
        seen[day] = seen.get(day, False) or bool(won)
    rows = []
    for label in sorted(days):
        won = [day for day, result in days[label].items() if result]
        current, best = daily_streaks(won, today)
        rows.append(DailyStats(label, len(days[label]), len(won), current, best))
    return rows
