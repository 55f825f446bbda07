"""One diagnostics type for every problem the program finds and reports.

The content loader, the booklet checkers and the renderer's own checks all speak of a
problem the same way, like mkdocs' one validation error type: a stable ``code`` a test
or a tool can match, ``where`` it is (``content/inverted-tower/tables/treasure.toml:
rows[2].roll``, ``floor 3/room 7``) and a ``message`` that says what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The code of a problem in a content tree's files (the loader's findings).
CONTENT = "content"


@dataclass(frozen=True, order=True)
class Finding:
    """One problem: a stable code, where it is, and what was expected."""

    code: str
    where: str
    message: str

    @classmethod
    def in_content(cls, file: str, key: str, message: str) -> Finding:
        """A problem at ``key`` (a key path; "" for the whole file) of a content file."""
        return cls(CONTENT, f"{file}: {key}" if key else file, message)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"
