"""``towerpress build``: every product of every ruleset into the build folder.

Two phases (mkdocs, Pelican): the content is loaded and validated first, then the
products are rendered, independent ones in parallel worker processes.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.model.loader import Content, load_content


@dataclass(frozen=True)
class Job:
    kind: str
    ruleset: str
    paper: str
    out: Path


def plan(content: Content, out_dir: Path) -> list[Job]:
    jobs: list[Job] = []
    for ruleset_id in content.rulesets:
        for paper in ("a4", "letter", "a5"):
            jobs.append(
                Job("rulebook", ruleset_id, paper, out_dir / f"{ruleset_id}-rulebook-{paper}.pdf")
            )
    seen: set[Path] = set()
    for job in jobs:
        # A writer never writes one path twice (Pelican's Writer).
        if job.out in seen:
            raise RuntimeError(f"two products would be written to {job.out}")
        seen.add(job.out)
    return jobs


def _run(content_root: str, job: Job) -> str:
    # Runs in a worker: WeasyPrint is imported here, not in the parent.
    from generator.render.products import write_rulebook

    content = load_content(Path(content_root))
    ruleset = content.ruleset(job.ruleset)
    pages = write_rulebook(ruleset, job.out, paper=job.paper)
    return f"wrote {job.out} ({pages} pages)"


def build_all(content: Content, out_dir: Path, workers: int = 2) -> Iterator[str]:
    jobs = plan(content, out_dir)
    yield f"content ok: {', '.join(content.rulesets)}; {len(jobs)} products to render"
    out_dir.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_run, str(content.root), job) for job in jobs]
        for future in futures:
            yield future.result()
