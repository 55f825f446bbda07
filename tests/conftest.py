"""Shared fixtures: the bundled content, writable copies of it, and the session's renders."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.model.loader import BUNDLED_CONTENT, Content
from generator.rulesets import load_content
from tests import pdfs
from tests.renders import Renders, session_folder

# The model cache of every command the tests run (generator/model/cache.py) is the
# session's own, never the user's ~/.cache: set on import, before the test modules that copy
# the environment as they are imported (test_wheel.py) are collected.
os.environ["TOWERPRESS_CACHE"] = tempfile.mkdtemp(prefix="towerpress-model-cache-")
atexit.register(shutil.rmtree, os.environ["TOWERPRESS_CACHE"], ignore_errors=True)


@pytest.fixture(scope="session")
def content() -> Content:
    return load_content()


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled content tree, as ``tmp/content``."""
    target = tmp_path / "content"
    shutil.copytree(BUNDLED_CONTENT, target)
    return target


@pytest.fixture(scope="session")
def renders(tmp_path_factory: pytest.TempPathFactory) -> Renders:
    """The products several tests read, each made once in the session (tests/renders.py)."""
    return Renders(session_folder(tmp_path_factory))


@pytest.fixture(autouse=True, scope="module")
def _forget_parsed_pdfs() -> Iterator[None]:
    """The PDFs a module's tests parsed (tests/pdfs.py) are let go after the module."""
    yield
    pdfs.forget()

