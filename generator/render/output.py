"""Writing outputs: whole files or none, never through a link, and one clear line when the
system refuses; and reading them back as the build's stamps do, never through a link."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.errors import TowerpressError
from generator.resources import PACKAGE, TEMPLATES


def _file_mode() -> int:
    """The mode a new file gets from the user's umask (mkstemp's own is owner-only)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def unwritable(path: Path, exc: OSError) -> TowerpressError:
    """The one line for an output that the system refused (a user's path, not a bug)."""
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    why = f"{blocking} is a file, not a folder" if blocking else exc.strerror or str(exc)
    return TowerpressError(f"cannot write {path}: {why}")


def refuse_inputs(path: Path, rulesets: Iterable[Path] = ()) -> None:
    """An output must not land among what the products are made from: ``-o`` naming a file
    of the content folder replaced it with a PDF.

    Raises:
        TowerpressError: ``path`` is inside one of the ``rulesets``' folders (those of the
            content loaded), the templates or the program.
    """
    try:
        where = path.resolve()
    except (OSError, RuntimeError):
        return  # write_atomic says what is wrong with such a path
    for folder in (*rulesets, TEMPLATES, PACKAGE):
        if where.is_relative_to(folder.resolve()):
            raise TowerpressError(f"cannot write {path}: it is inside {folder}, which the "
                                  "products are made from (expected a path outside it)")


@dataclass(frozen=True)
class Written:
    """One file :func:`write_atomic` wrote: where, and its bytes."""

    path: Path
    data: bytes


# The lists that record what write_atomic writes, innermost last (see recording()).
_recorders: list[list[Written]] = []


@contextmanager
def recording() -> Iterator[list[Written]]:
    """Every file :func:`write_atomic` writes in this process inside the block, in order:
    the build stamps each product with the hashes of the very bytes it wrote, whatever
    files the product chose to write."""
    written: list[Written] = []
    _recorders.append(written)
    try:
        yield written
    finally:
        _recorders.remove(written)


def _refuse_other_kinds(path: Path) -> None:
    """What stands at ``path`` itself, a link not followed: nothing, a file or a link may
    be replaced; a folder, a device or a pipe may not."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    except NotADirectoryError:
        return  # a file where a folder should be: the folder's mkdir says so
    except OSError as exc:  # a name too long, a folder that cannot be searched
        raise unwritable(path, exc) from None
    if stat.S_ISDIR(mode):
        raise TowerpressError(f"cannot write {path}: it is a folder; expected a file's path")
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise TowerpressError(f"cannot write {path}: it is not a regular file (a device or "
                              "a pipe); expected a file's path")


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, flush it to the disk, then rename it onto
    ``path``: never a truncated file, even after a power cut.

    A link at ``path`` is replaced by the file, never written through: a build folder that
    came with a downloaded repository may hold ``sheet.pdf -> ~/anything`` (issue 27).

    Raises:
        TowerpressError: the file cannot be written there (its folder cannot be made, the
            disk is full, permission is denied, a folder or a device is in the way); the
            message names the path and why.
    """
    _refuse_other_kinds(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise unwritable(path, exc) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())  # the bytes on the disk before the name points at them
        os.chmod(temp, _file_mode())
        os.replace(temp, path)  # rename(2) replaces a link itself, not what it leads to
        _sync_folder(path.parent)
    except BaseException as exc:
        Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise unwritable(path, exc) from None
        raise
    for recorder in _recorders:
        recorder.append(Written(path, data))


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entries, the rename among them, to the disk."""
    try:
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except PermissionError:  # a folder one may write in but not read: the file is written
        return
    try:
        os.fsync(handle)
    except OSError as exc:
        # Some file systems (and some network mounts) cannot sync a folder: the rename is
        # then as durable as they make it.
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(handle)


def _open_regular(path: Path) -> int | None:
    """A descriptor of the regular file at ``path``, or None when there is none: missing,
    a link (never followed), a folder, a pipe or a device (opened without waiting, and
    not read)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        return None
    return handle


def read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of the regular file at ``path`` if it has at most ``limit`` of them;
    None for anything else (see :func:`_open_regular`)."""
    handle = _open_regular(path)
    if handle is None:
        return None
    try:
        with os.fdopen(handle, "rb") as file:
            data = file.read(limit + 1)
    except OSError:  # a disk that fails to read it: as good as no file
        return None
    return data if len(data) <= limit else None


def sha256_of(path: Path) -> str | None:
    """The SHA-256 of the regular file at ``path``; None for anything else (see
    :func:`_open_regular`)."""
    handle = _open_regular(path)
    if handle is None:
        return None
    digest = hashlib.sha256()
    try:
        with os.fdopen(handle, "rb") as file:
            while chunk := file.read(1 << 20):
                digest.update(chunk)
    except OSError:  # a disk that fails to read it: as good as no file
        return None
    return digest.hexdigest()
