"""Progress bars for a person watching: on stderr, and only when stderr is a terminal, so
that a log, a pipe or a test sees nothing of them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import click

T = TypeVar("T")


def watched() -> bool:
    """Whether a person sees stderr (a terminal), for a bar to be worth drawing."""
    return sys.stderr.isatty()


@contextmanager
def progress(length: int, label: str, name: Callable[[T], str] | None = None
             ) -> Iterator[Callable[[T], None]]:
    """A bar of ``length`` steps; the block calls what it yields once per step done, with
    the item done, which ``name`` shows beside the bar."""
    def shown(item: T | None) -> str | None:
        return None if item is None or name is None else name(item)

    with click.progressbar(length=length, label=label, file=sys.stderr, hidden=not watched(),
                           item_show_func=shown) as bar:
        def step(item: T) -> None:
            bar.update(1, item)

        yield step
