"""Shared fixtures: the bundled content, and writable copies of it."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.model.loader import BUNDLED_CONTENT, Content, load_content

RULESETS = ("inverted-tower", "three-dice-dungeon", "tower-of-choices")


@pytest.fixture(scope="session")
def content() -> Content:
    return load_content()


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled content tree, as ``tmp/content``."""
    target = tmp_path / "content"
    shutil.copytree(BUNDLED_CONTENT, target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace text in a content file; fails loudly if ``old`` is not there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


Editor = Callable[[Path, str, str], None]


_BREAK = re.compile(r"(?<![\w-])([^\W\d_]+)[-\u2010]\n([^\W\d_]+)")


def hyphenated(laid_out: str, source: str) -> list[tuple[str, str]]:
    """The words that ``laid_out`` text (lines as read from a PDF) breaks at a hyphen of
    its own, as (before, after): a hyphen that ``source`` has ("pass-or-fail") is not one."""
    return [(a, b) for a, b in _BREAK.findall(laid_out) if f"{a}-{b}" not in source]
