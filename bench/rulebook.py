"""Seconds per rulebook per paper, split into our own work and WeasyPrint's.

Our work: loading and validating the content, Markdown, templating (the HTML string).
WeasyPrint's: layout and PDF writing.  Target: our work under 15% of the total.
Each figure is the best of a few runs in one warm process (one FontConfiguration).
"""

from __future__ import annotations

import time

from generator.model.loader import load_content
from generator.render.pdf import pdf_bytes, render_document
from generator.render.rulebook import PAPERS, rulebook_html

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
                html = rulebook_html(ruleset, paper=paper)
                t1 = time.perf_counter()
                document = render_document(html, ruleset.root)
                pdf_bytes(document)
                t2 = time.perf_counter()
                if best is None or t2 - t0 < best[0] + best[1]:
                    best = (t1 - t0, t2 - t1, len(document.pages))
            assert best is not None
            ours, weasy, pages = best
            total = ours + weasy
            print(
                f"{ruleset_id:<20}{paper:<8}{pages:>6}{ours:>8.3f}{weasy:>8.3f}{total:>8.3f}"
                f"{100 * ours / total:>7.1f}%"
            )
