"""Products of this kind in ``towerpress build``: none yet."""

from __future__ import annotations

from pathlib import Path

from generator.build import Job
from generator.model.loader import Content, Ruleset


def plan(content: Content, out_dir: Path) -> list[Job]:
    return []


def run(ruleset: Ruleset, job: Job) -> str:
    raise ValueError(f"no such product: {job.out}")
