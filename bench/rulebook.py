"""Seconds per rulebook per paper, split into our own work and WeasyPrint's.

Our work: loading and validating the content, Markdown, templating (the HTML strings: the
quick reference's measuring page and the book).  WeasyPrint's: layout (of both) and PDF
writing, as :func:`generator.products.rulebook.product.rulebook_document` does them.  Target: our
work under 15% of the total.
Each figure is the best of a few runs in one warm process (one FontConfiguration).
"""

from __future__ import annotations

import time

from generator.model.paper import PAPERS
from generator.products.rulebook.columns import best_split
from generator.products.rulebook.html import rulebook_html
from generator.render.pdf import pdf_bytes, render_document
from generator.rulesets import load_content

REPEATS = 3


def run() -> None:
    print("rulebook: seconds per rulebook (best of 3, warm process)")
    print(
        f"{'ruleset':<20}{'paper':<8}{'pages':>6}{'ours':>8}{'weasy':>8}{'total':>8}{'ours %':>8}"
    )
    # Warm up fonts and caches once, as a long-lived build process would be.
    content = load_content()
    first = next(iter(content.rulesets.values()))
    pdf_bytes(render_document(rulebook_html(first), first.root))
    for ruleset_id in content.rulesets:
        for paper in PAPERS:
            best: tuple[float, float, int] | None = None
            for _ in range(REPEATS):
                t0 = time.perf_counter()
                ruleset = load_content().ruleset(ruleset_id)
                measure = rulebook_html(ruleset, paper=paper, measure_quick=True)
                t1 = time.perf_counter()
                split = best_split(render_document(measure, ruleset.root).pages[0].anchors)
                t2 = time.perf_counter()
                html = rulebook_html(ruleset, paper=paper, quick_split=split)
                t3 = time.perf_counter()
                document = render_document(html, ruleset.root)
                pdf_bytes(document)
                t4 = time.perf_counter()
                ours, weasy = (t1 - t0) + (t3 - t2), (t2 - t1) + (t4 - t3)
                if best is None or ours + weasy < best[0] + best[1]:
                    best = (ours, weasy, len(document.pages))
            assert best is not None
            ours, weasy, pages = best
            total = ours + weasy
            print(
                f"{ruleset_id:<20}{paper:<8}{pages:>6}{ours:>8.3f}{weasy:>8.3f}{total:>8.3f}"
                f"{100 * ours / total:>7.1f}%"
            )
