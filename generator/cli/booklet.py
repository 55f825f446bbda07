"""``towerpress booklet`` and ``towerpress check``: seeded solo booklets as JSON, and the
proof that one follows the rules."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from generator.cli.options import (
    MAX_DEPTH,
    SEED_HELP,
    PositiveInt,
    canonical_seed,
    content_option,
    engine_for,
    load,
)
from generator.engine.booklet import (
    DEFAULT_ODDS,
    SCHEMA,
    BookletRequest,
    check_document,
)
from generator.engine.family import family_of
from generator.engine.rng import MAX_SEED
from generator.errors import TowerpressError
from generator.findings import Finding
from generator.products.booklet.html_check import embedded_document, html_findings
from generator.products.booklet.pages import BOOKLET_PAPERS, booklet_paper
from generator.products.booklet.pdf_check import pdf_findings
from generator.products.booklet.product import BookletOptions, Format, write_booklet

MAX_COUNT = 10_000  # booklets in one run
MAX_ODDS = 1_000_000
MAX_BYTES = 64 * 2**20  # a booklet file: the largest made (999 floors) is under 8 MB
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@click.option("--seed", required=True, help=SEED_HELP)
@click.option("--count", type=PositiveInt(MAX_COUNT), default=1, show_default=True,
              help="Booklets to make, of seeds S, S+1, ... (S an integer when more than 1).")
@click.option("--floors", "depth", type=PositiveInt(MAX_DEPTH), default=None,
              help="Floors (levels, rooms) of the dungeon (default: the ruleset's own).")
@click.option("--profile", "profile_id", default=None,
              help="Rules profile (default: the ruleset's profile made for booklets).")
@click.option("--format", "fmt", type=click.Choice(["pdf", "json", "both", "html"]),
              default="both", show_default=True,
              help="What to write: the printed booklet, its JSON, or both; or (html) one "
                   "page holding the booklet for a phone.")
@click.option("--paper", type=click.Choice(list(BOOKLET_PAPERS)), default="a5",
              show_default=True, help="The booklet's pages (A5: an A4 sheet folded).")
@click.option("--impose", type=click.Choice(["saddle"]), default=None,
              help="Also write the PDF imposed for folding: two pages a side of A4 (A5 "
                   "pages) or Letter (half-letter pages) sheets, printed duplex.")
@click.option("--odds", "odds_runs", type=click.IntRange(0, MAX_ODDS), default=DEFAULT_ODDS,
              show_default=True, help="Plays of the dungeon for its odds (0: no odds).")
@click.option("-o", "--output", "out_dir", type=click.Path(path_type=Path, file_okay=False),
              default=Path("build/booklets"), show_default=True, help="Output folder.")
@content_option
def booklet(ruleset_id: str, seed: str, count: int, depth: int | None, profile_id: str | None,
            fmt: Format, paper: str, impose: str | None, odds_runs: int, out_dir: Path,
            content_dir: Path | None) -> None:
    """Pre-roll a solo dungeon as a gamebook: numbered sections, tapes instead of dice,
    and its odds; written as DIR/RULESET-SEED.pdf (A5 pages) and .json beside it."""
    options = BookletOptions(fmt, paper, impose == "saddle")
    if options.impose and fmt in ("json", "html"):
        raise click.UsageError("--impose saddle prints a PDF: use --format pdf or both")
    booklet_paper(paper, imposed=options.impose)  # a paper that does not fold fails now
    seeds = _seeds(seed, count)
    ruleset, _, family = engine_for(ruleset_id, content_dir, None)
    profile = ruleset.profile(profile_id or ruleset.info.booklet_profile)
    depth = depth or family.default_depth
    with click.progressbar(seeds, label="booklets", file=sys.stderr,
                           hidden=count == 1 or not sys.stderr.isatty()) as bar:
        for each in bar:
            request = BookletRequest(each, depth, odds_runs)
            stem = out_dir / f"{ruleset.id}-{file_seed(each)}"
            for line in write_booklet(ruleset, family, profile, request, options, stem):
                click.echo(line)


def _seeds(seed: str, count: int) -> list[str]:
    canonical_seed(seed)  # a bad seed fails before anything is made
    if count == 1:
        return [seed]
    if not canonical_seed(seed).startswith("int:"):
        raise click.BadParameter("--count above 1 needs an integer seed (S, S+1, ...)",
                                 param_hint="'--seed'")
    first = int(seed.strip())
    return [str(first + i) for i in range(count)]


def file_seed(seed: str) -> str:
    """The seed as a file name: itself when it is safe there, else its safe characters
    and a hash that tells it from other seeds written the same way."""
    safe = _UNSAFE.sub("_", seed)[:MAX_SEED]
    if safe == seed and not seed.startswith("."):
        return seed
    return f"{safe.lstrip('.')}-{hashlib.blake2b(seed.encode(), digest_size=4).hexdigest()}"


def read_booklet(path: Path) -> dict[str, Any]:
    """A booklet's JSON document: the file itself, or the document a booklet page for a
    phone (``.html``) embeds.

    Raises:
        TowerpressError: the file is missing, not a regular file, too large, not JSON (a
            page: with no document, or not JSON), or not of this program's booklet schema.
    """
    if not path.is_file():
        raise TowerpressError(f"{path}: no such booklet file")
    if path.stat().st_size > MAX_BYTES:
        raise TowerpressError(f"{path}: {path.stat().st_size:,} bytes, more than a booklet "
                              f"has (at most {MAX_BYTES:,})")
    try:
        document = json.loads(_json_text(path))
    except (ValueError, UnicodeDecodeError) as exc:
        raise TowerpressError(f"{path}: not JSON ({exc})") from None
    except RecursionError:
        raise TowerpressError(f"{path}: not a booklet (JSON nested too deep)") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise TowerpressError(f"{path}: not a TowerPress booklet of schema {SCHEMA}")
    return document


def _json_text(path: Path) -> str | bytes:
    if not _is_page(path):
        return path.read_bytes()
    text = embedded_document(path.read_bytes().decode("utf-8", errors="replace"))
    if text is None:
        raise TowerpressError(f"{path}: not a booklet page (it embeds no booklet document)")
    return text


def _is_page(path: Path) -> bool:
    return path.suffix.lower() in (".html", ".htm")


@click.command()
@click.argument("path", metavar="FILE.json|FILE.html",
                type=click.Path(path_type=Path, dir_okay=False))
@click.option("--pdf", "pdf", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="The booklet's PDF, to check the spread rule on (default: FILE.pdf "
                   "beside the JSON, when there is one).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@content_option
def check(path: Path, pdf: Path | None, as_json: bool, content_dir: Path | None) -> None:
    """Prove a booklet follows the rules: its schema, every derived value from its raw
    dice, every way on, its tapes, its regeneration from the seed, and, on its PDF, that
    no section shares a spread with one it leads to.  On a booklet page for a phone
    (FILE.html, whose document it reads), also that every way on is a link to its
    section.  Exit 1 when anything fails, listing every violation with its code and
    where."""
    document = read_booklet(path)
    ruleset_id = document.get("ruleset")
    content = load(content_dir)
    if not isinstance(ruleset_id, str) or ruleset_id not in content.rulesets:
        raise TowerpressError(f"{path}: a booklet of ruleset {ruleset_id!r}, which the content "
                              f"has not (expected one of: {', '.join(sorted(content.rulesets))})")
    ruleset = content.rulesets[ruleset_id]
    found = sorted(set(check_document(document, ruleset, family_of(ruleset))))
    # Not beside a page: a page holds the booklet as made, a PDF the booklet as laid out,
    # whose sections are numbered again.
    beside = path.with_suffix(".pdf")
    pdf = pdf or (beside if beside.is_file() and not _is_page(path) else None)
    readable = not any(f.code == "schema" for f in found)  # else its sections may be absent
    if pdf is not None and readable:
        if not pdf.is_file():
            raise TowerpressError(f"{pdf}: no such booklet PDF")
        found += pdf_findings(document, pdf)
    if _is_page(path) and readable:
        found += html_findings(document, path.read_text("utf-8", errors="replace"), str(path))
    _report(path, document, found, as_json, pdf)
    if found:
        sys.exit(1)


def _report(path: Path, document: dict[str, Any], found: list[Finding], as_json: bool,
            pdf: Path | None) -> None:
    if as_json:
        click.echo(json.dumps({"file": str(path), "pdf": str(pdf) if pdf else None,
                               "ok": not found,
                               "violations": [{"code": f.code, "where": f.where,
                                               "message": f.message} for f in found]},
                              ensure_ascii=False, indent=1))
    elif found:
        for finding in found:
            click.echo(f"{path}: {finding.code} at {finding.where}: {finding.message}")
        click.echo(f"{path}: {len(found)} violation{'s' * (len(found) != 1)}")
    else:
        click.echo(f"{path}: ok ({document['ruleset']}, seed {document['seed']}, "
                   f"{len(document['sections'])} sections, {len(document['tapes'])} tapes"
                   f"{', spread rule met in ' + str(pdf) if pdf else ''}"
                   f"{', every way on a link' if _is_page(path) else ''})")
