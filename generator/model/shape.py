"""The shape of a content file, looked at before it is parsed and after: what a parser or
a render would pay for out of all proportion to the file's size (design.md section 8).

``tomllib`` takes memory that grows with the square of a dotted key's parts (a 200 KB
key of 100,000 parts took 24 GB) and recurses into nested arrays, so both are counted in
the text, in one pass of a regular expression that steps over strings and comments. A
table of 100,000 rows validates in a second and takes minutes to lay out, so the rows
are counted too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from generator.limits import KEY_PARTS, NESTING, TABLE_ROWS

# What the count needs to see of a TOML file: strings and comments whole (to step over
# them), and the characters that open, close or part keys and values.
_TOKEN = re.compile(r'''
    """(?:[^"\\]|\\.|"{1,2}(?!"))*"{3,5}   # multi-line basic string
  | \'\'\'(?:[^']|'{1,2}(?!'))*'{3,5}      # multi-line literal string
  | "(?:[^"\\\n]|\\.)*"                    # basic string
  | '[^'\n]*'                              # literal string
  | \#[^\n]*                               # comment
  | [\[\]{}.=,\n]
''', re.VERBOSE | re.DOTALL)


def toml_shape_problem(text: str) -> str | None:
    """Why ``text`` is too deep to parse safely, or None.

    A run of dots with no ``=``, ``,``, bracket or line end between them is counted as a
    dotted key's parts (a float has one dot: far below any bound)."""
    parts, levels = KEY_PARTS.value, NESTING.value
    depth = dots = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == ".":
            dots += 1
            if dots >= parts:
                return f"a dotted key has {KEY_PARTS.passed()}"
            continue
        dots = 0
        if token in "[{":
            depth += 1
            if depth > levels:
                return f"arrays or tables are nested {NESTING.passed()}"
        elif token in "]}":
            depth = max(0, depth - 1)
    return None


def long_array(raw: Any) -> tuple[str, str] | None:
    """The key path of the first array of parsed TOML longer than :data:`TABLE_ROWS`
    allows, and a message giving its length; None if there is none. Walked without
    recursion."""
    limit = TABLE_ROWS.value
    for path, value in _arrays(raw):
        if len(value) > limit:
            return path, f"{TABLE_ROWS.exceeded(f'{len(value):,}')}"
    return None


def _arrays(raw: Any) -> Iterator[tuple[str, list[Any]]]:
    stack: list[tuple[str, Any]] = [("", raw)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, list):
            yield path, value
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
        elif isinstance(value, dict):
            stack.extend((f"{path}.{k}" if path else str(k), v) for k, v in value.items())


def long_markdown_table(text: str) -> str | None:
    """How many rows the first Markdown table over :data:`TABLE_ROWS` holds, as a message;
    None if none does. A table is counted as a run of lines holding a ``|``: a little more
    than it is, never less."""
    limit = TABLE_ROWS.value
    run = 0
    for line in text.splitlines():
        run = run + 1 if "|" in line else 0
        if run > limit:
            return f"a table has {TABLE_ROWS.passed()}"
    return None
