"""Exceptions that reach the user as one clear line (design.md section 8)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import IO

import click

from generator.findings import Finding

# Control characters, and the marks that reorder text, can come from a user's file names and
# TOML keys: printed raw, they would retitle the terminal or hide what the line says.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


MAX_LINE = 1000  # characters of one message: a value pasted whole could run to megabytes


def printable(text: str) -> str:
    """``text`` as one line a terminal shows as it is: controls spelt out (``\\x1b``),
    and its middle left out past :data:`MAX_LINE` characters, so that the end of the
    line, which says what was expected, is still read."""
    line = _UNPRINTABLE.sub(lambda m: ascii(m.group())[1:-1], text)
    if len(line) <= MAX_LINE:
        return line
    head, tail = line[: MAX_LINE * 2 // 3], line[-(MAX_LINE // 4):]
    return f"{head} [... {len(line) - len(head) - len(tail):,} characters ...] {tail}"


class TowerpressError(click.ClickException):
    """A user-facing error: one line on stderr and exit code 2, never a traceback."""

    exit_code = 2

    def show(self, file: IO[str] | None = None) -> None:
        click.echo(self.line(), err=True, file=file)

    def line(self) -> str:
        """The one line that says what is wrong (``towerpress serve`` shows it on its page)."""
        return f"towerpress: error: {printable(self.format_message())}"


class ContentError(TowerpressError):
    """The content tree has problems; every one of them is listed."""

    def __init__(self, findings: Sequence[Finding]):
        self.findings = tuple(sorted(set(findings), key=lambda f: (f.where, f.message)))
        first = str(self.findings[0]) if self.findings else "invalid content"
        more = len(self.findings) - 1
        summary = first if more == 0 else f"{first} (and {more} more problems)"
        super().__init__(summary)

    def show(self, file: IO[str] | None = None) -> None:
        # All problems are listed, one per line; the first line alone is the summary.
        for finding in self.findings:
            click.echo(f"towerpress: error: {printable(str(finding))}", err=True, file=file)
        if len(self.findings) > 1:
            click.echo(
                f"towerpress: {len(self.findings)} problems in the content", err=True, file=file
            )


class RenderError(TowerpressError):
    """A product could not be rendered (a refused reference, an overflowing card)."""
