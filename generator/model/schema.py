"""Typed reading of TOML data that records every problem instead of stopping at the first.

A :class:`Node` wraps one TOML table together with the file it came from and its key path.
Its accessors return typed values; when a value is missing or malformed they record a
:class:`Finding` and return a harmless placeholder so that loading can go on and report
everything in one pass (mkdocs-style ``(where, message)`` lists).  The loader raises
:class:`~generator.errors.ContentError` at the end if any finding was recorded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from generator.findings import Finding

# Node has methods named str, int and bool; these aliases keep the builtins nameable there.
Str = str
Int = int
Bool = bool

T = TypeVar("T")

#: The largest number any count, price or score may be: none of these games comes near it,
#: and a larger one (a typo, or 10**9) would stall the engine that counts up to it.
CEILING = 9999
_RANGE = re.compile(r"^\s*(\d{1,9})\s*(?:-\s*(\d{1,9})\s*)?$")  # int() reads 9 digits at once


@dataclass
class Findings:
    """Collects findings across a whole load."""

    items: list[Finding] = field(default_factory=list)

    def add(self, file: str, key: str, message: str) -> None:
        self.items.append(Finding.in_content(file, key, message))

    def __bool__(self) -> bool:
        return bool(self.items)


def type_name(value: object) -> str:
    """The TOML name of a Python value's type, for messages."""
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a float",
        str: "a string",
        list: "an array",
        dict: "a table",
    }
    return names.get(type(value), type(value).__name__)


def join_key(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Node:
    """A TOML table being read, with its file and key path.

    Every accessor marks its key as used; :meth:`done` reports the keys that no
    accessor asked for, so that a misspelt key is never silently ignored.
    """

    def __init__(self, data: Mapping[Str, Any], file: Str, path: Str, findings: Findings):
        self.data = data
        self.file = file
        self.path = path
        self.findings = findings
        self._used: set[Str] = set()

    # -- reporting -------------------------------------------------------------------

    def key(self, key: Str | Int) -> Str:
        return join_key(self.path, key)

    def error(self, key: Str | Int, message: Str) -> None:
        self.findings.add(self.file, self.key(key), message)

    def error_here(self, message: Str) -> None:
        self.findings.add(self.file, self.path, message)

    def done(self) -> None:
        """Report keys that were never read."""
        for key in self.data:
            if key not in self._used:
                self.error(key, "unknown key")

    def has(self, key: Str) -> Bool:
        return key in self.data

    def _get(self, key: Str, expected: Str, required: Bool) -> Any:
        self._used.add(key)
        if key not in self.data:
            if required:
                self.error(key, f"missing required key (expected {expected})")
            return None
        return self.data[key]

    # -- scalars ---------------------------------------------------------------------

    def str(self, key: Str, default: Str | None = None, *, nonempty: Bool = True) -> Str:
        value = self._get(key, "a string", default is None)
        if value is None:
            return default if default is not None else ""
        if not isinstance(value, Str):
            self.error(key, f"expected a string, got {type_name(value)} {value!r}")
            return default or ""
        if nonempty and not value.strip():
            self.error(key, "expected a non-empty string")
        return value

    def int(
        self,
        key: Str,
        default: Int | None = None,
        *,
        min: Int | None = None,
        max: Int | None = None,
    ) -> int:
        value = self._get(key, "an integer", default is None)
        if value is None:
            return default if default is not None else (min or 0)
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(key, f"expected an integer, got {type_name(value)} {value!r}")
            return default if default is not None else (min or 0)
        # A value out of range is reported and the bound is used instead, so that the rest
        # of the checks (a sheet's cells, a table's rows) never run with it.
        low = min if min is not None else -CEILING
        high = max if max is not None else CEILING
        if value < low:
            self.error(key, f"{value} is below the minimum {low}")
            return low
        if value > high:
            self.error(key, f"{value} is above the maximum {high}")
            return high
        return value

    def bool(self, key: Str, default: Bool | None = None) -> Bool:
        value = self._get(key, "true or false", default is None)
        if value is None:
            return bool(default)
        if not isinstance(value, bool):
            self.error(key, f"expected true or false, got {type_name(value)} {value!r}")
            return bool(default)
        return value

    def choice(self, key: Str, options: Sequence[Str], default: Str | None = None) -> Str:
        value = self.str(key, default)
        if value and value not in options:
            self.error(key, f"{value!r} is not one of {', '.join(options)}")
            return default if default is not None else options[0]
        return value

    def str_list(self, key: Str, default: Sequence[Str] | None = None) -> tuple[Str, ...]:
        value = self._get(key, "an array of strings", default is None)
        if value is None:
            return tuple(default or ())
        if not isinstance(value, list):
            self.error(key, f"expected an array of strings, got {type_name(value)} {value!r}")
            return ()
        out: list[Str] = []
        for i, item in enumerate(value):
            if not isinstance(item, Str):
                self.error(f"{key}[{i}]", f"expected a string, got {type_name(item)} {item!r}")
            else:
                out.append(item)
        return tuple(out)

    def int_list(self, key: Str, default: Sequence[Int] | None = None) -> tuple[Int, ...]:
        value = self._get(key, "an array of integers", default is None)
        if value is None:
            return tuple(default or ())
        if not isinstance(value, list):
            self.error(key, f"expected an array of integers, got {type_name(value)} {value!r}")
            return ()
        out: list[Int] = []
        for i, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int):
                self.error(f"{key}[{i}]", f"expected an integer, got {type_name(item)} {item!r}")
            else:
                out.append(item)
        return tuple(out)

    def roll(self, key: Str, faces: Int) -> tuple[Int, Int]:
        """A die face or range of faces: ``5`` or ``"1-3"``, inside ``1..faces`` (any face
        from 1 when ``faces`` is :data:`UNKNOWN_FACES`)."""
        on = f" on 1-{faces}" if faces != UNKNOWN_FACES else ""
        value = self._get(key, f'a face or range like "1-3"{on}', True)
        if value is None:
            return (0, -1)
        low: Int
        high: Int
        if isinstance(value, int) and not isinstance(value, bool):
            low = high = value
        elif isinstance(value, Str) and (m := _RANGE.match(value)):
            low = int(m.group(1))
            high = int(m.group(2)) if m.group(2) else low
        else:
            self.error(key, f'expected a face or range like "1-3", got {value!r}')
            return (0, -1)
        if low > high:
            self.error(key, f"{value} is an empty range")
            return (0, -1)
        if low < 1 or (faces != UNKNOWN_FACES and high > faces):
            bounds = f"outside 1-{faces}" if faces != UNKNOWN_FACES else "below face 1"
            self.error(key, f"{value} is {bounds}")
            return (0, -1)
        return (low, high)

    # -- nesting -----------------------------------------------------------------------

    def table(self, key: Str, *, required: Bool = True) -> Node:
        value = self._get(key, "a table", required)
        if value is None:
            return Node({}, self.file, self.key(key), self.findings)
        if not isinstance(value, dict):
            self.error(key, f"expected a table, got {type_name(value)} {value!r}")
            value = {}
        return Node(value, self.file, self.key(key), self.findings)

    def tables(self, key: Str, *, required: Bool = True, min_items: Int = 0) -> list[Node]:
        value = self._get(key, "an array of tables", required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.error(key, f"expected an array of tables, got {type_name(value)} {value!r}")
            return []
        nodes: list[Node] = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.error(f"{key}[{i}]", f"expected a table, got {type_name(item)} {item!r}")
                continue
            nodes.append(Node(item, self.file, f"{self.key(key)}[{i}]", self.findings))
        if len(value) < min_items:
            self.error(key, f"expected at least {min_items} entries, got {len(value)}")
        return nodes



# The size of a die whose own value was wrong (and reported): the faces of the tables rolled
# on it are not checked against it, or each would be reported too, blaming another file.
UNKNOWN_FACES = 0


def check_coverage(node: Node, key: str, rolls: Iterable[tuple[int, int]], faces: int) -> None:
    """Every face 1..faces must be covered by exactly one row (design.md section 2); of a
    die of :data:`UNKNOWN_FACES`, no face may be covered twice. Rows are compared as
    ranges, never face by face: a roll of "1-999999999" costs what "1-6" does."""
    covered: list[tuple[int, int, int]] = []  # low, high, row
    for index, (low, high) in enumerate(rolls):
        clash = next((c for c in covered if low <= c[1] and c[0] <= high), None)
        if clash is not None:
            node.error(f"{key}[{index}].roll",
                       f"face {max(low, clash[0])} is already covered by {key}[{clash[2]}]")
        covered.append((low, high, index))
    missing = _gaps(sorted((low, high) for low, high, _ in covered), faces)  # none if unknown
    if missing:
        node.error(key, f"faces {', '.join(missing)} of the d{faces} are not covered by any row")


def _gaps(ranges: Sequence[tuple[int, int]], faces: int) -> list[str]:
    """The faces of 1..faces outside every one of the sorted ``ranges``, as "4" or "7-12"."""
    gaps, first = [], 1
    for low, high in [*ranges, (faces + 1, faces + 1)]:
        if low > first and first <= faces:
            last = min(low - 1, faces)
            gaps.append(str(first) if last == first else f"{first}-{last}")
        first = max(first, high + 1)
    return gaps


def check_unique(node: Node, key: str, names: Sequence[str], what: str = "name") -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            node.error(f"{key}[{i}]", f"duplicate {what} {name!r}")
        seen.add(name)


def check_ref(node: Node, key: str, value: str, known: Iterable[str], what: str) -> bool:
    """A reference to another entity must resolve; the message lists what exists."""
    options = sorted(known)
    if value not in options:
        node.error(key, f"unknown {what} {value!r} (expected one of: {', '.join(options)})")
        return False
    return True
