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
from generator.products.rulebook.columns import (
    MARK,
    PAGE_MARK,
    TITLE_MARK,
    WIDE,
    QuickLayout,
    measuring_css,
)
from generator.products.rulebook.cover import CoverView, cover_view
from generator.products.rulebook.figures import rulebook_figures
from generator.products.rulebook.links import APPENDICES, resolve, targets
from generator.products.rulebook.pages import PART
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.markdown import Heading, ProseBlock, ProseRenderer
from generator.render.templating import render_template


@dataclass(frozen=True)
class PaperSpec:
    """A rulebook's page on one paper: its margins and type sizes."""

    paper: Paper
    margin: str  # top outer bottom inner, for @page :right; mirrored on :left
    font_size: str
    quick_font_size: str  # the quick reference is set smaller, its tables 0.92 of this
    quick_margin: str  # on every side of its pages
    # Its fine print (table notes, ruling marks, the faces beside dice), where scaling it
    # down with the rest would leave it under 7 pt, the least a rulebook prints.
    quick_fine_print: str = "7pt"
    # The contents' columns: A5's and Letter's took a second page for their last lines in one.
    contents_columns: int = 1

    @property
    def css_size(self) -> str:
        return self.paper.css_size

    @property
    def height_mm(self) -> float:
        return self.paper.height_mm


PAPER_SPECS: Mapping[str, PaperSpec] = {
    "a4": PaperSpec(PAPERS["a4"], "20mm 22mm 22mm 26mm", "10.5pt", "8.6pt", "12mm"),
    "letter": PaperSpec(PAPERS["letter"], "19mm 22mm 21mm 26mm", "10.5pt", "8.4pt", "12mm",
                        contents_columns=2),
    # A5's quick reference takes two facing pages (columns.py) rather than 5.8 pt on one.
    "a5": PaperSpec(PAPERS["a5"], "15mm 13mm 16mm 16mm", "9.5pt", "7.8pt", "8mm",
                    contents_columns=2),
}

# The space above a chapter that follows on the page before (pages.py), in its own ems.
FLOW_GAP_EM = 2.2

# The fine print of book.css and rulebook.css, each with its size as a share of the book's
# text (its ems times those of what it sits in): where that comes under 7 pt, 7 pt.
FINE_PRINT = (
    (".ruling-ref", 0.72),
    ("td .ruling-ref", 0.72 * 0.9),
    ("table.rulings .reading", 0.85 * 0.8),
    (".dice .faces", 0.78),
    ("td .dice .faces", 0.78 * 0.9),
    (".table-note", 0.82),
)


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
    cover: CoverView  # the cover's drawing and credits
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
    quick_split: QuickLayout | None
    measure_quick: bool
    measure_parts: bool
    flows: Mapping[str, bool]  # by part's anchor: it follows on the page before (pages.py)
    flow_gap: str
    part_id: str
    fine_print: tuple[tuple[str, float], ...]
    quick_mark: str
    quick_wide_mark: str
    quick_page_mark: str
    quick_title_mark: str
    quick_page_height: str
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
    quick_split: QuickLayout | None = None,
    measure_quick: bool = False,
    measure_parts: bool = False,
    flows: Mapping[str, bool] | None = None,
) -> str:
    """The HTML that goes into WeasyPrint for one rulebook.

    ``quick_split``: the quick reference's blocks column by column, page by page
    (:mod:`generator.products.rulebook.columns`); None leaves the columns to CSS, as a
    browser balances them.  ``measure_quick``: the quick reference in one column on a tall
    page, for the measuring pass; alone, unless ``measure_parts`` asks for the whole book
    with every chapter and appendix on a new page and marked (pages.py).  ``flows``: the
    parts that follow on the page before, by anchor; none when not given.
    """
    spec = paper_spec(paper)
    profile = profile or ruleset.profile()
    figures = rulebook_figures(ruleset, profile, spec.paper.width_mm, spec.margin)
    prose = ProseRenderer(ruleset.raw, ruleset.root, profile.alt, figures)
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
        cover=cover_view(ruleset, spec.paper, float(spec.font_size.removesuffix("pt"))),
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
        measure_parts=measure_parts,
        flows=flows or {},
        flow_gap=f"{FLOW_GAP_EM}em",
        part_id=PART,
        fine_print=FINE_PRINT,
        quick_mark=MARK,
        quick_wide_mark=WIDE,
        quick_page_mark=PAGE_MARK,
        quick_title_mark=TITLE_MARK,
        quick_page_height=f"{spec.height_mm - 2 * float(spec.quick_margin.removesuffix('mm'))}mm",
        measure_css=measuring_css(spec.css_size.split()[0]),
        authors=authors,
        version=__version__,
    ))


def prose_problems(ruleset: Ruleset) -> list[Finding]:
    """What would stop the rules prose from rendering (raw HTML, an image from outside the
    content folder, a link to no place of the book), chapter by chapter, so that
    ``validate`` lists them all without laying out a page."""
    spec, profile = paper_spec("a4"), ruleset.profile()
    figures = rulebook_figures(ruleset, profile, spec.paper.width_mm, spec.margin)
    prose = ProseRenderer(ruleset.raw, ruleset.root, profile.alt, figures)
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
