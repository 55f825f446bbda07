"""Options and helpers shared by every command."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from generator.model.loader import Content
from generator.rulesets import load_content

F = TypeVar("F", bound=Callable[..., Any])

PAPER = click.Choice(["a4", "letter", "a5"])


def content_option(func: F) -> F:
    """``--content DIR``: load a content tree other than the bundled one."""
    option = click.option(
        "--content",
        "content_dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        metavar="DIR",
        help="Content folder (a folder of rulesets, or one ruleset) instead of the bundled one.",
    )
    return option(func)


def load(content_dir: Path | None) -> Content:
    """The content tree (the bundled one by default), validated."""
    return load_content(content_dir)


class PositiveInt(click.ParamType):  # type: ignore[type-arg]
    """A whole number of at least 1 (and at most ``maximum``), with a message that says so."""

    name = "N"

    def __init__(self, maximum: int | None = None) -> None:
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        wanted = "a positive integer" + (f" up to {self.maximum:,}" if self.maximum else "")
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"expected {wanted}, got {value!r}", param, ctx)
        if number < 1 or (str(value).strip() != str(number) and not isinstance(value, int)):
            self.fail(f"expected {wanted}, got {value!r}", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(f"expected {wanted}, got {value!r}", param, ctx)
        return number


MAX_RUNS = 1_000_000  # games: at the slowest engine (about 120 games/s), two hours and more
MAX_DEPTH = 999  # floors a simulated run goes down: 0.3% of as-written runs reach floor 99
