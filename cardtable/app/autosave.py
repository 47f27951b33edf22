"""The game in progress, kept in the per-user data folder after every move.

The folder is the results store's (:func:`cardtable.sim.store.default_store_path`):
``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
``~/.local/share/cardtable``. The file holds the engine's game record text,
written atomically, so a killed app loses nothing.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from cardtable.cli._files import atomic_write_text, read_text
from cardtable.errors import CardtableError
from cardtable.klondike import KlondikeGame, KlondikeRecord
from cardtable.sim.store import default_store_path

__all__ = ["AUTOSAVE_NAME", "autosave_path", "clear", "restore", "save"]

#: The autosave's file name in the data folder.
AUTOSAVE_NAME = "klondike-autosave.txt"


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
    if not path.exists():
        return None, None
    try:
        record = KlondikeRecord.parse(read_text(path))
        record.replay()  # every move must still be legal
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
