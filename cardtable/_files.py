"""Reading and writing the files a user names (faces only; the library does no file I/O).

Writes are atomic: readers see the old file or the new one, never a
half-written one. Errors a user can cause (a missing file, a folder that
does not exist) are :class:`~cardtable.errors.UsageError`\\ s or
:class:`OSError`\\ s naming the path the user gave.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import stat
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TextIO

from cardtable.errors import UsageError
from cardtable.klondike.formats import read_deals
from cardtable.klondike.position import Position

__all__ = ["FULL_DISK_ERRNOS", "MAX_LINE_BYTES", "MAX_TEXT_BYTES", "AtomicWriter",
           "atomic_write_bytes", "atomic_write_text", "check_output", "check_outputs",
           "describe_error", "is_full_disk", "read_deals_file", "read_text", "remove_dead_temporaries"]

#: The errors of a write that found no room: a full disk (``ENOSPC``), a
#: file-size limit (``EFBIG``) or a spent quota (``EDQUOT``). They are all
#: said the same way, and leave the old file as it was.
FULL_DISK_ERRNOS = frozenset(code for code in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", None))
                             if code is not None)


def is_full_disk(error: BaseException) -> bool:
    """Whether ``error`` is a write that found no room (:data:`FULL_DISK_ERRNOS`).

    >>> is_full_disk(OSError(errno.ENOSPC, "No space left on device")), is_full_disk(OSError(errno.EACCES, "no"))
    (True, False)
    """
    return isinstance(error, OSError) and error.errno in FULL_DISK_ERRNOS


def describe_error(error: BaseException) -> str:
    """``error`` in words for a person: an :class:`OSError` as ``PATH:
    reason`` (without ``[Errno N]``), anything else as its text.

    >>> describe_error(OSError(errno.ENOSPC, "No space left on device", "out.txt"))
    'out.txt: no room left on the disk (the old file, if any, is kept)'
    """
    if isinstance(error, OSError) and error.strerror:
        named = _named(error, error.filename) if error.filename is not None else error
        reason = named.strerror or ""
        reason = reason[:1].lower() + reason[1:]
        return f"{named.filename}: {reason}" if named.filename is not None else reason
    return str(error)


def _named(error: OSError, path: str | os.PathLike[str]) -> OSError:
    """``error`` again, naming ``path`` (as the user gave it); a full disk is
    said in the same words whichever of its errors it was."""
    reason = "no room left on the disk (the old file, if any, is kept)" if is_full_disk(error) else error.strerror
    return type(error)(error.errno, reason, str(path))



def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _same_as_stdout(info: os.stat_result) -> bool:
    """Whether ``info`` is the file, pipe or terminal standard output goes to."""
    try:
        return os.path.samestat(info, os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no standard output, or not a real file (a test's capture)
        return False


def _where(path: str | os.PathLike[str]) -> tuple[Path, str, int]:
    """Where a write to ``path`` goes, and how: ``(target, how, mode)``.

    ``how`` is ``"stdout"`` for ``-`` and for any path that names what
    standard output goes to (``/dev/stdout``, ``/proc/self/fd/1``, or the
    file stdout is redirected into): written through standard output, so a
    pipe is streamed and a file opened for appending (``>>``) keeps its
    earlier content. ``"append"`` is another ``/dev/fd/N``-style path to a
    regular file, added to rather than replaced. ``"plain"`` is something
    that exists and is not a regular file (``/dev/null``, a FIFO, a
    terminal), written in place as any Unix tool would; otherwise
    ``"atomic"``. A symbolic link is followed, so the file it points at is
    replaced, never the link. ``mode`` is the permission bits the new file
    gets: the old file's, or the usual ``0666`` less the umask for a new
    one. Errors name ``path`` as given.
    """
    if str(path) == "-":
        return Path("-"), "stdout", 0
    given = Path(path)
    try:
        info: os.stat_result | None = os.stat(given)  # through links, /dev/stdout's to a pipe too
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise type(error)(error.errno, error.strerror, str(given)) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{given}: is a directory, not a file")
    if info is not None and _same_as_stdout(info):
        return Path("-"), "stdout", 0
    if info is not None and not stat.S_ISREG(info.st_mode):
        return given, "plain", 0
    if info is not None and str(os.path.abspath(given)).startswith(("/dev/", "/proc/")):
        return given, "append", 0  # a descriptor's file (/dev/fd/3): it was opened by whoever gave it
    target = Path(os.path.realpath(given))
    folder = target.parent
    if not folder.is_dir():
        if os.path.islink(given):
            raise UsageError(f"{given}: a link to {target}, whose folder {folder} does not exist")
        raise UsageError(f"{given}: folder {given.parent} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{given}: folder {given.parent} is not writable")
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    return target, "atomic", mode


def check_output(path: str | os.PathLike[str] | None) -> None:
    """Check before any work that a write to ``path`` can succeed: ``-``, a
    device or FIFO, or a file (new or old) in a writable folder that exists.
    Raises :class:`~cardtable.errors.UsageError` naming the path otherwise.

    >>> check_output("/no/such/folder/out.txt")
    Traceback (most recent call last):
    ...
    cardtable.errors.UsageError: /no/such/folder/out.txt: folder /no/such/folder does not exist
    """
    if path is not None:
        target, how, _ = _where(path)
        if how == "atomic":
            remove_dead_temporaries(target)


def _identity(path: str | os.PathLike[str]) -> tuple[object, ...] | None:
    """What makes ``path`` one file: its device and inode when it exists
    (through links), else the path it resolves to; None for ``-`` and for
    what is not a regular file (a device, a pipe), which may be shared."""
    if str(path) == "-":
        return None
    try:
        info = os.stat(path)
    except OSError:
        return ("path", os.path.realpath(path))
    return ("file", info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def check_outputs(outputs: Mapping[str, str | os.PathLike[str] | None],
                  inputs: Mapping[str, str | os.PathLike[str] | None] | None = None, *,
                  store: Mapping[str, Sequence[str | os.PathLike[str]]] | None = None) -> None:
    """Check before any work that each of ``outputs`` (flag: path; None
    for not given) can be written (:func:`check_output`), and that none is
    the same file as another output or as one of ``inputs`` (a deals file),
    compared by device and inode, through links, nor one of the files of
    the results ``store`` (``--store``), by what each is, as
    :func:`cardtable.runs.store.store_files` names them (the store first;
    a folder among them: anything in it).
    Raises :class:`~cardtable.errors.UsageError` naming both otherwise.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> deals = os.path.join(folder, "deals.txt")
    >>> open(deals, "w").close()
    >>> try:
    ...     check_outputs({"--output": deals}, {"--deals": deals})
    ... except UsageError as error:
    ...     print(str(error).replace(folder, "F"))
    --output F/deals.txt: is the same file as --deals F/deals.txt; give another file
    """
    seen: dict[tuple[object, ...], tuple[str, str]] = {}
    folders: set[str] = set()
    if store is not None:
        given = next(iter(store.values()))[0]
        for what, parts in store.items():
            for part in parts:
                if os.path.isdir(part):
                    folders.add(os.path.realpath(part))
                    continue
                identity = _identity(part)
                if identity is not None:
                    seen.setdefault(identity, ("--store", str(given) if what == "store" else
                                               f"{given} (its {what} {part})"))
    for flag, path in (inputs or {}).items():
        if path is not None:
            identity = _identity(path)
            if identity is not None:
                seen.setdefault(identity, (flag, str(path)))
    for flag, path in outputs.items():
        if path is None:
            continue
        if os.path.dirname(os.path.realpath(path)) in folders:
            raise UsageError(f"{flag} {path}: is in a folder of --store {given}, which keeps its own files there; "
                             "give another file")
        check_output(path)
        identity = _identity(path)
        if identity is None:
            continue
        if identity in seen:
            other, where = seen[identity]
            raise UsageError(f"{flag} {path}: is the same file as {other} {where}; give another file")
        seen[identity] = (flag, str(path))


#: A temporary file younger than this is never removed as a dead one while
#: the process its name carries is alive here: it may be between its making
#: and its lock.
_YOUNG_SECONDS = 60.0


def _temporary_beside(target: Path, given: Path, mode: int) -> tuple[int, str]:
    """A new temporary file ``.NAME.PID.XXXX.tmp`` in ``target``'s folder
    with ``mode``, locked (``flock``) for as long as its descriptor is open,
    so that a later run can tell it from the temporary file of a process
    that died (:func:`remove_dead_temporaries`); errors name ``given``."""
    remove_dead_temporaries(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise _named(error, given) from None
    with contextlib.suppress(OSError):  # a file system without locks: the name's pid and age still guard it
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.fchmod(fd, mode)
    return fd, tmp


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def remove_dead_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files an atomic write to ``path`` left behind
    when its process died (``.NAME.PID.XXXX.tmp`` beside it); returns those
    removed. Only a file of this user, not a link, whose lock no process
    holds is removed, and not one younger than a minute whose process is
    alive here (it may be between its making and its lock). Errors are
    ignored: this is tidying, never a reason to fail.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> left = os.path.join(folder, ".out.txt.999999999.abcd.tmp")
    >>> open(left, "w").close()
    >>> [p.name for p in remove_dead_temporaries(os.path.join(folder, "out.txt"))]
    ['.out.txt.999999999.abcd.tmp']
    """
    target = Path(path)
    removed: list[Path] = []
    prefix = f".{target.name}."
    try:
        names = [name for name in os.listdir(target.parent or ".")
                 if name.startswith(prefix) and name.endswith(".tmp")]
    except OSError:
        return removed
    for name in names:
        candidate = target.parent / name
        pid_text = name[len(prefix):].split(".", 1)[0]
        try:
            fd = os.open(candidate, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its writer is alive
            except OSError:
                pass  # a file system without locks: judged by the pid and the age alone
            young = time.time() - info.st_mtime < _YOUNG_SECONDS
            if pid_text.isdigit() and (int(pid_text) == os.getpid() or (young and _process_alive(int(pid_text)))):
                continue
            if not pid_text.isdigit() and young:
                continue  # an older cardtable's name, without its pid: only when surely stale
            os.unlink(candidate)
            removed.append(candidate)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new
    one, never a half-written one: a temporary file in the same folder,
    flushed to disk, then renamed over the target. The file keeps its
    permission bits (a new one gets ``0666`` less the umask); a symbolic link
    is written through; ``-`` is standard output, and a device or FIFO is
    written in place.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> atomic_write_text(path, "hello\\n")
    >>> read_text(path)
    'hello\\n'
    """
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Like :func:`atomic_write_text`, for bytes."""
    target, how, mode = _where(path)
    if how == "stdout":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    if how in ("plain", "append"):
        try:
            with open(target, "wb" if how == "plain" else "ab") as handle:
                handle.write(data)
        except OSError as error:
            raise _named(error, path) from None
        return
    fd, tmp = _temporary_beside(target, Path(path), mode)
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
            raise _named(error, path) from None
        raise


#: The largest file :func:`read_text` reads: far above any deals file, record
#: or layout (a million deals take about 30 MiB), far below what would
#: exhaust memory, so endless input (``/dev/zero``) is refused at once.
MAX_TEXT_BYTES = 64 * 1024 * 1024

#: The longest line :func:`read_text` reads, in bytes: a line of a record or
#: layout is a few hundred bytes, a one-line JSON record some hundred KiB.
MAX_LINE_BYTES = 1024 * 1024


def _read_capped(handle: IO[bytes], name: str) -> bytes:
    """All of ``handle``, refused past :data:`MAX_TEXT_BYTES` in all or
    :data:`MAX_LINE_BYTES` in one line. Read in chunks of at most one line's
    cap, so only a line that spans chunks can be too long."""
    chunks: list[bytes] = []
    total = newlines = run = 0  # run: the bytes of the line still open
    while chunk := handle.read(MAX_LINE_BYTES):
        first = chunk.find(b"\n")
        run += len(chunk) if first < 0 else first
        if run > MAX_LINE_BYTES:
            raise UsageError(f"{name}: line {newlines + 1} is longer than {MAX_LINE_BYTES // 1024 // 1024} MiB; "
                             f"not a cardtable text file")
        if first >= 0:
            run = len(chunk) - chunk.rfind(b"\n") - 1
            newlines += chunk.count(b"\n")
        total += len(chunk)
        if total > MAX_TEXT_BYTES:
            raise UsageError(f"{name}: longer than {MAX_TEXT_BYTES // 1024 // 1024} MiB; not a cardtable text file")
        chunks.append(chunk)
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file; ``-`` reads standard input. A byte-order mark
    is dropped and CRLF line endings read as plain ones. Errors name the file;
    a file over :data:`MAX_TEXT_BYTES`, or with a line over
    :data:`MAX_LINE_BYTES`, is refused.

    >>> read_text("/no/such/file")
    Traceback (most recent call last):
    ...
    cardtable.errors.UsageError: /no/such/file: no such file
    >>> read_text("/dev/zero")
    Traceback (most recent call last):
    ...
    cardtable.errors.UsageError: /dev/zero: line 1 is longer than 1 MiB; not a cardtable text file
    """
    if str(path) == "-":
        binary = getattr(sys.stdin, "buffer", None)
        if binary is None:  # a text stream put in place of stdin (tests, embedding)
            data = _read_capped(io.BytesIO(sys.stdin.read(MAX_TEXT_BYTES + 1).encode()), "standard input")
        else:
            data = _read_capped(binary, "standard input")
        name = "standard input"
    else:
        name = str(path)
        try:
            with open(path, "rb") as handle:
                data = _read_capped(handle, name)
        except FileNotFoundError:
            raise UsageError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise UsageError(f"{path}: is a directory, not a file") from None
        except OSError as error:  # a read that fails (EIO: /proc/self/mem, a bad disk) names the file too
            if error.filename is not None:
                raise
            raise OSError(error.errno, error.strerror, name) from None
    try:
        return data.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError:
        raise UsageError(f"{name}: not a UTF-8 text file") from None


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
        self._target, how, mode = _where(path)
        self._tmp: str | None = None
        self._handle: TextIO
        if how == "stdout":
            self._handle = sys.stdout
        elif how in ("plain", "append"):  # closed by commit or abandon
            self._handle = open(self._target, "w" if how == "plain" else "a", encoding="utf-8")  # noqa: SIM115
        else:
            fd, self._tmp = _temporary_beside(self._target, self.path, mode)
            self._handle = os.fdopen(fd, "w", encoding="utf-8")
        self._done = False

    @property
    def streams(self) -> bool:
        """Whether this writes in place (standard output, a pipe, a device)
        rather than to a temporary file: such a write may wait on a reader."""
        return self._tmp is None

    def write(self, text: str) -> int:
        """Write ``text`` to the temporary file; returns the characters
        written. A write that fails (a full disk) drops the temporary file,
        keeps any old file, and raises an :class:`OSError` naming the path."""
        try:
            return self._handle.write(text)
        except OSError as error:
            if self._handle is sys.stdout:
                raise  # standard output's own errors (a closed pipe) are the command's to say
            self.abandon()
            raise _named(error, self.path) from None

    def commit(self) -> None:
        """Flush, sync and rename into place."""
        if self._done:
            return
        self._done = True
        if self._tmp is None:  # standard output, a device, a FIFO or a descriptor's file: written in place
            if self._handle is sys.stdout:
                self._handle.flush()
                return
            try:
                self._handle.flush()
            except OSError as error:  # no room on the device (/dev/full)
                with contextlib.suppress(OSError):
                    self._handle.close()
                raise _named(error, self.path) from None
            self._handle.close()
            return
        try:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            os.replace(self._tmp, self._target)
        except OSError as error:
            with contextlib.suppress(OSError):
                self._handle.close()
            with contextlib.suppress(OSError):
                os.unlink(self._tmp)
            raise _named(error, self.path) from None

    def abandon(self) -> None:
        """Drop the temporary file."""
        if self._done:
            return
        self._done = True
        if self._tmp is None:
            if self._handle is sys.stdout:
                self._handle.flush()
                return
            with contextlib.suppress(OSError):  # what could not be written in place is dropped with it
                self._handle.close()
            return
        with contextlib.suppress(OSError):  # a full disk fails the flush of what is left: dropped anyway
            self._handle.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._tmp)

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
