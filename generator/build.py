"""``towerpress build``: every product of every ruleset into the build folder.

Two phases (mkdocs, Pelican): the content is loaded and validated first and every
product is planned; then the products are rendered, independent ones in parallel
worker processes (WeasyPrint is imported in the workers).

Each kind of product has a module with ``plan(content, out_dir) -> list[Job]`` and
``run(ruleset, job) -> str`` (a line for the log).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from generator.errors import TowerpressError
from generator.model.loader import Content, Ruleset, load_content

PRODUCT_MODULES = (
    "generator.render.rulebook_build",
    "generator.render.cards_build",
    "generator.render.sheets_build",
)


@dataclass(frozen=True)
class Job:
    """One file to write: which module renders it, for which ruleset, with which options."""

    module: str
    ruleset: str
    out: Path
    options: tuple[tuple[str, Any], ...] = field(default=())

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)


def _module(name: str) -> Any:
    return importlib.import_module(name)


def plan(content: Content, out_dir: Path) -> list[Job]:
    jobs: list[Job] = []
    for name in PRODUCT_MODULES:
        planner = cast(Callable[[Content, Path], list[Job]], _module(name).plan)
        jobs.extend(planner(content, out_dir))
    seen: set[Path] = set()
    for job in jobs:
        # A writer never writes one path twice (Pelican's Writer).
        if job.out in seen:
            raise TowerpressError(f"two products would be written to {job.out}")
        seen.add(job.out)
    return jobs


def _run(content_root: str, job: Job) -> str:
    ruleset: Ruleset = load_content(Path(content_root)).ruleset(job.ruleset)
    runner = cast(Callable[[Ruleset, Job], str], _module(job.module).run)
    return runner(ruleset, job)


def build_all(content: Content, out_dir: Path, workers: int = 2) -> Iterator[str]:
    jobs = plan(content, out_dir)
    yield f"content ok: {', '.join(content.rulesets)}; {len(jobs)} products to render"
    out_dir.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_run, str(content.root), job) for job in jobs]
        for future in futures:
            yield future.result()
