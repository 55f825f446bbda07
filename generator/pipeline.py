"""``towerpress build``: every product of every ruleset into the build folder.

Two phases (mkdocs, Pelican): the content is loaded and validated first and every
product is planned (:func:`prepare`); then the products are rendered
(:meth:`Plan.render`), independent ones in parallel worker processes (WeasyPrint is
imported in the workers).  :data:`PRODUCTS` is the list of products: adding one is its
module under ``generator/products/`` and one line here.

A product is rendered again unless its stamp in ``.inputs/`` says both that its inputs
are the same and that its files are the very bytes it wrote (:class:`Stamp`): a truncated,
emptied or edited PDF is made again.
"""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Any

from generator import __version__
from generator.errors import TowerpressError
from generator.model.cache import load_cached
from generator.model.digest import update_with_folder
from generator.model.loader import Content
from generator.products.base import Job, Product
from generator.products.booklet.product import BOOKLETS
from generator.products.cards.product import CARDS
from generator.products.checks import check_renders
from generator.products.rulebook.product import RULEBOOK
from generator.products.sheets.product import SHEETS
from generator.render.output import (
    Written,
    read_regular,
    recording,
    sha256_of,
    unwritable,
    write_atomic,
)
from generator.render.parallel import worker_pool
from generator.render.pdf import load_weasyprint
from generator.resources import PACKAGE, TEMPLATES
from generator.rulesets import FAMILIES

PRODUCTS: tuple[Product[Any], ...] = (RULEBOOK, CARDS, SHEETS, BOOKLETS)

STAMPS = ".inputs"  # the folder of the stamps, in the build folder


def _product(name: str) -> Product[Any]:
    return next(p for p in PRODUCTS if p.name == name)


def plan(content: Content, out_dir: Path) -> list[Job[Any]]:
    """Every product's files.

    Raises:
        TowerpressError: two products would be written to one path, or stamped in one file.
    """
    jobs = [job for product in PRODUCTS for job in product.plan(content, out_dir)]
    seen: set[Path] = set()
    stamps: set[Path] = set()
    for job in jobs:
        # A writer never writes one path twice (Pelican's Writer).
        if job.out in seen or stamp_path(out_dir, job) in stamps:
            raise TowerpressError(f"two products would be written to {job.out}")
        seen.add(job.out)
        stamps.add(stamp_path(out_dir, job))
    return jobs


FolderKey = tuple[Path, Path, tuple[str, ...]]


def input_hash(content: Content, job: Job[Any],
               folders: dict[FolderKey, str] | None = None) -> str:
    """A hash of everything a product is made from: its ruleset's content, the
    templates, the program itself and the job's options.  Same hash, same bytes.

    ``folders`` keeps each folder's hash for the next job of the same build: every job
    hashed the templates and the program again, half of a build with nothing to do.
    """
    folders = {} if folders is None else folders
    digest = hashlib.sha256(f"{__version__}\n{job.product}\n{job.options!r}\n".encode())
    root = content.ruleset(job.ruleset).root
    # The loader reads a link that stays inside the content folder (another ruleset's
    # file, say), so the hash does too; nothing outside the folder is read.
    for key in ((root, content.root, ("*",)), (TEMPLATES, TEMPLATES, ("*",)),
                (PACKAGE, PACKAGE, ("*.py",))):
        if key not in folders:
            part = hashlib.sha256()
            update_with_folder(part, *key)
            folders[key] = part.hexdigest()
        digest.update(f"{folders[key]}\n".encode())
    return digest.hexdigest()


def stamp_path(out_dir: Path, job: Job[Any]) -> Path:
    return out_dir / STAMPS / f"{job.out.name}.sha256"


@dataclass(frozen=True)
class Output:
    """One file a product wrote: its path in the build folder (``booklets/x.pdf``), the
    SHA-256 of its bytes, and its pages when it is a PDF."""

    name: str
    sha256: str
    pages: int | None


@dataclass(frozen=True)
class Stamp:
    """What a product was made from and what it wrote, as ``.inputs/NAME.sha256`` holds it::

        towerpress stamp 1
        inputs 5f1c...                       (input_hash)
        9a0b... 23 inverted-tower-rulebook-a4.pdf
        77de... - booklets/inverted-tower-1234.json

    an output's line being its SHA-256, its pages (``-`` for a file that is not a PDF) and
    its path in the build folder, in the order the product wrote them.
    """

    inputs: str
    outputs: tuple[Output, ...]

    HEADER = "towerpress stamp 1"
    LIMIT = 1 << 16  # bytes: a stamp of a product's few files is well under 1 KB

    def to_bytes(self) -> bytes:
        lines = [self.HEADER, f"inputs {self.inputs}"]
        lines += [f"{o.sha256} {'-' if o.pages is None else o.pages} {o.name}"
                  for o in self.outputs]
        return ("\n".join(lines) + "\n").encode()

    @classmethod
    def read(cls, path: Path) -> Stamp | None:
        """The stamp at ``path``; None when there is none or it is not one (not UTF-8,
        garbled, too large, a link or a device): the product is then rendered again."""
        data = read_regular(path, cls.LIMIT)
        try:
            return None if data is None else cls.parse(data.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            return None

    @classmethod
    def parse(cls, text: str) -> Stamp:
        """Raises ValueError: ``text`` is not a stamp."""
        header, inputs, *rows, end = text.split("\n")  # ValueError when fewer than three
        if header != cls.HEADER or not inputs.startswith("inputs ") or end:
            raise ValueError("not a stamp")
        return cls(_hex(inputs.removeprefix("inputs ")), tuple(_output(row) for row in rows))


def _hex(text: str) -> str:
    if len(text) != 64 or text.strip("0123456789abcdef"):
        raise ValueError(f"not a SHA-256: {text!r}")
    return text


def _output(row: str) -> Output:
    sha, pages, name = row.split(" ", 2)
    parts = PurePosixPath(name).parts
    # A stamp names files in the build folder only: never "/etc/x" nor "../x".
    if not parts or parts[0] == "/" or any(p in (".", "..") for p in parts) or "\\" in name:
        raise ValueError(f"not a name in the build folder: {name!r}")
    if pages != "-" and not (pages.isascii() and pages.isdigit() and len(pages) < 10):
        raise ValueError(f"not a number of pages: {pages!r}")
    return Output(name, _hex(sha), None if pages == "-" else int(pages))


def _folders_between(out_dir: Path, path: Path) -> Sequence[Path]:
    """The folders that ``path`` is in below ``out_dir``: ``booklets`` for
    ``out_dir/booklets/x.pdf``, none for ``out_dir/x.pdf``."""
    return path.parents[: len(path.parents) - len(out_dir.parents) - 1]


def _matches(out_dir: Path, stamp: Stamp) -> bool:
    """Whether every file of ``stamp`` is in the build folder with the bytes it had, none
    of them through a link."""
    for output in stamp.outputs:
        path = out_dir / output.name
        if any(folder.is_symlink() for folder in _folders_between(out_dir, path)):
            return False
        if sha256_of(path) != output.sha256:
            return False
    return True


@dataclass(frozen=True)
class Built:
    """One product after the build: its stamp's files, and the seconds its render took
    (None: it was unchanged, not rendered)."""

    job: Job[Any]
    outputs: tuple[Output, ...]
    seconds: float | None = None

    @property
    def rendered(self) -> bool:
        return self.seconds is not None


@dataclass(frozen=True)
class _Rendered:
    """What a worker sends back: the product's files and its seconds."""

    outputs: tuple[Output, ...]
    seconds: float


def _pages(data: bytes) -> int | None:
    import pypdf  # here, in the worker: a build with nothing to render never needs it

    try:
        return len(pypdf.PdfReader(io.BytesIO(data)).pages)
    except (pypdf.errors.PdfReadError, ValueError):
        return None


def _described(out_dir: Path, written: Written) -> Output:
    name = written.path.relative_to(out_dir).as_posix()
    pages = _pages(written.data) if written.path.suffix == ".pdf" else None
    return Output(name, hashlib.sha256(written.data).hexdigest(), pages)


def _run(content_root: str, out_dir: str, job: Job[Any]) -> _Rendered:
    start = time.perf_counter()
    # From the model cache: the parent loaded this content a moment ago (10 ms, not 100).
    ruleset = load_cached(Path(content_root), FAMILIES).ruleset(job.ruleset)
    with recording() as written:
        # The product's own line ("wrote x (23 pages)") gives way to the build's table.
        _product(job.product).write(ruleset, job.options, job.out)
    seconds = time.perf_counter() - start
    return _Rendered(tuple(_described(Path(out_dir), w) for w in written), seconds)


@dataclass(frozen=True)
class Plan:
    """A build's products, and the stamps of those that are unchanged."""

    content: Content
    out_dir: Path
    jobs: tuple[Job[Any], ...]
    hashes: Mapping[Path, str]  # each job's input hash, by its path
    kept: Mapping[Path, Stamp]  # the unchanged jobs' stamps, by their path

    @property
    def todo(self) -> list[Job[Any]]:
        return [job for job in self.jobs if job.out not in self.kept]

    @property
    def headline(self) -> str:
        return (f"content ok: {', '.join(self.content.rulesets)}; {len(self.todo)} of "
                f"{len(self.jobs)} products to render (the others are unchanged)")

    def unchanged(self) -> list[Built]:
        return [Built(job, self.kept[job.out].outputs) for job in self.jobs
                if job.out in self.kept]

    def render(self, workers: int = 2) -> Iterator[Built]:
        """Render every product to do, each yielded as it is finished, its stamp written.

        Raises:
            TowerpressError: a file cannot be written; a product cannot be rendered
                (RenderError), the others then stopped.
        """
        todo = self.todo
        if not todo:
            return
        load_weasyprint()  # before the workers fork, for them to inherit
        with worker_pool(workers) as pool:
            futures = {pool.submit(_run, str(self.content.root), str(self.out_dir), job): job
                       for job in todo}
            for future in as_completed(futures):
                job, done = futures[future], future.result()
                stamp = Stamp(self.hashes[job.out], done.outputs)
                write_atomic(stamp_path(self.out_dir, job), stamp.to_bytes())
                yield Built(job, done.outputs, done.seconds)


def _unlink_linked_folders(out_dir: Path, jobs: Iterable[Job[Any]]) -> None:
    """A link in place of a folder of the build (``.inputs``, ``booklets``) is removed, for
    the folder to be made anew: the build never writes through a link (issue 27).  The
    build folder itself is the user's choice, link or not."""
    folders = {out_dir / STAMPS}
    for job in jobs:
        folders.update(_folders_between(out_dir, job.out))
    for folder in sorted(folders, key=lambda f: len(f.parts)):
        if folder.is_symlink():
            try:
                folder.unlink()
            except OSError as exc:
                raise unwritable(folder, exc) from None


def prepare(content: Content, out_dir: Path, force: bool = False,
            only: Sequence[str] = ()) -> Plan:
    """Check the content as ``validate`` does, plan every product (those whose path in the
    build folder matches one of the patterns ``only``, if any), and find those whose stamp
    still holds (none with ``force``).

    Raises:
        ContentError: what ``validate`` finds (the prose, the characters), before any work.
        TowerpressError: two products would be written to one path; a pattern of ``only``
            matches no product; the build folder cannot be made; a link in it cannot be
            removed.
    """
    check_renders(content)
    jobs = _chosen(plan(content, out_dir), out_dir, only)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unwritable(out_dir, exc) from None
    _unlink_linked_folders(out_dir, jobs)
    folders: dict[FolderKey, str] = {}
    hashes = {job.out: input_hash(content, job, folders) for job in jobs}
    kept = {} if force else {job.out: stamp for job in jobs
                             if (stamp := _holding(out_dir, job, hashes[job.out])) is not None}
    return Plan(content, out_dir, jobs, hashes, kept)


def _chosen(jobs: Sequence[Job[Any]], out_dir: Path, only: Sequence[str]
            ) -> tuple[Job[Any], ...]:
    if not only:
        return tuple(jobs)
    names = {job.out: job.out.relative_to(out_dir).as_posix() for job in jobs}
    for pattern in only:
        if not any(fnmatchcase(name, pattern) for name in names.values()):
            raise TowerpressError(
                f"--only {pattern!r} matches none of the {len(jobs)} products' files "
                f"(expected a pattern such as '*-sheet-a4.pdf' or 'booklets/*')")
    return tuple(job for job in jobs
                 if any(fnmatchcase(names[job.out], pattern) for pattern in only))


def _holding(out_dir: Path, job: Job[Any], inputs: str) -> Stamp | None:
    """The job's stamp if it still holds: the same inputs, and its files, ``job.out``
    among them, with the bytes it wrote."""
    stamp = Stamp.read(stamp_path(out_dir, job))
    if stamp is None or stamp.inputs != inputs:
        return None
    if job.out.relative_to(out_dir).as_posix() not in {o.name for o in stamp.outputs}:
        return None
    return stamp if _matches(out_dir, stamp) else None
