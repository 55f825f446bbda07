"""What a worker of ``towerpress serve`` does with one request: runs the product's command
as a person would type it, in a folder of its own, and draws the first pages as PNG.

The command is the command line's own (its checks, its messages, its file names), run in
this process: the page says what the terminal would have said, word for word.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from generator.cli.main import cli, internal_line, usage_line
from generator.errors import TowerpressError

PREVIEW_PAGES = 3  # the first pages a product page shows
PREVIEW_WIDTH = 720  # pixels across a preview: sharp at the page's 360 px on a phone too


@dataclass(frozen=True)
class Task:
    """A product's command, its arguments (what follows ``towerpress PRODUCT``), the content
    folder (None: the bundled one) and the empty folder it runs in."""

    product: str
    argv: tuple[str, ...]
    content_dir: str | None
    folder: str


@dataclass(frozen=True)
class Outcome:
    """What came of a task: the command's exit code and the lines it printed (an error's
    line when it failed), the files it wrote (names in the task's folder, PDFs first), the
    main PDF's pages, the previews drawn (``preview-N.png``), the booklet's odds chart
    (SVG markup, or "") and the seconds it took."""

    code: int
    lines: tuple[str, ...]
    files: tuple[str, ...] = ()
    pages: int = 0
    previews: int = 0
    chart: str = ""
    seconds: float = 0.0


def run(task: Task) -> Outcome:
    """Run ``task`` in its folder (made here): the command writes where a person's would,
    ``build/...`` under it, so its files keep the command line's names."""
    start = time.perf_counter()
    folder = Path(task.folder)
    folder.mkdir()
    content = ["--content", task.content_dir] if task.content_dir else []
    with _inside(folder):
        code, lines = command([task.product, *task.argv, *content])
    if code:
        return Outcome(code, lines, seconds=time.perf_counter() - start)
    files = _written(folder)
    chart = _booklet_extras(task, folder, files) if task.product == "booklet" else ""
    files = _written(folder)
    pages, previews = draw_previews(folder / files[0], folder, PREVIEW_PAGES)
    return Outcome(0, lines, files, pages, previews, chart, time.perf_counter() - start)


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    # A worker runs one task at a time: its working folder is the task's while it runs.
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def command(argv: Sequence[str]) -> tuple[int, tuple[str, ...]]:
    """``towerpress ARGV`` in this process: its exit code and what it printed (on failure,
    the one line ``towerpress`` prints for that failure)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.main(args=list(argv), prog_name="towerpress", standalone_mode=False)
        except TowerpressError as exc:
            exc.show()
            code = exc.exit_code
        except click.UsageError as exc:
            click.echo(usage_line(exc), err=True)
            code = exc.exit_code
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
        except Exception as exc:  # a bug: said as the command line says it
            click.echo(internal_line(exc, "the options you chose"), err=True)
            code = 1
    text = err.getvalue() if code else out.getvalue()
    return code, tuple(line for line in text.splitlines() if line)


def _written(folder: Path) -> tuple[str, ...]:
    """The files under ``folder``, the PDFs first (the first is the one to preview)."""
    names = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
             and not p.name.startswith(("preview-", "."))]
    return tuple(sorted(names, key=lambda n: (not n.endswith(".pdf"), "-saddle" in n, n)))


def _booklet_extras(task: Task, folder: Path, files: Sequence[str]) -> str:
    """Beside a booklet's PDF and JSON: its HTML for a phone, made from that JSON (laid
    out for the PDF: the same section numbers); returns the cover's odds chart, for the
    page to show before it is printed."""
    from generator.cli.options import load
    from generator.products.booklet.chart import survival_chart
    from generator.products.booklet.screen import screen_html

    path = folder / next(n for n in files if n.endswith(".json"))
    document = json.loads(path.read_bytes())
    ruleset = load(Path(task.content_dir) if task.content_dir else None).ruleset(task.argv[0])
    page = screen_html(ruleset, document, json_name=path.with_suffix(".html").name)
    path.with_suffix(".html").write_text(page, encoding="utf-8")
    return str(survival_chart(document["odds"])) if document["odds"] else ""


def draw_previews(pdf: Path, folder: Path, count: int) -> tuple[int, int]:
    """The first ``count`` pages of ``pdf`` as ``folder/preview-N.png``; returns the PDF's
    pages and the previews drawn."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        drawn = min(count, len(document))
        for index in range(drawn):
            page = document[index]
            image = page.render(scale=PREVIEW_WIDTH / page.get_width()).to_pil()
            image.save(folder / f"preview-{index + 1}.png", optimize=False)
            page.close()
        return len(document), drawn
    finally:
        document.close()


def ruleset_page(content_dir: str | None, ruleset_id: str) -> dict[str, Any]:
    """The ruleset page's view (:func:`generator.web.profiles.ruleset_view`), made here."""
    from generator.cli.options import load
    from generator.web.profiles import ruleset_view

    return ruleset_view(load(Path(content_dir) if content_dir else None).ruleset(ruleset_id))
