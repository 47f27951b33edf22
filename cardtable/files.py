"""Reading and writing files safely (front ends only; the engines do no I/O)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["AtomicWriter", "atomic_write_bytes", "atomic_write_text", "read_text"]


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new
    one, never a half-written one: a temporary file in the same folder,
    flushed to disk, then renamed over the target."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Like :func:`atomic_write_text`, for bytes."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"{target}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file; ``-`` reads standard input. Errors name the file."""
    if str(path) == "-":
        import sys

        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a UTF-8 text file") from None
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not a file") from None


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
        folder = self.path.parent if str(self.path.parent) else Path(".")
        if not folder.is_dir():
            raise ValueError(f"{self.path}: folder {folder} does not exist")
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        self._handle = os.fdopen(fd, "w", encoding="utf-8")
        self._done = False

    def write(self, text: str) -> int:
        return self._handle.write(text)

    def commit(self) -> None:
        """Flush, sync and rename into place."""
        if self._done:
            return
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()
        os.replace(self._tmp, self.path)
        self._done = True

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
