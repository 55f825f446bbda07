"""The directives that rules prose uses to embed data instead of retyping it.

- ``{{ table: NAME }}`` alone on a line embeds the table NAME of the ruleset's data.
- ``{{ value: FILE.key.path }}`` inline prints one value of ``tables/FILE.toml``.
- ``{{ ruling: IT-07 }}`` inline marks the point a ruling decides.
- ``{{ figure: NAME seed=SEED }}`` alone on a line draws the family's worked example NAME
  as the engine plays it for SEED (issue 28): the seed lives here, in the prose, so that
  the example follows the rules of the book it illustrates and no example is typed by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.model.common import Chapter, chapter_from_markdown
from generator.model.schema import Findings
from generator.model.views import printed_range

DIRECTIVE = re.compile(r"\{\{\s*([a-z]+)\s*:\s*([A-Za-z0-9_.\-\[\]]+)\s*\}\}")
TABLE_LINE = re.compile(r"^\s*\{\{\s*table\s*:\s*([A-Za-z0-9_.\-]+)\s*\}\}\s*$")
# A figure's seed as ``towerpress play --seed`` takes it: a short word, no spaces.
FIGURE = re.compile(
    r"\{\{\s*figure\s*:\s*([A-Za-z0-9_.\-]+)(?:\s+seed\s*=\s*([^\s{}]*))?\s*\}\}"
)
FIGURE_LINE = re.compile(r"^\s*" + FIGURE.pattern + r"\s*$")
SEED = re.compile(r"^[A-Za-z0-9_.\-]{1,40}$")
KINDS = ("table", "value", "ruling", "figure")
_INDEX = re.compile(r"^([^\[\]]+)((?:\[\d{1,9}\])*)$")  # int() refuses 4,300 digits


@dataclass(frozen=True)
class Directive:
    kind: str
    arg: str
    line: int
    seed: str | None = None  # a figure's ``seed=``; None when it has none
    alone: bool = True  # a figure alone on its line, as a block must be


def directives(source: str) -> Iterator[Directive]:
    for number, line in enumerate(source.splitlines(), start=1):
        for m in DIRECTIVE.finditer(line):
            yield Directive(m.group(1), m.group(2), number)
        for m in FIGURE.finditer(line):
            if not DIRECTIVE.fullmatch(m.group(0)):  # a figure with its seed
                yield Directive("figure", m.group(1), number, m.group(2),
                                bool(FIGURE_LINE.match(line)))


# Double braces that are not a directive: "{{ foo }}", "{{ Value: x }}" or an unclosed one
# were printed as they are, braces and all.
_BRACES = re.compile(r"\{\{|\}\}")


def stray_braces(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) for each ``{{`` or ``}}`` outside a well-formed directive."""
    for number, line in enumerate(source.splitlines(), start=1):
        rest = DIRECTIVE.sub("", FIGURE.sub("", line))
        m = _BRACES.search(rest)
        if m:
            yield number, rest[max(0, m.start() - 20):m.end() + 20].strip()


def is_varies(value: Any) -> bool:
    """A value that depends on a ruling: ``{ ruling = "IT-12", faithful = 1, alt = 0 }``."""
    return isinstance(value, Mapping) and set(value) == {"ruling", "faithful", "alt"}


def lookup_value(
    raw: Mapping[str, Any], path: str, alt: Callable[[str], bool] | None = None
) -> Any:
    """Resolve ``FILE.key[0].key`` in the raw TOML of the tables folder.

    A value that depends on a ruling resolves to the reading ``alt`` picks for that
    ruling ID (the Faithful reading when ``alt`` is None).

    Raises:
        KeyError: with a message naming the part of the path that does not resolve.
    """
    current: Any = raw
    for part in path.split("."):
        m = _INDEX.match(part)
        if not m:
            raise KeyError(f"{part!r} is not a key")
        name, indexes = m.group(1), m.group(2)
        if not isinstance(current, Mapping) or name not in current:
            raise KeyError(f"{name!r} does not exist")
        current = current[name]
        for index in re.findall(r"\[(\d{1,9})\]", indexes):
            if not isinstance(current, list) or int(index) >= len(current):
                raise KeyError(f"[{index}] is out of range")
            current = current[int(index)]
    if is_varies(current):
        current = current["alt" if alt is not None and alt(str(current["ruling"])) else "faithful"]
    if isinstance(current, Mapping | list):
        raise KeyError("names a table or array, not a single value")
    return current


def format_value(value: Any) -> str:
    """A value as prose prints it: ``yes``/``no``, a range of faces with its printed dash."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return printed_range(str(value))


def check_chapter(slug: str, text: str, file: str, findings: Findings,
                  table_names: Collection[str] | None, raw_tables: Mapping[str, Any],
                  ruling_ids: Collection[str]) -> Chapter:
    """The chapter of ``text``; each malformed or unknown directive is a finding.

    ``table_names`` is None while the data has errors: tables and values are then left
    unchecked, so that a broken file is reported once, not again by every directive.
    """
    chapter, problem = chapter_from_markdown(slug, text, file)
    if problem:
        findings.add(file, "line 1", problem)
    for number, snippet in stray_braces(text):
        findings.add(file, f"line {number}",
                     f"{snippet!r} is not a directive (expected {{{{ kind: name }}}} with a "
                     f"kind of {', '.join(KINDS)})")
    for d in directives(text):
        problem = _directive_problem(d, table_names, raw_tables, ruling_ids)
        if problem:
            findings.add(file, f"line {d.line}", problem)
    return chapter


def _directive_problem(d: Directive, table_names: Collection[str] | None,
                       raw_tables: Mapping[str, Any], ruling_ids: Collection[str]) -> str:
    if d.kind not in KINDS:
        return f"unknown directive {d.kind!r} (expected one of: {', '.join(KINDS)})"
    if d.kind == "table" and table_names is not None and d.arg not in table_names:
        return f"unknown table {d.arg!r} (expected one of: {', '.join(sorted(table_names))})"
    if d.kind == "value" and table_names is not None:
        try:
            lookup_value(raw_tables, d.arg)
        except KeyError as exc:
            return f"value {d.arg!r} does not resolve: {exc.args[0]}"
    if d.kind == "ruling" and d.arg not in ruling_ids:
        return f"unknown ruling ID {d.arg!r}"
    if d.kind == "figure":
        return _figure_problem(d)
    return ""


def _figure_problem(d: Directive) -> str:
    """A figure's form; its name is checked against the family's examples where the
    rulebook draws it (``validate``: generator/products/rulebook/html.py)."""
    if not d.seed:
        return (f"figure {d.arg!r} has no seed (expected {{{{ figure: {d.arg} seed=N }}}}, "
                "N a seed as towerpress play --seed takes it)")
    if not SEED.match(d.seed):
        return (f"figure {d.arg!r}: seed {d.seed!r} is not a seed (expected 1 to 40 "
                "letters, digits, '.', '_' or '-')")
    if not d.alone:
        return f"figure {d.arg!r} must stand alone on its line (it is a picture, not words)"
    return ""
