"""Printed booklets: seconds per page, and the cost of meeting the spread rule.

Targets (issue 26): a 10-floor Inverted Tower booklet, a 3-level 3 Dice Dungeon booklet and
an 8-room Tower of Choices booklet, each rendered from its JSON with the spread rule met,
in at most 1.5 times one WeasyPrint layout of the same document (the final HTML laid out
and written once, as a renderer that ignored the rule would), measured side by side in one
run; and the layouts a booklet takes, over many seeds (``python -m bench.booklet_print
SEEDS [RULESET...]``; 50 for the README).  Times are process CPU seconds, the best of two runs: on a
shared machine they hold still where the wall clock does not.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from generator.engine.booklet import BookletRequest, make_booklet
from generator.engine.family import family_of
from generator.errors import RenderError
from generator.model.loader import Ruleset
from generator.products.booklet.html import booklet_html
from generator.products.booklet.pages import booklet_paper
from generator.products.booklet.render import render_booklet
from generator.products.sheets.render import sheet_document
from generator.render.pdf import pdf_bytes, render_document
from generator.rulesets import load_content

DEPTHS = {"inverted-tower": 10, "three-dice-dungeon": 3, "tower-of-choices": 8}
SEED = "1234"  # the README's booklet
ODDS = 2500


def _best(call: Callable[[], Any], repeats: int = 2) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        result = call()
        best = min(best, time.process_time() - start)
    return best, result


def _document(ruleset: Ruleset, seed: str, odds: int) -> dict[str, Any]:
    family = family_of(ruleset)
    profile = ruleset.profile(ruleset.info.booklet_profile)
    return make_booklet(ruleset, family, profile, BookletRequest(seed, DEPTHS[ruleset.id], odds))


def _once(ruleset: Ruleset, document: dict[str, Any]) -> bytes:
    """The final booklet laid out and written once, with its log: what a renderer that
    ignored the spread rule would do."""
    spec = booklet_paper("a5")
    log = sheet_document(ruleset, "log", paper="a5", floors=document["depth"])
    html, pictures = booklet_html(document, ruleset.info, spec, json_name="b.json",
                                  log_pages=len(log.pages))
    return pdf_bytes(render_document(html, ruleset.root, pictures=pictures))


def timings() -> None:
    content = load_content()
    print("printed booklets, A5: CPU seconds, best of 2; 'once' lays the final booklet out "
          "and writes it once")
    print(f"{'ruleset':<20}{'pages':>6}{'layouts':>8}{'booklet':>9}{'once':>7}{'ratio':>7}"
          f"{'s/page':>8}")
    for ruleset_id in DEPTHS:
        ruleset = content.ruleset(ruleset_id)
        family = family_of(ruleset)
        document = _document(ruleset, SEED, ODDS)
        spec = booklet_paper("a5")
        # Each lambda is called at once, in its own turn of the loop.
        made, booklet = _best(lambda: render_booklet(
            ruleset, family, document, spec, "b.json"))  # noqa: B023
        once, _ = _best(lambda: _once(ruleset, booklet.document))  # noqa: B023
        print(f"{ruleset_id:<20}{booklet.pages:>6}{booklet.layouts:>8}{made:>9.2f}{once:>7.2f}"
              f"{made / once:>7.2f}{made / booklet.pages:>8.3f}")


def layouts(seeds: int, rulesets: Sequence[str]) -> None:
    content = load_content()
    print(f"layouts a booklet took (the measuring one counted), seeds 1-{seeds}, A5")
    for ruleset_id in rulesets:
        ruleset = content.ruleset(ruleset_id)
        family = family_of(ruleset)
        counts, failed = [], []
        for seed in range(1, seeds + 1):
            try:
                counts.append(render_booklet(ruleset, family, _document(ruleset, str(seed), 0),
                                             booklet_paper("a5"), "b.json").layouts)
            except RenderError as exc:
                failed.append(f"seed {seed}: {exc}")
        print(f"{ruleset_id:<20} mean {sum(counts) / max(1, len(counts)):.2f}  "
              f"max {max(counts, default=0)}  spread rule met {len(counts)} of {seeds}")
        for line in failed:
            print("  " + line)


def run() -> None:
    timings()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        layouts(int(sys.argv[1]), sys.argv[2:] or list(DEPTHS))
    else:
        run()
