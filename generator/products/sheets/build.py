"""Sheets and logs in ``towerpress build``: every ruleset's sheet and log in A4, Letter and A5."""

from __future__ import annotations

from pathlib import Path

from generator.model.loader import Content, Ruleset
from generator.pipeline import Job
from generator.products.sheets.render import PAPERS
from generator.words import plural

KINDS = ("sheet", "log")


def plan(content: Content, out_dir: Path) -> list[Job]:
    """One job per ruleset, kind (that the ruleset defines) and paper."""
    return [
        Job(
            __name__,
            ruleset_id,
            out_dir / f"{ruleset_id}-{kind}-{paper}.pdf",
            (("kind", kind), ("paper", paper)),
        )
        for ruleset_id, ruleset in content.rulesets.items()
        for kind in KINDS
        if any(getattr(s, "kind", None) == kind for s in ruleset.sheets.values())
        for paper in PAPERS
    ]


def run(ruleset: Ruleset, job: Job) -> str:
    from generator.products.sheets.render import write_sheet

    kind = job.option("kind")
    pages = write_sheet(ruleset, kind, job.out, paper=job.option("paper"))
    return f"wrote {job.out} ({plural(pages, 'page')})"
