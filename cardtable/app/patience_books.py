"""What the patience app keeps for each game: the game in progress (its
autosave, a file named after the game in the per-user data folder, where
Klondike's autosave is, :func:`cardtable.app.autosave.autosave_path`) and
its finished games, in the results store beside it.

Each finished game (won, or left for a new game after a move) is one row of
the store's played games (:meth:`PlayedGame.of_patience
<cardtable.sim.played.PlayedGame.of_patience>`: the game and its rules, the
deal, the result, moves, time, foundation cards out of the game's own total,
and its record), and the statistics are the store's for that game and rules
(:func:`~cardtable.sim.played.game_stats`): the same figures ``cardtable
stats --game NAME`` prints.

Before the store kept every game's games, the app kept each game's figures
in ``GAME-stats.json`` beside the store (games played and won, the current
and best streaks of wins, the fastest win and the fewest moves of a win).
Such a file is taken into the store the first time a game of it is counted
(:func:`~cardtable.sim.played.keep_earlier_figures`), its figures counting
before the games played since; until then they are read from the file. The
file is left where it is. The autosave is ``GAME-autosave.txt``, the game
record (:mod:`cardtable.patience.record`) with a ``Time`` header. ``GAME``
is the game's name with its options (``golf+wrap``); a game from a user's
description file is ``file-NAME``.

Files that cannot be read or written never stop a game: each method that
touches one returns the trouble to tell the player ("" when all went well).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from cardtable._files import atomic_write_text, describe_error, read_text
from cardtable.app import autosave
from cardtable.errors import CardtableError, RulesError
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame
from cardtable.patience.record import PatienceRecord, rules_name
from cardtable.patience.registry import load

if TYPE_CHECKING:
    from cardtable.sim.played import EarlierFigures, PlayStats

__all__ = ["PEEKED_HEADER", "PatienceBooks", "earlier_figures_file", "game_key", "saved_seconds",
           "stats_lines"]

#: The record header of a game whose face-down cards the player saw (``P`` in the app).
PEEKED_HEADER = "Peeked"


def saved_seconds(headers: dict[str, str]) -> float:
    """The seconds a saved game had taken, from its record's ``Time`` header
    (0 when absent or not a time).

    >>> saved_seconds({"Time": "83.5"}), saved_seconds({}), saved_seconds({"Time": "soon"})
    (83.5, 0.0, 0.0)
    """
    try:
        seconds = float(headers.get(autosave.TIME_HEADER, "0"))
    except ValueError:
        return 0.0
    return seconds if 0 <= seconds < float("inf") else 0.0


def game_key(description: Description) -> str:
    """The name a game's files go by: the shipped game's name with its
    options (``golf+wrap``), or ``file-NAME`` for a user's description.

    >>> from cardtable.patience.registry import get
    >>> game_key(get("golf").with_options("wrap")), game_key(get("freecell"))
    ('golf+wrap', 'freecell')
    """
    name = rules_name(description)
    try:
        shipped = load(name) == description
    except RulesError:
        shipped = False
    key = name.replace(":", "+") if shipped else f"file-{description.name}"
    return "".join(char if char.isalnum() or char in "+-_" else "_" for char in key)


def stats_lines(stats: PlayStats, title: str) -> list[str]:
    """A game's statistics in words.

    >>> from cardtable.sim.played import PlayStats
    >>> stats_lines(PlayStats("golf", 2, 1, 0.5, 0, 1, 90.0, 80), "Golf")
    ['Golf: 2 played, 1 won (50%)', 'streak of wins: 0 now, 1 at best', 'fastest win 1:30, fewest moves 80']
    """
    from cardtable.app.status import clock_text

    if not stats.played:
        return [f"{title}: no games finished yet (a won game, or one left for a new game, counts)."]
    lines = [f"{title}: {stats.played} played, {stats.won} won ({stats.win_rate:.0%})",
             f"streak of wins: {stats.current_streak} now, {stats.best_streak} at best"]
    if stats.best_seconds is not None and stats.fewest_moves is not None:
        lines.append(f"fastest win {clock_text(stats.best_seconds)}, fewest moves {stats.fewest_moves}")
    return lines


#: The fields of a statistics file of the app before the results store kept every game's games.
_FILE_FIELDS = ("played", "won", "streak", "best_streak", "fastest", "fewest")


def earlier_figures_file(path: Path) -> EarlierFigures | None:
    """The figures of a game's statistics file (``GAME-stats.json``, as the
    app kept them before the results store kept every game's games), or
    None when there is none; :class:`CardtableError` names a file that
    cannot be read or is not one."""
    from cardtable.sim.played import EarlierFigures

    if not path.exists():
        return None
    try:
        data = json.loads(read_text(path))
    except ValueError:
        raise CardtableError(f"{path}: not a statistics file (bad JSON)") from None
    except OSError as error:
        raise CardtableError(describe_error(error)) from None
    if not isinstance(data, dict) or set(data) != set(_FILE_FIELDS):
        raise CardtableError(f"{path}: not a statistics file (expected the fields {', '.join(_FILE_FIELDS)})")
    fastest = data["fastest"]
    if type(fastest) is int:
        fastest = float(fastest)
    try:
        return EarlierFigures(data["played"], data["won"], data["streak"], data["best_streak"], fastest,
                              data["fewest"], str(path))
    except (TypeError, ValueError) as error:
        raise CardtableError(f"{path}: not a statistics file ({error})") from None


class PatienceBooks:
    """The books of one game: its autosave in ``autosave_folder`` (None: no
    autosave) and its finished games in the results store at ``store_path``
    (None: none kept), beside which its statistics file of before lies."""

    def __init__(self, description: Description, *, autosave_folder: Path | None,
                 store_path: Path | None) -> None:
        key = game_key(description)
        self.description = description
        self.autosave_path = autosave_folder / f"{key}-autosave.txt" if autosave_folder is not None else None
        self.store_path = store_path
        #: The game's statistics file of before the store kept every game's games (read once into the store).
        self.earlier_path = store_path.parent / f"{key}-stats.json" if store_path is not None else None

    # ----- the autosave ------------------------------------------------------------------------------

    def restore(self) -> tuple[PatienceRecord | None, str | None]:
        """The saved game's record, with the notice when the file could not be
        used (then it is set aside, see :func:`cardtable.app.autosave.restore_with`)."""
        if self.autosave_path is None:
            return None, None

        def read(text: str) -> PatienceRecord:
            record = PatienceRecord.parse(text)
            if rules_name(record.description) != rules_name(self.description):
                raise CardtableError(f"it holds a game of {record.description.title}")
            record.replay()  # every move must still be legal
            return record

        return autosave.restore_with(self.autosave_path, read)

    def save(self, game: PatienceGame, seed: int | str | None, seconds: float, *, daily: str | None = None,
             peeked: bool = False, grade: str | None = None) -> str:
        """Keep ``game`` (dealt from ``seed``; the daily deal of ``daily``; ``peeked`` at; a graded deal of
        difficulty ``grade``) with the time it has taken."""
        if self.autosave_path is None:
            return ""
        headers = {autosave.TIME_HEADER: f"{seconds:.1f}", **({} if daily is None else {"Daily": daily}),
                   **({PEEKED_HEADER: "yes"} if peeked else {}),
                   **({} if grade is None else {autosave.GRADE_HEADER: grade})}
        record = PatienceRecord.from_game(game, seed, **headers)
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.autosave_path, str(record))
        except (OSError, CardtableError) as error:
            return f" Could not keep the game ({describe_error(error)}): it is lost when the app closes."
        return ""

    def clear(self) -> None:
        """Remove the autosave (a finished game leaves none)."""
        if self.autosave_path is not None:
            autosave.clear(self.autosave_path)

    # ----- the statistics ----------------------------------------------------------------------------

    def _key(self) -> tuple[str, str]:
        from cardtable.solver.patience_study import study_key

        return study_key(self.description)

    def _earlier(self) -> tuple[EarlierFigures | None, str]:
        """The statistics file's figures (None when there is none), and the trouble reading it."""
        if self.earlier_path is None:
            return None, ""
        try:
            return earlier_figures_file(self.earlier_path), ""
        except CardtableError as error:
            return None, f" Could not read the earlier statistics: {error}."

    def stats(self) -> tuple[PlayStats, str]:
        """The statistics so far (the store's, after the statistics file's
        figures while the store has not taken them), and the trouble reading them."""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import game_stats

        game, rules = self._key()
        label = rules_name(self.description)
        earlier, trouble = self._earlier()
        if self.store_path is None or not self.store_path.exists():
            return game_stats(None, game, rules, label, earlier=earlier), trouble
        try:
            with ResultsStore(self.store_path, create=False) as store:
                return game_stats(store, game, rules, label, earlier=earlier), trouble
        except CardtableError as error:
            return game_stats(None, game, rules, label), f" Could not read the statistics: {error}."

    def peeked(self) -> int:
        """How many of the games kept in the store were peeked at (their records' ``Peeked`` header)."""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import played_games

        if self.store_path is None or not self.store_path.exists():
            return 0
        game, rules = self._key()
        mark = f'[{PEEKED_HEADER} "yes"]'
        try:
            with ResultsStore(self.store_path, create=False) as store:
                return sum(mark in (played.record or "") for played in played_games(store, game=game, rules=rules))
        except CardtableError:  # the statistics say what went wrong reading the store
            return 0

    def count(self, game: PatienceGame, deal: int | str | None, seconds: float, *, daily: str | None = None,
              peeked: bool = False) -> str:
        """Count a finished game (dealt from ``deal``; None: a position; ``peeked`` at: its record says so) in
        the store, taking the statistics file's figures into it first; the
        trouble, else ""."""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import PlayedGame, keep_earlier_figures, record_played

        if self.store_path is None:
            return ""
        played = PlayedGame.of_patience(game, deal=None if deal is None else str(deal), seconds=seconds,
                                        daily=daily, peeked=peeked)
        earlier, trouble = self._earlier()
        try:
            with ResultsStore(self.store_path) as store:
                if earlier is not None:
                    keep_earlier_figures(store, *self._key(), earlier)
                record_played(store, played)
        except CardtableError as error:
            return f" Could not keep the statistics ({error})."
        return trouble
