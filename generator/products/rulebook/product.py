"""The rulebook as a product: its options, its files in a build, and its writing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from generator.model.common import Profile
from generator.model.loader import Content, Ruleset
from generator.model.paper import PAPERS
from generator.products.base import Job, Product
from generator.products.rulebook.columns import best_split
from generator.products.rulebook.html import FLOW_GAP_EM, paper_spec, rulebook_html
from generator.products.rulebook.pages import flows
from generator.products.rulebook.pages import measured as measured_pages
from generator.render.accessible import cover_then_folios
from generator.render.output import write_atomic
from generator.render.pdf import pdf_bytes, render_document
from generator.render.pictures import with_file_urls
from generator.words import plural


@dataclass(frozen=True)
class RulebookOptions:
    paper: str = "a4"
    profile: str | None = None  # the ruleset's default profile when None
    print_marks: bool = False  # 3 mm bleed and crop marks
    format: Literal["pdf", "html"] = "pdf"  # html: what goes into WeasyPrint, to preview


class Rulebook(Product[RulebookOptions]):
    """Cover, contents, chapters, tables, rulings, credits and the quick reference."""

    name = "rulebook"

    def plan(self, content: Content, out_dir: Path) -> list[Job[RulebookOptions]]:
        """Every ruleset's rulebook on every paper."""
        return [self.job(ruleset_id, out_dir / f"{ruleset_id}-rulebook-{paper}.pdf",
                         RulebookOptions(paper=paper))
                for ruleset_id in content.rulesets for paper in PAPERS]

    def write(self, ruleset: Ruleset, options: RulebookOptions, out: Path) -> str:
        profile = ruleset.profile(options.profile)
        if options.format == "html":  # a browser balances the quick reference's columns itself
            html = rulebook_html(ruleset, paper=options.paper, profile=profile,
                                 print_marks=options.print_marks)
            write_atomic(out, with_file_urls(html, [ruleset.root]).encode("utf-8"))
            return f"wrote {out}"
        document = rulebook_document(ruleset, paper=options.paper, profile=profile,
                                     print_marks=options.print_marks)
        write_atomic(out, pdf_bytes(document, cover_then_folios()))
        return f"wrote {out} ({plural(len(document.pages), 'page')})"


def rulebook_document(
    ruleset: Ruleset, *, paper: str, profile: Profile, print_marks: bool = False
) -> Any:
    """A rulebook laid out by WeasyPrint: measured first with every chapter on a new page
    and its quick reference in one column (:mod:`generator.products.rulebook.pages`,
    :mod:`generator.products.rulebook.columns`), then the whole book with the chapters
    placed and the columns split; then again if a chapter's place proved wrong."""
    quick = ruleset.quick_reference is not None
    measure = rulebook_html(ruleset, paper=paper, profile=profile, print_marks=print_marks,
                            measure_quick=quick, measure_parts=True)
    pages = render_document(measure, ruleset.root).pages
    split = best_split(pages[-1].anchors) if quick else None
    parts = measured_pages(pages)
    gap = FLOW_GAP_EM * points(paper_spec(paper).font_size) * PX_PER_PT
    placed = flows(parts, gap)

    def laid_out(placed: dict[str, bool]) -> Any:
        html = rulebook_html(ruleset, paper=paper, profile=profile, print_marks=print_marks,
                             quick_split=split, flows=placed)
        return render_document(html, ruleset.root)

    document = laid_out(placed)
    for _ in range(LAYOUTS - 1):
        # Again while the book shows a chapter placed against the rule (pages.py): each
        # time, the parts up to it are placed as they were laid out.
        again = flows(parts, gap, measured_pages(document.pages), placed)
        if again == placed:
            break
        placed = again
        document = laid_out(placed)
    return document


def points(size: str) -> float:
    """A CSS size in points ("10.5pt") as a number."""
    return float(size.removesuffix("pt"))


def default_output(ruleset_id: str, options: RulebookOptions) -> Path:
    return Path("build") / f"{ruleset_id}-rulebook-{options.paper}.{options.format}"


PX_PER_PT = 96 / 72  # WeasyPrint lays out in CSS pixels
LAYOUTS = 3  # at most, after the measuring pass: a chapter's foot is estimated until laid out
RULEBOOK = Rulebook()
