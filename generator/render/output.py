"""Writing outputs: whole files or none, and one clear line when the system refuses."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
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


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, then rename: never a truncated file.

    Raises:
        TowerpressError: the file cannot be written there (its folder cannot be made, the
            disk is full, permission is denied); the message names the path and why.
    """
    # A link is written through: the file it leads to gets the bytes, the link stays.
    try:
        path = path.resolve() if path.is_symlink() else path
    except RuntimeError:  # links that lead to each other (Python 3.11)
        raise TowerpressError(f"cannot write {path}: a loop of symbolic links") from None
    except OSError as exc:  # a name too long, or (3.13) a loop
        raise unwritable(path, exc) from None
    if path.exists() and not path.is_file():
        kind = "a folder" if path.is_dir() else "not a regular file (a device or a pipe)"
        raise TowerpressError(f"cannot write {path}: it is {kind}; expected a file's path")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise unwritable(path, exc) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp, _file_mode())
        os.replace(temp, path)
    except BaseException as exc:
        Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise unwritable(path, exc) from None
        raise
