"""The parts every ruleset shares: its description, rulings, profiles and prose chapters."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from generator.model.cover import Cover, load_cover
from generator.model.schema import Node, check_unique

Reading = Literal["faithful", "alt"]
READINGS: tuple[Reading, ...] = ("faithful", "alt")

RULING_ID = re.compile(r"^(IT|DD|TC|[A-Z]{2,4})-\d{2,3}$")


@dataclass(frozen=True)
class Credit:
    work: str
    author: str
    role: str
    source: str


@dataclass(frozen=True)
class RulesetInfo:
    family: str
    title: str
    subtitle: str
    description: str
    language: str
    default_profile: str
    #: The profile a booklet follows unless asked for another: the one made for play.
    booklet_profile: str
    credits: tuple[Credit, ...]
    cover: Cover
    #: What the game is, for a PDF's keywords ("solo" only for a game played alone).
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruling:
    """One ambiguity of the seed text, with its two readings (rulings.md)."""

    id: str
    topic: str
    question: str
    faithful: str
    alt: str  # empty when the ruling has only one reading
    # Where the two readings cannot differ in the solo engine, the ruling says why (issue
    # 24): "multiplayer", a point only a game of several players meets, or ``decided_by``,
    # the ruling whose reading settles this one in play.  Empty: the engine plays both.
    scope: str = ""
    decided_by: str = ""

    def reading_text(self, reading: Reading) -> str:
        return self.alt if reading == "alt" else self.faithful


@dataclass(frozen=True)
class Profile:
    """A named set of readings, one per ruling ID (design.md section 3)."""

    id: str
    title: str
    description: str
    readings: Mapping[str, Reading]

    def reading(self, ruling_id: str) -> Reading:
        """The reading this profile takes for ``ruling_id``.

        Raises:
            KeyError: the ID is not a ruling of this ruleset (a programming error: the
                model validates that every profile names every ruling).
        """
        return self.readings[ruling_id]

    def alt(self, ruling_id: str) -> bool:
        """True when this profile takes the Alt reading of ``ruling_id``."""
        return self.readings[ruling_id] == "alt"


@dataclass(frozen=True)
class Chapter:
    """One rules chapter: a Markdown file whose first line is ``# Title``."""

    slug: str
    title: str
    source: str
    file: str


def load_info(node: Node, families: tuple[str, ...]) -> RulesetInfo:
    credits: list[Credit] = []
    for c in node.tables("credits", min_items=1):
        credits.append(
            Credit(
                work=c.str("work"),
                author=c.str("author"),
                role=c.str("role"),
                source=c.str("source"),
            )
        )
        c.done()
    info = RulesetInfo(
        family=node.choice("family", families),
        title=node.str("title"),
        subtitle=node.str("subtitle"),
        description=node.str("description"),
        language=node.str("language", "en"),
        default_profile=node.str("default_profile", "as-written"),
        booklet_profile=node.str("booklet_profile", "as-written"),
        credits=tuple(credits),
        cover=load_cover(node.table("cover")),
        keywords=node.str_list("keywords", ()),
    )
    node.done()
    return info


def load_rulings(node: Node, prefix: str) -> tuple[Ruling, ...]:
    rulings: list[Ruling] = []
    for item in node.tables("rulings", min_items=1):
        ruling = Ruling(
            id=item.str("id"),
            topic=item.str("topic"),
            question=item.str("question"),
            faithful=item.str("faithful"),
            alt=item.str("alt", "", nonempty=False),
            scope=item.choice("scope", SCOPES, ""),
            decided_by=item.str("decided_by", "", nonempty=False),
        )
        if ruling.scope and ruling.decided_by:
            item.error("decided_by", "a ruling has a scope or is decided by another, not both")
        if ruling.id and not (RULING_ID.match(ruling.id) and ruling.id.startswith(prefix + "-")):
            item.error("id", f"{ruling.id!r} is not a ruling ID of the form {prefix}-nn")
        item.done()
        rulings.append(ruling)
    check_unique(node, "rulings", [r.id for r in rulings], "ruling ID")
    _check_deciders(node, rulings)
    node.done()
    return tuple(rulings)


#: The scopes a ruling may declare: the solo engine never meets the point.
SCOPES = ("multiplayer",)


def _check_deciders(node: Node, rulings: list[Ruling]) -> None:
    """``decided_by`` names another ruling of the file, one with two readings that is not
    itself decided by a third."""
    by_id = {r.id: r for r in rulings}
    for i, ruling in enumerate(rulings):
        if not ruling.decided_by:
            continue
        decider = by_id.get(ruling.decided_by)
        where = f"rulings[{i}].decided_by"
        if decider is None or decider is ruling:
            node.error(where, f"{ruling.decided_by!r} is not another ruling ID of this file")
        elif not decider.alt or decider.decided_by or decider.scope:
            node.error(where, f"{decider.id} must have two readings that the engine plays")


def load_profile(node: Node, profile_id: str, rulings: tuple[Ruling, ...]) -> Profile:
    title = node.str("title")
    description = node.str("description")
    readings_node = node.table("readings")
    known = {r.id: r for r in rulings}
    readings: dict[str, Reading] = {}
    for key, value in readings_node.data.items():
        readings_node._used.add(key)
        if key not in known:
            readings_node.error(key, f"unknown ruling ID {key!r} (not in rulings.toml)")
            continue
        if value not in READINGS:
            readings_node.error(key, f'expected "faithful" or "alt", got {value!r}')
            continue
        if value == "alt" and not known[key].alt:
            readings_node.error(key, f'{key} has no Alt reading; expected "faithful"')
            continue
        readings[key] = value
    for ruling in rulings:
        if ruling.id not in readings_node.data:
            readings_node.error(ruling.id, "missing: every ruling ID needs a reading")
            readings.setdefault(ruling.id, "faithful")
    node.done()
    return Profile(profile_id, title, description, readings)


def chapter_from_markdown(slug: str, text: str, file: str) -> tuple[Chapter, str | None]:
    """Split off the ``# Title`` line; returns the chapter and an error message or None."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        return Chapter(slug, slug, text, file), "expected the first line to be '# Chapter title'"
    title = lines[0][2:].strip()
    body = "\n".join(lines[1:]).lstrip("\n")
    return Chapter(slug, title, body, file), None
