"""The game in progress, kept in the per-user data folder after every move.

The folder is the results store's (:func:`cardtable.runs.store.default_store_path`):
``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
``~/.local/share/cardtable``. The file holds the engine's game record text,
written atomically, so a killed app loses nothing. Two headers of its own
bring the session back as it was: :data:`TIME_HEADER` (the seconds the game
has taken, read by :func:`saved_seconds`) and :data:`CUMULATIVE_HEADER`
(present when the Vegas balance was carried across games).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from cardtable._files import atomic_write_text, read_text
from cardtable.errors import CardtableError
from cardtable.klondike import KlondikeGame, KlondikeRecord
from cardtable.runs.store import default_store_path

__all__ = ["AUTOSAVE_NAME", "BALANCE_NAME", "CUMULATIVE_HEADER", "GRADE_HEADER", "TIME_HEADER", "autosave_path",
           "balance_path", "clear", "read_balances", "restore", "restore_with", "save", "saved_seconds",
           "write_balances"]

_R = TypeVar("_R")

#: The autosave's file name in the data folder.
AUTOSAVE_NAME = "klondike-autosave.txt"


#: The file, in the data folder, of the Vegas balances carried from game to game.
BALANCE_NAME = "vegas-balance.json"

#: The autosave's header of the seconds the game has taken so far.
TIME_HEADER = "Time"

#: The autosave's header saying the Vegas balance is carried across games (``--cumulative``).
CUMULATIVE_HEADER = "Cumulative"

#: The autosave's header of a graded deal's difficulty (one of :data:`cardtable.sim.grade.LEVELS`), in
#: the terminal apps' autosaves as in the browser tables' records.
GRADE_HEADER = "Grade"


def saved_seconds(record: KlondikeRecord) -> float:
    """The seconds a saved game had taken (0 when its record does not say,
    or says something that is not a time).

    >>> from cardtable.klondike import KlondikeGame
    >>> game = KlondikeGame.from_seed(7)
    >>> saved_seconds(KlondikeRecord.from_game(game, Time="83.5")), saved_seconds(KlondikeRecord.from_game(game))
    (83.5, 0.0)
    """
    try:
        seconds = float(record.headers.get(TIME_HEADER, "0"))
    except ValueError:
        return 0.0
    return seconds if 0 <= seconds < float("inf") else 0.0


def balance_path() -> Path:
    """Where the Vegas balances carried across games are kept."""
    return default_store_path().parent / BALANCE_NAME


def read_balances(path: Path) -> dict[str, int]:
    """The carried Vegas balance of each variant label (empty when the file
    does not exist yet); a :class:`CardtableError` names a file that is not one."""
    if not path.exists():
        return {}
    text = read_text(path)
    try:
        data = json.loads(text)
    except ValueError:
        raise CardtableError(f"{path}: not a balance file (bad JSON)") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and type(v) is int for k, v in data.items()):
        raise CardtableError(f"{path}: not a balance file (expected variant names and whole dollars)")
    return dict(data)


def write_balances(path: Path, balances: dict[str, int]) -> None:
    """Write the carried balances atomically, making the folder when needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(balances, indent=1, sort_keys=True) + "\n")


def autosave_path() -> Path:
    """Where the Klondike game in progress is kept."""
    return default_store_path().parent / AUTOSAVE_NAME


def save(path: Path, game: KlondikeGame, headers: dict[str, str]) -> None:
    """Write ``game``'s record (with ``headers``) to ``path`` atomically,
    making the folder when needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, str(KlondikeRecord.from_game(game, **headers)))


def clear(path: Path) -> None:
    """Remove the autosave (a finished game leaves none)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def restore(path: Path) -> tuple[KlondikeRecord | None, str | None]:
    """The saved game's record, and a one-line notice when the file could not
    be used: then it is renamed with a ``.corrupt`` suffix (never deleted) and
    the record is None. No file: ``(None, None)``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "a.txt").write_text("not a record")
    12
    >>> record, notice = restore(folder / "a.txt")
    >>> record is None, (folder / "a.txt.corrupt").exists()
    (True, True)
    """
    return restore_with(path, _klondike_record)


def _klondike_record(text: str) -> KlondikeRecord:
    record = KlondikeRecord.parse(text)
    record.replay()  # every move must still be legal
    return record


def restore_with(path: Path, read: Callable[[str], _R]) -> tuple[_R | None, str | None]:
    """What ``read`` makes of the text of ``path`` (any game's record, read
    and checked), as :func:`restore` does: a file ``read`` refuses (with a
    :class:`CardtableError`) is set aside, never deleted."""
    if not path.exists():
        return None, None
    try:
        record = read(read_text(path))
    except (CardtableError, OSError) as error:
        aside = _free_name(path.with_name(path.name + ".corrupt"))
        try:
            path.rename(aside)
        except OSError as rename_error:
            return None, f"Autosave {path} unreadable ({error}) and not set aside: {rename_error}"
        return None, f"Autosave unreadable, set aside as {aside.name} in {aside.parent}: {error}"
    return record, None


def _free_name(path: Path) -> Path:
    """``path``, or ``path.1``, ``path.2``... : the first that does not exist."""
    candidate, number = path, 0
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}.{number}")
    return candidate
