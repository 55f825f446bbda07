"""``towerpress build``: every product of every ruleset into the build folder.

Two phases (mkdocs, Pelican): the content is loaded and validated first and every
product is planned; then the products are rendered, independent ones in parallel
worker processes (WeasyPrint is imported in the workers).  :data:`PRODUCTS` is the list
of products: adding one is its module under ``generator/products/`` and one line here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator import __version__
from generator.errors import TowerpressError
from generator.model.digest import update_with_folder
from generator.model.loader import Content
from generator.products.base import Job, Product
from generator.products.booklet.product import BOOKLETS
from generator.products.cards.product import CARDS
from generator.products.checks import check_renders
from generator.products.rulebook.product import RULEBOOK
from generator.products.sheets.product import SHEETS
from generator.render.output import unwritable, write_atomic
from generator.render.parallel import worker_pool
from generator.render.pdf import load_weasyprint
from generator.resources import PACKAGE, TEMPLATES
from generator.rulesets import load_content

PRODUCTS: tuple[Product[Any], ...] = (RULEBOOK, CARDS, SHEETS, BOOKLETS)


def _product(name: str) -> Product[Any]:
    return next(p for p in PRODUCTS if p.name == name)


def plan(content: Content, out_dir: Path) -> list[Job[Any]]:
    jobs = [job for product in PRODUCTS for job in product.plan(content, out_dir)]
    seen: set[Path] = set()
    for job in jobs:
        # A writer never writes one path twice (Pelican's Writer).
        if job.out in seen:
            raise TowerpressError(f"two products would be written to {job.out}")
        seen.add(job.out)
    return jobs


def _run(content_root: str, job: Job[Any]) -> str:
    ruleset = load_content(Path(content_root)).ruleset(job.ruleset)
    return _product(job.product).write(ruleset, job.options, job.out)


def input_hash(content: Content, job: Job[Any]) -> str:
    """A hash of everything a product is made from: its ruleset's content, the
    templates, the program itself and the job's options.  Same hash, same bytes."""
    digest = hashlib.sha256(f"{__version__}\n{job.product}\n{job.options!r}\n".encode())
    folder = content.ruleset(job.ruleset).root
    # The loader reads a link that stays inside the content folder (another ruleset's
    # file, say), so the hash does too; nothing outside the folder is read.
    for base, inside, patterns in ((folder, content.root, ["*"]), (TEMPLATES, TEMPLATES, ["*"]),
                                   (PACKAGE, PACKAGE, ["*.py"])):
        update_with_folder(digest, base, inside, patterns)
    return digest.hexdigest()


def _stamp(out_dir: Path, job: Job[Any]) -> Path:
    return out_dir / ".inputs" / f"{job.out.name}.sha256"


def build_all(
    content: Content, out_dir: Path, workers: int = 2, force: bool = False
) -> Iterator[str]:
    """Render every product whose inputs changed since it was last written.

    Raises:
        ContentError: what ``validate`` finds (the prose, the characters), before any work.
    """
    check_renders(content)
    jobs = plan(content, out_dir)
    hashes = {job.out: input_hash(content, job) for job in jobs}
    todo = [
        job
        for job in jobs
        if force
        or not job.out.is_file()
        or not _stamp(out_dir, job).is_file()
        or _stamp(out_dir, job).read_text() != hashes[job.out]
    ]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unwritable(out_dir, exc) from None
    yield (
        f"content ok: {', '.join(content.rulesets)}; {len(todo)} of {len(jobs)} products "
        "to render (the others are unchanged)"
    )
    if todo:
        load_weasyprint()  # before the workers fork, for them to inherit
    with worker_pool(workers) as pool:
        futures = [(job, pool.submit(_run, str(content.root), job)) for job in todo]
        for job, future in futures:
            line = future.result()
            write_atomic(_stamp(out_dir, job), hashes[job.out].encode())
            yield line
