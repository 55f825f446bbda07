"""Shared fixtures: the bundled content, and writable copies of it."""

from __future__ import annotations

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
