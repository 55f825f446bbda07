"""Load a content tree into validated, immutable :class:`Ruleset` objects.

Two phases, like mkdocs: every file is read and every problem is collected, then one
:class:`~generator.errors.ContentError` lists them all.  Nothing is half-loaded.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from generator.errors import ContentError, TowerpressError
from generator.model.citations import cited_rulings
from generator.model.common import (
    RULING_ID,
    Chapter,
    Profile,
    RulesetInfo,
    Ruling,
    chapter_from_markdown,
    load_info,
    load_profile,
    load_rulings,
)
from generator.model.prose import KINDS, directives, lookup_value, stray_braces
from generator.model.schema import Findings, Node
from generator.model.views import TableView

BUNDLED_CONTENT = Path(__file__).resolve().parents[2] / "content"


class RulesetData(Protocol):
    """What every ruleset's typed data offers the rest of the system."""

    def tables(self) -> Mapping[str, TableView]:
        """Every printable table, by the name prose uses to embed it."""
        ...


class TableFiles:
    """The parsed ``tables/*.toml`` files of one ruleset, by file stem."""

    def __init__(self, nodes: dict[str, Node], folder: str, findings: Findings):
        self._nodes = nodes
        self._folder = folder
        self._findings = findings
        self._used: set[str] = set()

    def file(self, stem: str) -> Node:
        """The root table of ``tables/<stem>.toml``; a missing file is a finding."""
        self._used.add(stem)
        if stem not in self._nodes:
            path = f"{self._folder}/{stem}.toml"
            self._findings.add(path, "", "missing file (expected a tables file of this name)")
            # The keys of a missing file are not reported one by one: the file is the problem.
            return Node({}, path, "", Findings())
        return self._nodes[stem]

    def done(self) -> None:
        for stem, node in self._nodes.items():
            if stem not in self._used:
                node.error_here(
                    f"unknown tables file (expected one of: {', '.join(sorted(self._used))})"
                )


@dataclass(frozen=True)
class Family:
    """A kind of ruleset: the schema of its tables and the engine that plays it."""

    id: str
    ruling_prefix: str
    load: Callable[[TableFiles], RulesetData]
    # The rulings its engine and views read by ID; a ruleset of the family defines each.
    rulings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruleset:
    id: str
    root: Path
    info: RulesetInfo
    rulings: tuple[Ruling, ...]
    profiles: Mapping[str, Profile]
    chapters: tuple[Chapter, ...]
    quick_reference: Chapter | None  # quick-reference.md: the one-page summary
    data: Any  # the family's typed data (a RulesetData)
    decks: Mapping[str, Any]  # card decks by deck id (decks/*.toml)
    sheets: Mapping[
        str, Any
    ]  # sheet and log definitions (sheets/*.toml)  # the family's typed data (a RulesetData)
    raw: Mapping[str, Any]  # raw TOML of tables/, by file stem, for {{ value: }} lookups

    @property
    def title(self) -> str:
        return self.info.title

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

    def tables(self) -> Mapping[str, TableView]:
        tables: Mapping[str, TableView] = self.data.tables()
        return tables

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


def families() -> dict[str, Family]:
    # Imported here so that the family modules may import this module's types.
    from generator.rulesets.inverted_tower import data as inverted_tower
    from generator.rulesets.three_dice_dungeon import data as three_dice_dungeon
    from generator.rulesets.tower_of_choices import read as tower_of_choices

    found = (inverted_tower.FAMILY, three_dice_dungeon.FAMILY, tower_of_choices.FAMILY)
    return {family.id: family for family in found}


def _display(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


def _outside(path: Path, base: Path, findings: Findings, root: Path) -> bool:
    """Whether ``path`` is a link that leads out of the content folder ``root``: such a file
    is refused, never read (design.md section 8)."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):  # links that lead to each other (3.11 raises RuntimeError)
        findings.add(_display(path, base), "", "cannot be read: a loop of symbolic links")
        return True
    if resolved.is_relative_to(root):
        return False
    findings.add(_display(path, base), "",
                 f"refused: it links to {str(resolved)!r}, outside the content folder "
                 "(expected something inside it)")
    return True


def _listed(
    folder: Path, pattern: str, base: Path, findings: Findings, root: Path
) -> list[Path] | None:
    """The files of ``folder`` matching ``pattern``, sorted; a folder that is there but
    cannot be listed is a finding (glob would quietly find nothing in it), and None.  So
    is a link to a folder outside ``root``: even its file names stay unread."""
    if folder.is_symlink() and _outside(folder, base, findings, root):
        return None
    if folder.is_dir() and not os.access(folder, os.R_OK | os.X_OK):
        findings.add(_display(folder, base), "", "cannot be read: permission denied")
        return None
    return sorted(folder.glob(pattern))


def _read_toml(
    path: Path, base: Path, findings: Findings, root: Path
) -> dict[str, Any] | None:
    shown = _display(path, base)
    if _outside(path, base, findings, root):
        return None
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        findings.add(shown, "", f"malformed TOML: {exc}")
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        findings.add(shown, "", "malformed TOML: arrays or tables nested too deeply")
    except UnicodeDecodeError:
        findings.add(shown, "", "not UTF-8 text")
    except OSError as exc:
        findings.add(shown, "", f"cannot be read: {exc.strerror}")
    return None


def _read_text(path: Path, base: Path, findings: Findings, root: Path) -> str | None:
    if _outside(path, base, findings, root):
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        findings.add(_display(path, base), "", "not UTF-8 text")
    except OSError as exc:
        findings.add(_display(path, base), "", f"cannot be read: {exc.strerror}")
    return None


def _check_citations(raw: Any, file: str, rulings: tuple[Ruling, ...], prefix: str,
                     findings: Findings) -> None:
    """A table value may depend only on a ruling that the profiles give a reading of."""
    defined = {r.id for r in rulings}
    for key, ruling_id in cited_rulings(raw):
        # An ID of the wrong form is the family reader's finding already.
        well_formed = RULING_ID.match(ruling_id) and ruling_id.startswith(f"{prefix}-")
        if well_formed and ruling_id not in defined:
            findings.add(file, key, f"unknown ruling ID {ruling_id!r} (not in rulings.toml)")


def _load_ruleset(folder: Path, base: Path, findings: Findings, root: Path) -> Ruleset | None:
    shown = _display(folder, base)
    registry = families()
    before = len(findings.items)

    raw_info = _read_toml(folder / "ruleset.toml", base, findings, root)
    if raw_info is None:
        return None
    info = load_info(Node(raw_info, f"{shown}/ruleset.toml", "", findings), tuple(registry))
    family = registry.get(info.family)
    if family is None:
        return None

    rulings: tuple[Ruling, ...] = ()
    raw_rulings = _read_toml(folder / "rulings.toml", base, findings, root)
    reported = len(findings.items)
    if raw_rulings is not None:
        rulings = load_rulings(
            Node(raw_rulings, f"{shown}/rulings.toml", "", findings), family.ruling_prefix
        )
    # Rulings checked against a broken rulings.toml would each be reported too.
    sound_rulings = raw_rulings is not None and len(findings.items) == reported
    if sound_rulings:
        defined = {r.id for r in rulings}
        for ruling_id in family.rulings:
            if ruling_id not in defined:
                findings.add(f"{shown}/rulings.toml", "rulings",
                             f"missing ruling {ruling_id} (the {family.id} engine reads it; "
                             f'expected a [[rulings]] entry with id = "{ruling_id}")')

    profiles: dict[str, Profile] = {}
    profile_files = _listed(folder / "profiles", "*.toml", base, findings, root)
    if profile_files == []:
        findings.add(f"{shown}/profiles", "", "no profiles (expected at least as-written.toml)")
    for path in profile_files or []:
        raw = _read_toml(path, base, findings, root)
        if raw is not None:
            node = Node(raw, f"{shown}/profiles/{path.name}", "", findings)
            profiles[path.stem] = load_profile(node, path.stem, rulings)
    if profiles and info.default_profile not in profiles:
        findings.add(
            f"{shown}/ruleset.toml",
            "default_profile",
            f"unknown profile {info.default_profile!r} "
            f"(expected one of: {', '.join(sorted(profiles))})",
        )

    nodes: dict[str, Node] = {}
    raw_tables: dict[str, Any] = {}
    unreadable: set[str] = set()
    for path in _listed(folder / "tables", "*.toml", base, findings, root) or []:
        raw = _read_toml(path, base, findings, root)
        if raw is None:
            unreadable.add(path.stem)
        else:
            raw_tables[path.stem] = raw
            nodes[path.stem] = Node(raw, f"{shown}/tables/{path.name}", "", findings)
            if sound_rulings:
                _check_citations(raw, nodes[path.stem].file, rulings, family.ruling_prefix,
                                 findings)
    files = TableFiles(nodes, f"{shown}/tables", findings)
    data: Any = None
    # The tables refer to each other: checked without a file that could not be read, every
    # reference to it would be reported too, each blaming another file.  The rest of the
    # ruleset is still read, for problems of its own.
    if not unreadable:
        data = family.load(files)
        files.done()

    from generator.model.decks import load_decks
    from generator.model.sheets import load_sheets

    extra: dict[str, Mapping[str, Any]] = {}
    for sub, loader in (("decks", load_decks), ("sheets", load_sheets)):
        sub_nodes: dict[str, Node] = {}
        for path in _listed(folder / sub, "*.toml", base, findings, root) or []:
            raw = _read_toml(path, base, findings, root)
            if raw is not None:
                sub_nodes[path.stem] = Node(raw, f"{shown}/{sub}/{path.name}", "", findings)
        # Decks and sheets name entities of the data; they are checked only once the
        # data itself is sound, so one mistake is not reported twice.
        sound = len(findings.items) == before
        extra[sub] = MappingProxyType(dict(loader(folder.name, sub_nodes, data if sound else None)))

    chapters: list[Chapter] = []
    chapter_files = _listed(folder / "rules", "*.md", base, findings, root)
    if chapter_files == []:
        findings.add(f"{shown}/rules", "", "no chapters (expected rules/*.md)")
    table_names = set(data.tables()) if len(findings.items) == before else None
    ruling_ids = {r.id for r in rulings}
    quick: Chapter | None = None
    quick_path = folder / "quick-reference.md"
    for path in [*(chapter_files or []), *([quick_path] if quick_path.is_file() else [])]:
        text = _read_text(path, base, findings, root)
        if text is None:
            continue
        file = _display(path, base)
        chapter, problem = chapter_from_markdown(path.stem, text, file)
        if problem:
            findings.add(file, "line 1", problem)
        if path == quick_path:
            quick = chapter
        else:
            chapters.append(chapter)
        for number, snippet in stray_braces(text):
            findings.add(file, f"line {number}",
                         f"{snippet!r} is not a directive (expected {{{{ kind: name }}}} with a "
                         f"kind of {', '.join(KINDS)})")
        for d in directives(text):
            where = f"line {d.line}"
            if d.kind not in KINDS:
                findings.add(
                    file,
                    where,
                    f"unknown directive {d.kind!r} (expected one of: {', '.join(KINDS)})",
                )
            elif d.kind == "table" and table_names is not None and d.arg not in table_names:
                findings.add(
                    file,
                    where,
                    f"unknown table {d.arg!r} (expected one of: {', '.join(sorted(table_names))})",
                )
            elif d.kind == "value" and table_names is not None:
                # Checked only once the data is sound, like the tables: a broken file is
                # reported once, not again by every value that reads it.
                try:
                    lookup_value(raw_tables, d.arg)
                except KeyError as exc:
                    findings.add(file, where, f"value {d.arg!r} does not resolve: {exc.args[0]}")
            elif d.kind == "ruling" and d.arg not in ruling_ids:
                findings.add(file, where, f"unknown ruling ID {d.arg!r}")

    return Ruleset(
        id=folder.name,
        root=folder,
        info=info,
        rulings=rulings,
        profiles=MappingProxyType(profiles),
        chapters=tuple(chapters),
        quick_reference=quick,
        data=data,
        decks=extra["decks"],
        sheets=extra["sheets"],
        raw=MappingProxyType(raw_tables),
    )


def load_content(root: Path | None = None) -> Content:
    """Load every ruleset under ``root`` (the bundled content by default).

    ``root`` may be a folder of rulesets or a single ruleset folder (one holding
    ``ruleset.toml``).

    Raises:
        ContentError: listing every problem found, each with file, key path and what was
            expected.
        TowerpressError: the folder does not exist or holds no ruleset.
    """
    try:
        root = (root or BUNDLED_CONTENT).resolve()
    except (OSError, RuntimeError):  # links that lead to each other (3.11 raises RuntimeError)
        raise TowerpressError(f"content folder {str(root)!r} is a loop of symbolic links"
                              ) from None
    if not root.is_dir():
        raise TowerpressError(f"content folder {str(root)!r} does not exist")
    base = root.parent
    if (root / "ruleset.toml").is_file():
        folders = [root]
    else:
        try:
            folders = sorted(p for p in root.iterdir() if (p / "ruleset.toml").is_file())
        except OSError as exc:
            raise TowerpressError(f"content folder {str(root)!r} cannot be read: "
                                  f"{exc.strerror}") from None
    if not folders:
        raise TowerpressError(
            f"no ruleset in {str(root)!r} (expected folders holding a ruleset.toml)"
        )
    findings = Findings()
    rulesets: dict[str, Ruleset] = {}
    for folder in folders:
        if _outside(folder, base, findings, root):
            continue
        ruleset = _load_ruleset(folder, base, findings, root)
        if ruleset is not None:
            rulesets[ruleset.id] = ruleset
    if findings:
        raise ContentError(findings.items)
    return Content(root, MappingProxyType(rulesets))
