"""The pinned versions of constraints.txt, for the tests of the adapters to internals."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

CONSTRAINTS = Path(__file__).resolve().parents[1] / "constraints.txt"


def pinned(name: str) -> str:
    """The version of ``name`` that constraints.txt pins (its ``name==version`` line)."""
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        package, sep, version = line.split("#")[0].strip().partition("==")
        if sep and package.strip().lower() == name.lower():
            return version.strip()
    raise AssertionError(f"constraints.txt pins no version of {name}")


def assert_pinned(name: str, adapter: str) -> None:
    """Fail unless the installed ``name`` is the version ``adapter`` was read on."""
    installed, pin = importlib.metadata.version(name), pinned(name)
    assert installed == pin, (
        f"{name} {installed} is installed, but {adapter} was read on {name} {pin} "
        f"(constraints.txt): read {adapter} again against {name} {installed}, then raise "
        "the pin on purpose")
