"""Rulebooks in ``towerpress build``: every ruleset in A4, Letter and A5."""

from __future__ import annotations

from pathlib import Path

from generator.model.loader import Content, Ruleset
from generator.pipeline import Job
from generator.products.rulebook.html import PAPERS
from generator.words import plural


def plan(content: Content, out_dir: Path) -> list[Job]:
    return [
        Job(
            __name__,
            ruleset_id,
            out_dir / f"{ruleset_id}-rulebook-{paper}.pdf",
            (("paper", paper),),
        )
        for ruleset_id in content.rulesets
        for paper in PAPERS
    ]


def run(ruleset: Ruleset, job: Job) -> str:
    from generator.products.rulebook.write import write_rulebook

    pages = write_rulebook(ruleset, job.out, paper=job.option("paper"))
    return f"wrote {job.out} ({plural(pages, 'page')})"
