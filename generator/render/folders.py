"""Whether a file is inside the folders rendering may read (design.md section 8).

Kept apart from :mod:`generator.render.fetcher`, which subclasses WeasyPrint's fetcher:
checking the prose's pictures needs only this, and should not pay WeasyPrint's import.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def path_is_inside(path: Path, roots: Iterable[Path]) -> bool:
    """Whether the resolved ``path`` is one of ``roots`` or lies below one."""
    return any(path == root or root in path.parents for root in roots)
