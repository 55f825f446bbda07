"""Seeded solo booklets as a product: the files a booklet is written as, and the sample
booklet of each ruleset that ``towerpress build`` makes (issue 26)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from generator.engine.booklet import DEFAULT_ODDS, BookletRequest, make_booklet, to_bytes
from generator.engine.family import Family, family_of
from generator.model.common import Profile
from generator.model.loader import Content, Ruleset
from generator.products.base import Job, Product
from generator.products.booklet.impose import impose_saddle, saddle_order
from generator.products.booklet.pages import booklet_paper
from generator.products.booklet.render import Booklet, render_booklet
from generator.products.booklet.screen import screen_html
from generator.products.cards.compose import Info
from generator.render.output import write_atomic
from generator.words import plural

Format = Literal["pdf", "json", "both", "html"]
SAMPLE_SEED = "1234"  # the README's booklet


@dataclass(frozen=True)
class BookletOptions:
    """How a booklet is written: as JSON, as a PDF on ``paper``, or both, or as one page
    for a phone (html); ``impose`` adds the PDF imposed for folding."""

    fmt: Format = "both"
    paper: str = "a5"
    impose: bool = False


def write_booklet(ruleset: Ruleset, family: Family[Any], profile: Profile,
                  request: BookletRequest, options: BookletOptions, stem: Path) -> list[str]:
    """Make the booklet of ``request`` and write it as ``stem.json``, ``stem.pdf`` and
    (imposed) ``stem-saddle.pdf``, or ``stem.html``, as ``options`` ask; returns a line
    for each file."""
    document = make_booklet(ruleset, family, profile, request)
    if options.fmt == "html":
        page = screen_html(ruleset, document, json_name=f"{stem.name}.html").encode("utf-8")
        write_atomic(stem.with_suffix(".html"), page)
        return [f"wrote {stem}.html ({plural(len(document['sections']), 'section')}, "
                f"{round(len(page) / 1024):,} KB)"]
    if options.fmt == "json":
        write_atomic(stem.with_suffix(".json"), to_bytes(document))
        return [f"wrote {stem}.json ({plural(len(document['sections']), 'section')})"]
    spec = booklet_paper(options.paper, imposed=options.impose)
    booklet = render_booklet(ruleset, family, document, spec, f"{stem.name}.json")
    lines = []
    if options.fmt == "both":
        write_atomic(stem.with_suffix(".json"), to_bytes(booklet.document))
        lines.append(f"wrote {stem}.json ({plural(len(document['sections']), 'section')})")
    write_atomic(stem.with_suffix(".pdf"), booklet.pdf)
    lines.append(f"wrote {stem}.pdf ({plural(booklet.pages, 'page')}, "
                 f"{plural(booklet.layouts, 'layout')})")
    if options.impose:
        lines.append(_write_imposed(ruleset, booklet, options, stem))
    return lines


def _write_imposed(ruleset: Ruleset, booklet: Booklet, options: BookletOptions,
                   stem: Path) -> str:
    spec = booklet_paper(options.paper, imposed=True)
    document = booklet.document
    info = Info(title=f"{ruleset.info.title}: solo booklet, seed {document['seed']}, "
                      "imposed for folding",
                author=", ".join(dict.fromkeys(c.author for c in ruleset.info.credits)),
                subject=f"Print duplex, flipping on the short edge; fold and staple. "
                        f"Profile {document['profile']['id']}.",
                language=ruleset.info.language, creator=f"TowerPress {document['generator']}")
    out = stem.parent / f"{stem.name}-saddle.pdf"
    write_atomic(out, impose_saddle(booklet.pdf, booklet.pages, spec, info))
    sheets = len(saddle_order(booklet.pages)) // 2
    return f"wrote {out} ({plural(sheets, 'sheet')}, printed on both sides)"


class Booklets(Product[BookletOptions]):
    """A sample booklet of each ruleset: seed 1234 on A5 pages, and imposed for folding."""

    name = "booklets"

    def plan(self, content: Content, out_dir: Path) -> list[Job[BookletOptions]]:
        return [self.job(ruleset_id, out_dir / "booklets" / f"{ruleset_id}-{SAMPLE_SEED}.pdf",
                         BookletOptions(impose=True))
                for ruleset_id in content.rulesets]

    def write(self, ruleset: Ruleset, options: BookletOptions, out: Path) -> str:
        family = family_of(ruleset)
        request = BookletRequest(SAMPLE_SEED, family.default_depth, DEFAULT_ODDS)
        profile = ruleset.profile(ruleset.info.booklet_profile)
        stem = out.with_suffix("")
        return "; ".join(write_booklet(ruleset, family, profile, request, options, stem))


BOOKLETS = Booklets()
