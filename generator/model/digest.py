"""Hashes of what a product is made from: the files of a folder.

The build's stamps (pipeline.py) rest on these, so that the same files always give the
same hash and a file outside the content is never read for it: a link that leads out of
its folder stands for where it leads, not for what is there (design.md section 8; the
loader refuses such a link too).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path


def files_under(folder: Path, patterns: Iterable[str] = ("*",)) -> list[Path]:
    """The files (and links) under ``folder`` that match ``patterns``, in a stable order."""
    found = {p for pattern in patterns for p in folder.rglob(pattern)
             if p.is_file() or p.is_symlink()}
    return sorted(p for p in found if "__pycache__" not in p.parts)


def fingerprint(path: Path, base: Path) -> bytes:
    """The bytes that stand for ``path`` in a hash: its own, or for a link that leads out
    of ``base``, where it leads."""
    if path.is_symlink():
        try:
            inside = path.resolve().is_relative_to(base.resolve()) and path.is_file()
        except (OSError, RuntimeError):  # links that lead to each other
            inside = False
        if not inside:
            return b"link to " + os.fsencode(os.readlink(path))
    return path.read_bytes()


def update_with_folder(digest: hashlib._Hash, folder: Path, inside: Path,
                       patterns: Iterable[str] = ("*",)) -> None:
    """Feed every file of ``folder`` to ``digest``, by its path in the folder; a link may
    lead anywhere in ``inside``."""
    for path in files_under(folder, patterns):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + fingerprint(path, inside))


def content_hash(folder: Path, inside: Path) -> str:
    """The SHA-256 of a ruleset's content folder (``inside``: the content tree it is in),
    which a booklet carries to say which content made it."""
    digest = hashlib.sha256()
    update_with_folder(digest, folder, inside)
    return digest.hexdigest()
