"""What the patience app keeps for each game: the game in progress (its
autosave) and the statistics of finished games, in files named after the
game in the per-user data folder (where Klondike's autosave is,
:func:`cardtable.app.autosave.autosave_path`).

The results store keeps Klondike's games by variant; until it keeps every
game's, each patience game's statistics are a small JSON file of their own,
``GAME-stats.json``: games played and won, the current and best streaks of
wins, the fastest win and the fewest moves of a win. The autosave is
``GAME-autosave.txt``, the game record (:mod:`cardtable.patience.record`)
with a ``Time`` header. ``GAME`` is the game's name with its options
(``golf+wrap``); a game from a user's description file is ``file-NAME``.

Files that cannot be read or written never stop a game: each method that
touches one returns the trouble to tell the player ("" when all went well).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from cardtable._files import atomic_write_text, describe_error, read_text
from cardtable.app import autosave
from cardtable.errors import CardtableError, RulesError
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame
from cardtable.patience.record import PatienceRecord, rules_name
from cardtable.patience.registry import load

__all__ = ["GameStats", "PatienceBooks", "game_key", "saved_seconds"]


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


@dataclass
class GameStats:
    """A game's statistics: games ``played`` and ``won``, the wins in a row
    now (``streak``) and at best, the fastest win in seconds and the fewest
    moves of a win (None before the first win)."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    fastest: float | None = None
    fewest: int | None = None

    def count(self, *, won: bool, seconds: float, moves: int) -> None:
        """Count one finished game.

        >>> stats = GameStats()
        >>> stats.count(won=True, seconds=90.0, moves=80); stats.count(won=False, seconds=5.0, moves=3)
        >>> stats.played, stats.won, stats.streak, stats.best_streak, stats.fastest, stats.fewest
        (2, 1, 0, 1, 90.0, 80)
        """
        self.played += 1
        if not won:
            self.streak = 0
            return
        self.won += 1
        self.streak += 1
        self.best_streak = max(self.best_streak, self.streak)
        self.fastest = seconds if self.fastest is None else min(self.fastest, seconds)
        self.fewest = moves if self.fewest is None else min(self.fewest, moves)

    def lines(self, title: str) -> list[str]:
        """The statistics in words."""
        from cardtable.app.status import clock_text

        if not self.played:
            return [f"{title}: no games finished yet (a won game, or one left for a new game, counts)."]
        rate = self.won / self.played
        lines = [f"{title}: {self.played} played, {self.won} won ({rate:.0%})",
                 f"streak of wins: {self.streak} now, {self.best_streak} at best"]
        if self.fastest is not None and self.fewest is not None:
            lines.append(f"fastest win {clock_text(self.fastest)}, fewest moves {self.fewest}")
        return lines

    @classmethod
    def from_json(cls, data: object, path: Path) -> GameStats:
        """Read the statistics file's object; :class:`CardtableError` names a file that is not one."""
        fields = ("played", "won", "streak", "best_streak", "fastest", "fewest")
        if not isinstance(data, dict) or set(data) != set(fields):
            raise CardtableError(f"{path}: not a statistics file (expected the fields {', '.join(fields)})")
        counts = [data[name] for name in fields[:4]]
        if not all(type(value) is int and value >= 0 for value in counts) or data["won"] > data["played"]:
            raise CardtableError(f"{path}: not a statistics file (counts are whole numbers, won at most played)")
        fastest, fewest = data["fastest"], data["fewest"]
        if not (fastest is None or (type(fastest) in (int, float) and fastest >= 0)) \
                or not (fewest is None or (type(fewest) is int and fewest >= 0)):
            raise CardtableError(f"{path}: not a statistics file (fastest and fewest are numbers or null)")
        played, won, streak, best = counts
        return cls(played, won, streak, best, None if fastest is None else float(fastest), fewest)


class PatienceBooks:
    """The books of one game: its autosave in ``autosave_folder`` (None: no
    autosave) and its statistics in ``stats_folder`` (None: none kept)."""

    def __init__(self, description: Description, *, autosave_folder: Path | None,
                 stats_folder: Path | None) -> None:
        key = game_key(description)
        self.description = description
        self.autosave_path = autosave_folder / f"{key}-autosave.txt" if autosave_folder is not None else None
        self.stats_path = stats_folder / f"{key}-stats.json" if stats_folder is not None else None

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

    def save(self, game: PatienceGame, seed: int | str | None, seconds: float) -> str:
        """Keep ``game`` (dealt from ``seed``) with the time it has taken."""
        if self.autosave_path is None:
            return ""
        record = PatienceRecord.from_game(game, seed, **{autosave.TIME_HEADER: f"{seconds:.1f}"})
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

    def stats(self) -> tuple[GameStats, str]:
        """The statistics so far, and the trouble reading them (then none)."""
        path = self.stats_path
        if path is None or not path.exists():
            return GameStats(), ""
        try:
            return GameStats.from_json(json.loads(read_text(path)), path), ""
        except ValueError:
            return GameStats(), f" Could not read the statistics: {path}: not a statistics file (bad JSON)."
        except (OSError, CardtableError) as error:
            return GameStats(), f" Could not read the statistics: {describe_error(error)}."

    def count(self, *, won: bool, seconds: float, moves: int) -> str:
        """Count a finished game; returns the trouble, else "". A file that
        cannot be read is left as it is (the game is not counted)."""
        if self.stats_path is None:
            return ""
        stats, trouble = self.stats()
        if trouble:
            return trouble
        stats.count(won=won, seconds=seconds, moves=moves)
        try:
            self.stats_path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.stats_path, json.dumps(asdict(stats), indent=1) + "\n")
        except (OSError, CardtableError) as error:
            return f" Could not keep the statistics ({describe_error(error)})."
        return ""
