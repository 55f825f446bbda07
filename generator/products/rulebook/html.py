"""The rulebook: cover, contents, chapters, data tables, rulings, credits, quick reference."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from generator import __version__
from generator.errors import RenderError
from generator.findings import Finding
from generator.model.common import Chapter, Profile, Reading, RulesetInfo, Ruling
from generator.model.loader import Ruleset
from generator.model.paper import PAPERS, Paper, paper
from generator.model.views import TableView
from generator.products.rulebook.columns import MARK, measuring_css
from generator.products.rulebook.links import APPENDICES, resolve, targets
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.markdown import Heading, ProseBlock, ProseRenderer
from generator.render.templating import render_template


@dataclass(frozen=True)
class PaperSpec:
    """A rulebook's page on one paper: its margins and type sizes."""

    paper: Paper
    margin: str  # top outer bottom inner, for @page :right; mirrored on :left
    font_size: str
    quick_font_size: str  # the one-page quick reference is set smaller
    quick_margin: str
    # Its fine print (table notes, ruling marks, the faces beside dice), where scaling it
    # down with the rest would leave it too small to read: A5's came to 4.7-5.4 pt.
    quick_fine_print: str | None = None

    @property
    def css_size(self) -> str:
        return self.paper.css_size

    @property
    def height_mm(self) -> float:
        return self.paper.height_mm


PAPER_SPECS: Mapping[str, PaperSpec] = {
    "a4": PaperSpec(PAPERS["a4"], "20mm 22mm 22mm 26mm", "10.5pt", "8.6pt", "12mm"),
    "letter": PaperSpec(PAPERS["letter"], "19mm 22mm 21mm 26mm", "10.5pt", "8.4pt", "12mm"),
    "a5": PaperSpec(PAPERS["a5"], "15mm 13mm 16mm 16mm", "9.5pt", "6.6pt", "8mm", "5.8pt"),
}


@dataclass(frozen=True)
class ChapterView:
    number: int
    title: str
    anchor: str
    blocks: tuple[ProseBlock, ...]
    headings: tuple[Heading, ...]


@dataclass(frozen=True)
class RulingView:
    ruling: Ruling
    reading: str  # "Faithful" or "Alt"
    text: str
    other: str  # "Alt" or "Faithful"; empty when the ruling has only one reading
    other_text: str
    other_profiles: tuple[str, ...]  # the titles of the profiles that take the other reading


def _ruling_view(ruling: Ruling, profile: Profile, profiles: Iterable[Profile]) -> RulingView:
    """The book's reading of ``ruling`` and, where there is one, the other reading with the
    profiles that take it: the appendix gives a reader both sides of every open point."""
    reading = profile.reading(ruling.id)
    other: Reading = "faithful" if reading == "alt" else "alt"
    if not ruling.alt:
        return RulingView(ruling, "Faithful", ruling.faithful, "", "", ())
    takers = tuple(p.title for p in profiles if p.reading(ruling.id) == other)
    return RulingView(
        ruling,
        reading.capitalize(),
        ruling.reading_text(reading),
        other.capitalize(),
        ruling.reading_text(other),
        takers,
    )


def prose_folder(ruleset: Ruleset, *, quick: bool = False) -> Path:
    """The folder a prose file's images are found from: ``rules/`` for a chapter, the
    ruleset's own for its quick reference."""
    return ruleset.root if quick else ruleset.root / "rules"


class RulebookContext(TypedDict):
    """What ``rulebook/rulebook.html`` reads."""

    ruleset: Ruleset
    info: RulesetInfo
    profile: Profile
    paper: str
    spec: PaperSpec
    print_marks: bool
    font_faces: Markup
    serif: str
    sans: str
    chapters: list[ChapterView]
    tables: Mapping[str, TableView]
    leftover: list[TableView]  # tables no chapter embeds: their own appendix
    rulings: list[RulingView]
    quick: ChapterView | None
    quick_split: int | None
    measure_quick: bool
    quick_mark: str
    measure_css: str
    authors: str
    version: str


def paper_spec(paper_id: str) -> PaperSpec:
    """Raises TowerpressError for an unknown paper, naming those that exist."""
    return PAPER_SPECS[paper(paper_id).id]


def rulebook_html(
    ruleset: Ruleset,
    *,
    paper: str = "a4",
    profile: Profile | None = None,
    print_marks: bool = False,
    quick_split: int | None = None,
    measure_quick: bool = False,
) -> str:
    """The HTML that goes into WeasyPrint for one rulebook.

    ``quick_split``: the quick reference's blocks from this index on go into its second
    column (:mod:`generator.products.rulebook.columns`); None leaves the columns to CSS, as a
    browser balances them.  ``measure_quick``: only the quick reference, in one column on
    a tall page, for the measuring pass.
    """
    spec = paper_spec(paper)
    profile = profile or ruleset.profile()
    prose = ProseRenderer(ruleset.raw, ruleset.root, profile.alt)
    tables: Mapping[str, TableView] = ruleset.tables()
    parts = _parts(ruleset)
    anchors: set[str] = set()
    views = [_view(prose, n, part, anchors) for n, part in enumerate(parts, start=1)]
    found = _targets(views, ruleset)
    views = [replace(view, blocks=tuple(resolve(view.blocks, found, chapter.file)))
             for view, (chapter, *_) in zip(views, parts, strict=True)]
    quick = replace(views.pop(), number=0) if ruleset.quick_reference is not None else None
    chapters = views
    embedded = _embedded(chapters)

    profiles = ruleset.profiles.values()
    rulings = [_ruling_view(ruling, profile, profiles) for ruling in ruleset.rulings]
    # Every table of the data is printed: those no chapter embeds go to an appendix.
    leftover = [table for name, table in tables.items() if name not in embedded]
    authors = ", ".join(dict.fromkeys(c.author for c in ruleset.info.credits))

    return render_template("rulebook/rulebook.html", RulebookContext(
        ruleset=ruleset,
        info=ruleset.info,
        profile=profile,
        paper=paper,
        spec=spec,
        print_marks=print_marks,
        font_faces=font_face_css(),
        serif=SERIF,
        sans=SANS,
        chapters=chapters,
        tables=tables,
        leftover=leftover,
        rulings=rulings,
        quick=quick,
        quick_split=quick_split,
        measure_quick=measure_quick,
        quick_mark=MARK,
        measure_css=measuring_css(spec.css_size.split()[0]),
        authors=authors,
        version=__version__,
    ))


def prose_problems(ruleset: Ruleset) -> list[Finding]:
    """What would stop the rules prose from rendering (raw HTML, an image from outside the
    content folder, a link to no place of the book), chapter by chapter, so that
    ``validate`` lists them all without laying out a page."""
    prose = ProseRenderer(ruleset.raw, ruleset.root, ruleset.profile().alt)
    parts = _parts(ruleset)
    anchors: set[str] = set()
    views: list[ChapterView] = []
    found: list[Finding] = []
    for number, part in enumerate(parts, start=1):
        try:
            views.append(_view(prose, number, part, anchors))
        except RenderError as exc:
            found.append(_finding(exc))
    # Links are checked once every chapter renders: a broken chapter's headings are missing.
    if found:
        return found
    targets = _targets(views, ruleset)
    for view, (chapter, *_) in zip(views, parts, strict=True):
        try:
            resolve(view.blocks, targets, chapter.file)
        except RenderError as exc:
            found.append(_finding(exc))
    return found


def _finding(exc: RenderError) -> Finding:
    file, _, message = exc.format_message().partition(": ")
    return Finding.in_content(file, "", message)


def _parts(ruleset: Ruleset) -> list[tuple[Chapter, Path, str, str]]:
    """The prose of the book: each chapter, then the quick reference, with the folder its
    pictures are found from, its slug (for its headings' ids) and its own id."""
    parts = [(c, prose_folder(ruleset), c.slug, f"ch-{c.slug}") for c in ruleset.chapters]
    if ruleset.quick_reference is not None:
        parts.append((ruleset.quick_reference, prose_folder(ruleset, quick=True), "quick",
                      "quick-reference"))
    return parts


def _view(prose: ProseRenderer, number: int, part: tuple[Chapter, Path, str, str],
          anchors: set[str]) -> ChapterView:
    chapter, folder, slug, anchor = part
    blocks, headings = prose.render(
        chapter.source, file=chapter.file, folder=folder, slug=slug, anchors=anchors
    )
    return ChapterView(number, chapter.title, anchor, tuple(blocks), tuple(headings))


def _embedded(chapters: list[ChapterView]) -> set[str]:
    """The tables the chapters embed; the others go to the Tables appendix."""
    return {b.table for chapter in chapters for b in chapter.blocks if b.table}


def _targets(views: list[ChapterView], ruleset: Ruleset) -> dict[str, str]:
    tables = ruleset.tables()
    printed = [*APPENDICES,
               *(["tables"] if set(tables) - _embedded(views[:len(ruleset.chapters)]) else []),
               *(["quick-reference"] if ruleset.quick_reference is not None else [])]
    return targets(
        chapters=((v.title, v.anchor) for v in views),
        headings=(h for v in views for h in v.headings),
        tables=tables,
        rulings=(r.id for r in ruleset.rulings),
        appendices=printed,
    )
