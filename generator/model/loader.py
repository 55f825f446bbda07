"""Load a content tree into validated, immutable :class:`Ruleset` objects.

Two phases, like mkdocs: every file is read and every problem is collected, then one
:class:`~generator.errors.ContentError` lists them all.  Nothing is half-loaded.  The
loader is handed the families it may meet (``generator.rulesets.FAMILIES``); it never
imports a ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.errors import ContentError, TowerpressError
from generator.limits import RULESET_KB
from generator.model.citations import cited_rulings
from generator.model.common import (
    RULING_ID,
    Chapter,
    Profile,
    RulesetInfo,
    Ruling,
    load_info,
    load_profile,
    load_rulings,
)
from generator.model.cover import cover_problems
from generator.model.decks import Card, Deck, load_decks
from generator.model.digest import content_hash
from generator.model.family import ContentFamily, Families
from generator.model.prose import check_chapter
from generator.model.reading import Reader
from generator.model.schema import Findings, Node
from generator.model.sheet_sources import Sources
from generator.model.sheets import SheetDef, load_sheets
from generator.model.table_files import TableFiles
from generator.model.views import TableView

# Re-exported: the content loaded when none is named, as callers and tests know it.
from generator.resources import BUNDLED_CONTENT as BUNDLED_CONTENT


@dataclass(frozen=True)
class Ruleset:
    id: str
    root: Path
    family: ContentFamily[Any]
    info: RulesetInfo
    rulings: tuple[Ruling, ...]
    profiles: Mapping[str, Profile]
    chapters: tuple[Chapter, ...]
    quick_reference: Chapter | None  # quick-reference.md: the one-page summary
    data: Any  # the family's typed data
    decks: Mapping[str, Deck]  # card decks by deck id (decks/*.toml)
    sheets: Mapping[str, SheetDef]  # sheet and log definitions (sheets/*.toml)
    raw: Mapping[str, Any]  # raw TOML of tables/, by file stem, for {{ value: }} lookups
    # Every file as read: parsed TOML or Markdown text, by its path in the folder
    # ("tables/rolls.toml"), for the checks that follow loading (reading.Reader.sources).
    sources: Mapping[str, Any]

    @property
    def title(self) -> str:
        return self.info.title

    @cached_property
    def content_hash(self) -> str:
        """The SHA-256 of the ruleset's folder (a booklet carries it), read once: a print
        run of a thousand booklets reads the folder once, not a thousand times."""
        return content_hash(self.root, self.root.parent)

    def profile(self, profile_id: str | None = None) -> Profile:
        """The named profile, or the ruleset's default.

        Raises:
            TowerpressError: the profile does not exist; the message lists those that do.
        """
        name = profile_id or self.info.default_profile
        if name not in self.profiles:
            raise TowerpressError(
                f"unknown profile {name!r} for {self.id} "
                f"(expected one of: {', '.join(sorted(self.profiles))})"
            )
        return self.profiles[name]

    def tables(self, printed_for: Profile | None = None) -> Mapping[str, TableView]:
        """Every printable table: for a rulebook (both readings), or for one profile."""
        return self.family.tables(self.data, printed_for)

    def cards(self, deck: Deck, profile: Profile | None = None) -> tuple[Card, ...]:
        """Every card of ``deck``, copies included, printed for ``profile``."""
        return deck.cards(self.family.deck_sources(self.data, profile),
                          self.tables(profile), profile)

    def ruling(self, ruling_id: str) -> Ruling:
        for ruling in self.rulings:
            if ruling.id == ruling_id:
                return ruling
        raise KeyError(ruling_id)


@dataclass(frozen=True)
class Content:
    root: Path
    rulesets: Mapping[str, Ruleset]

    def ruleset(self, ruleset_id: str) -> Ruleset:
        """Raises TowerpressError naming the rulesets that exist."""
        if ruleset_id not in self.rulesets:
            raise TowerpressError(
                f"unknown ruleset {ruleset_id!r} "
                f"(expected one of: {', '.join(sorted(self.rulesets)) or 'none found'})"
            )
        return self.rulesets[ruleset_id]

    @property
    def folders(self) -> tuple[Path, ...]:
        """The rulesets' folders: what every product of this content is made from."""
        return tuple(r.root for r in self.rulesets.values())


class _RulesetLoad:
    """The loading of one ruleset folder, part by part, into one list of findings."""

    def __init__(self, reader: Reader, folder: Path, family: ContentFamily[Any], before: int):
        self.reader = reader
        self.findings = reader.findings
        self.folder = folder
        self.shown = reader.shown(folder)
        self.family = family
        self.before = before  # the findings before this ruleset's first file was read

    @property
    def sound(self) -> bool:
        """No finding yet in this ruleset: what names the data may be checked against it."""
        return len(self.findings.items) == self.before

    def node(self, raw: dict[str, Any], name: str) -> Node:
        return Node(raw, f"{self.shown}/{name}", "", self.findings)

    def rulings(self) -> tuple[tuple[Ruling, ...], bool]:
        """The rulings, and whether rulings.toml was sound (rulings checked against a
        broken file would each be reported too)."""
        raw = self.reader.toml(self.folder / "rulings.toml")
        if raw is None:
            return (), False
        reported = len(self.findings.items)
        rulings = load_rulings(self.node(raw, "rulings.toml"), self.family.ruling_prefix)
        if len(self.findings.items) != reported:
            return rulings, False
        defined = {r.id for r in rulings}
        for ruling_id in self.family.rulings:
            if ruling_id not in defined:
                self.findings.add(
                    f"{self.shown}/rulings.toml", "rulings",
                    f"missing ruling {ruling_id} (the {self.family.id} engine reads it; "
                    f'expected a [[rulings]] entry with id = "{ruling_id}")')
        return rulings, True

    def profiles(self, rulings: tuple[Ruling, ...], info: RulesetInfo) -> dict[str, Profile]:
        profiles: dict[str, Profile] = {}
        files = self.reader.listed(self.folder / "profiles", "*.toml")
        if files == []:
            self.findings.add(f"{self.shown}/profiles", "",
                              "no profiles (expected at least as-written.toml)")
        for path in files or []:
            raw = self.reader.toml(path)
            if raw is not None:
                node = self.node(raw, f"profiles/{path.name}")
                profiles[path.stem] = load_profile(node, path.stem, rulings)
        for key, name in (("default_profile", info.default_profile),
                          ("booklet_profile", info.booklet_profile)):
            if profiles and name not in profiles:
                self.findings.add(f"{self.shown}/ruleset.toml", key,
                                  f"unknown profile {name!r} "
                                  f"(expected one of: {', '.join(sorted(profiles))})")
        return profiles

    def tables(self, rulings: tuple[Ruling, ...] | None) -> tuple[Any, dict[str, Any]]:
        """The family's typed data (None if a file could not be read) and the raw TOML.

        ``rulings`` is None when rulings.toml was not sound: citations go unchecked."""
        nodes: dict[str, Node] = {}
        raw_tables: dict[str, Any] = {}
        unreadable = False
        for path in self.reader.listed(self.folder / "tables", "*.toml") or []:
            raw = self.reader.toml(path)
            if raw is None:
                unreadable = True
                continue
            raw_tables[path.stem] = raw
            nodes[path.stem] = self.node(raw, f"tables/{path.name}")
            if rulings is not None:
                self._check_citations(raw, nodes[path.stem].file, rulings)
        # The tables refer to each other: checked without a file that could not be read,
        # every reference to it would be reported too, each blaming another file.  The rest
        # of the ruleset is still read, for problems of its own.
        if unreadable:
            return None, raw_tables
        files = TableFiles(nodes, f"{self.shown}/tables", self.findings)
        data = self.family.load(files)
        files.done()
        return data, raw_tables

    def _check_citations(self, raw: Any, file: str, rulings: tuple[Ruling, ...]) -> None:
        """A table value may depend only on a ruling that the profiles give a reading of."""
        defined = {r.id for r in rulings}
        prefix = self.family.ruling_prefix
        for key, ruling_id in cited_rulings(raw):
            # An ID of the wrong form is the family reader's finding already.
            well_formed = RULING_ID.match(ruling_id) and ruling_id.startswith(f"{prefix}-")
            if well_formed and ruling_id not in defined:
                self.findings.add(file, key,
                                  f"unknown ruling ID {ruling_id!r} (not in rulings.toml)")

    def nodes(self, sub: str) -> dict[str, Node]:
        """The parsed ``sub/*.toml`` files, by stem."""
        found: dict[str, Node] = {}
        for path in self.reader.listed(self.folder / sub, "*.toml") or []:
            raw = self.reader.toml(path)
            if raw is not None:
                found[path.stem] = self.node(raw, f"{sub}/{path.name}")
        return found

    def decks(self, data: Any) -> Mapping[str, Deck]:
        # Decks and sheets name entities of the data; they are checked only once the data
        # itself is sound, so that one mistake is not reported twice.
        nodes = self.nodes("decks")
        if not self.sound:
            return load_decks(nodes, None, None)
        tables = set(self.family.tables(data, None))
        return load_decks(nodes, self.family.deck_sources(data, None), tables)

    def sheets(self, data: Any) -> Mapping[str, SheetDef]:
        nodes = self.nodes("sheets")
        sources = self.family.sheet_sources(data) if self.sound else Sources(checked=False)
        return load_sheets(nodes, sources)

    def chapters(self, data: Any, raw_tables: Mapping[str, Any], rulings: tuple[Ruling, ...]
                 ) -> tuple[list[Chapter], Chapter | None]:
        """The rules chapters and the quick reference, their directives checked."""
        chapters: list[Chapter] = []
        files = self.reader.listed(self.folder / "rules", "*.md")
        if files == []:
            self.findings.add(f"{self.shown}/rules", "", "no chapters (expected rules/*.md)")
        # Tables and values are checked only once the data is sound: a broken file is
        # reported once, not again by every directive that reads it.
        table_names = set(self.family.tables(data, None)) if self.sound else None
        ruling_ids = {r.id for r in rulings}
        quick: Chapter | None = None
        quick_path = self.folder / "quick-reference.md"
        for path in [*(files or []), *([quick_path] if quick_path.is_file() else [])]:
            text = self.reader.text(path)
            if text is None:
                continue
            chapter = check_chapter(path.stem, text, self.reader.shown(path), self.findings,
                                    table_names, raw_tables, ruling_ids)
            if path == quick_path:
                quick = chapter
            else:
                chapters.append(chapter)
        return chapters, quick


def _load_ruleset(reader: Reader, folder: Path, families: Families) -> Ruleset | None:
    read_before = reader.read
    try:
        return _read_ruleset(reader, folder, families)
    finally:
        # Each file is bounded; so is their sum, which a rulebook lays out whole.
        size = reader.read - read_before
        if size > RULESET_KB.value * 1024:
            reader.findings.add(reader.shown(folder), "",
                                f"refused: {RULESET_KB.exceeded(f'{size / 1024:,.0f}')}")


def _read_ruleset(reader: Reader, folder: Path, families: Families) -> Ruleset | None:
    before = len(reader.findings.items)
    raw_info = reader.toml(folder / "ruleset.toml")
    if raw_info is None:
        return None
    shown = reader.shown(folder)
    info = load_info(Node(raw_info, f"{shown}/ruleset.toml", "", reader.findings),
                     tuple(families))
    family = families.get(info.family)
    if family is None:
        return None
    load = _RulesetLoad(reader, folder, family, before)
    rulings, sound_rulings = load.rulings()
    profiles = load.profiles(rulings, info)
    data, raw_tables = load.tables(rulings if sound_rulings else None)
    decks = load.decks(data)
    sheets = load.sheets(data)
    chapters, quick = load.chapters(data, raw_tables, rulings)
    sources = {str(path.relative_to(folder)): value for path, value in reader.sources.items()
               if path.is_relative_to(folder)}
    if load.sound:  # a broken file the cover reads is reported once, as itself
        for key, message in cover_problems(info.cover, sources, decks):
            reader.findings.add(f"{shown}/ruleset.toml", key, message)
    return Ruleset(
        id=folder.name,
        root=folder,
        family=family,
        info=info,
        rulings=rulings,
        profiles=MappingProxyType(profiles),
        chapters=tuple(chapters),
        quick_reference=quick,
        data=data,
        decks=MappingProxyType(dict(decks)),
        sheets=MappingProxyType(dict(sheets)),
        raw=MappingProxyType(raw_tables),
        sources=MappingProxyType(sources),
    )


def _ruleset_folders(root: Path) -> list[Path]:
    """The folders of ``root`` that hold a ruleset (``root`` itself if it is one)."""
    if (root / "ruleset.toml").is_file():
        return [root]
    try:
        folders = sorted(p for p in root.iterdir() if (p / "ruleset.toml").is_file())
    except OSError as exc:
        raise TowerpressError(f"content folder {str(root)!r} cannot be read: "
                              f"{exc.strerror}") from None
    if not folders:
        raise TowerpressError(
            f"no ruleset in {str(root)!r} (expected folders holding a ruleset.toml)"
        )
    return folders


def _content_folder(root: Path) -> Path:
    """``root`` resolved, once it is known to be a folder.

    Raises:
        TowerpressError: it is a loop of links, a name the system refuses (too long), or
            not a folder.
    """
    try:
        resolved = root.resolve()
        if resolved.is_dir():
            return resolved
    except RuntimeError:  # links that lead to each other (Python 3.11)
        raise TowerpressError(f"content folder {str(root)!r} is a loop of symbolic links"
                              ) from None
    except OSError as exc:  # a loop (3.13), a name too long
        raise TowerpressError(f"content folder {str(root)!r} cannot be read: "
                              f"{exc.strerror}") from None
    raise TowerpressError(f"content folder {str(root)!r} does not exist")


def load_tree(root: Path | None, families: Families) -> Content:
    """Load every ruleset under ``root`` (the bundled content when None), each read by
    the family its ``ruleset.toml`` names.

    ``root`` may be a folder of rulesets or a single ruleset folder (one holding
    ``ruleset.toml``).

    Raises:
        ContentError: listing every problem found, each with file, key path and what was
            expected.
        TowerpressError: the folder does not exist or holds no ruleset.
    """
    root = _content_folder(root or BUNDLED_CONTENT)
    reader = Reader(root, root.parent, Findings())
    rulesets: dict[str, Ruleset] = {}
    for folder in _ruleset_folders(root):
        if reader.outside(folder):
            continue
        ruleset = _load_ruleset(reader, folder, families)
        if ruleset is not None:
            rulesets[ruleset.id] = ruleset
    if reader.findings:
        raise ContentError(reader.findings.items)
    return Content(root, MappingProxyType(rulesets))
