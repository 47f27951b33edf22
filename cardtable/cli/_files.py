"""Reading and writing the files a user names (faces only; the library does no file I/O).

Writes are atomic: readers see the old file or the new one, never a
half-written one. Errors a user can cause (a missing file, a folder that
does not exist) are :class:`~cardtable.errors.UsageError`\\ s or
:class:`OSError`\\ s naming the path the user gave.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from cardtable.errors import UsageError
from cardtable.klondike.formats import read_deals
from cardtable.klondike.position import Position

__all__ = ["AtomicWriter", "atomic_write_bytes", "atomic_write_text", "read_deals_file", "read_text"]


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new temporary file in ``target``'s folder; errors name ``target``."""
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{target}: folder {folder} does not exist")
    try:
        return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise type(error)(error.errno, error.strerror, str(target)) from None


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new
    one, never a half-written one: a temporary file in the same folder,
    flushed to disk, then renamed over the target.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> atomic_write_text(path, "hello\\n")
    >>> read_text(path)
    'hello\\n'
    """
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Like :func:`atomic_write_text`, for bytes."""
    target = Path(path)
    fd, tmp = _temporary_beside(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(error, OSError):
            raise type(error)(error.errno, error.strerror, str(target)) from None
        raise


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file; ``-`` reads standard input. Errors name the file.

    >>> read_text("/no/such/file")
    Traceback (most recent call last):
    ...
    cardtable.errors.UsageError: /no/such/file: no such file
    """
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a UTF-8 text file") from None
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a file") from None


class AtomicWriter:
    """A text file written through a temporary file and renamed into place
    when :meth:`commit` is called (or the ``with`` block ends without an
    error); abandoned otherwise, leaving any old file untouched.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with AtomicWriter(path) as out:
    ...     _ = out.write("hello\\n")
    >>> open(path).read()
    'hello\\n'
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        fd, self._tmp = _temporary_beside(self.path)
        self._handle = os.fdopen(fd, "w", encoding="utf-8")
        self._done = False

    def write(self, text: str) -> int:
        """Write ``text`` to the temporary file; returns the characters written."""
        return self._handle.write(text)

    def commit(self) -> None:
        """Flush, sync and rename into place."""
        if self._done:
            return
        self._done = True
        try:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            os.replace(self._tmp, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                self._handle.close()
                os.unlink(self._tmp)
            raise type(error)(error.errno, error.strerror, str(self.path)) from None

    def abandon(self) -> None:
        """Drop the temporary file."""
        if self._done:
            return
        self._handle.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._tmp)
        self._done = True

    def __enter__(self) -> AtomicWriter:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None or exc_type is KeyboardInterrupt:
            self.commit()
        else:
            self.abandon()


def read_deals_file(path: str) -> list[tuple[str, Position]]:
    """The deals of a deals file (``-`` for stdin), as
    :func:`cardtable.klondike.read_deals` reads them; errors name the file
    and the line."""
    return read_deals(read_text(path), source="standard input" if path == "-" else path)
