"""Rules prose to HTML: Markdown with the data directives, and nothing unsafe.

Raw HTML in prose is refused (a user's content must not smuggle stylesheets or
images in), images must lie inside the content folder, and the directives of
:mod:`generator.model.prose` are replaced by data from the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup

from generator.errors import RenderError
from generator.model.prose import (
    DIRECTIVE,
    FIGURE_LINE,
    TABLE_LINE,
    directives,
    format_value,
    lookup_value,
)
from generator.render.capitals import mark_capitals
from generator.render.folders import path_is_inside
from generator.render.pictures import PictureProblem, picture_url

_MARK = "\u2063RULING:{}\u2063"  # invisible separator: never typed by an author
_MARK_RE = re.compile("(\u2060?)\u2063RULING:([A-Z]+-\\d+)\u2063")
# The space before a ruling mark that follows text: like a footnote's number, the mark
# stays on the line of the words it qualifies, never alone at the start of the next. The
# space becomes a word joiner and the mark's margin ("tied" in book.css): a no-break space
# at the end of a text, right before an element, makes WeasyPrint 70 break that line
# after its first word when the space alone does not fit.
_SPACE_BEFORE_MARK = re.compile(
    "(?:(?<=[^>\\s])|(?<=</strong>)|(?<=</em>)|(?<=</span>))[ \\n]+(?=\u2063RULING:)"
)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def _ruling_ref(match: re.Match[str]) -> str:
    tied = " tied" if match.group(1) else ""
    ruling = match.group(2)
    return f'{match.group(1)}<a class="ruling-ref{tied}" href="#ruling-{ruling}">{ruling}</a>'


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "section"


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class ProseBlock:
    """Rendered HTML, the name of a table to embed at this point, or both: a short
    paragraph that leads into a table, which the page keeps together with it."""

    html: Markup | None = None
    table: str | None = None

    @property
    def ends_in_heading(self) -> bool:
        """Prose whose last element is a heading: the page must not break after it."""
        return self.table is None and self.html is not None and bool(
            _ENDS_IN_HEADING.search(self.html)
        )


_ENDS_IN_HEADING = re.compile(r"</h[1-6]>\s*\Z")


@dataclass(frozen=True)
class Figures:
    """What ``{{ figure: NAME seed=N }}`` may draw (issue 28): each name's drawing, made
    from a seed (generator/products/rulebook/figures.py), and the ruleset's files as read
    (``Ruleset.sources``), from which a directive's line in its file is told."""

    makers: Mapping[str, Callable[[str], Markup]] = field(default_factory=dict)
    sources: Mapping[str, Any] = field(default_factory=dict)

    def line(self, file: str, name: str) -> int | None:
        """The line of ``file`` (as a finding names it) where figure ``name`` is asked
        for; None when the file is not among the sources."""
        for path, text in self.sources.items():
            if isinstance(text, str) and file.replace("\\", "/").endswith("/" + path):
                return next((d.line for d in directives(text)
                             if d.kind == "figure" and d.arg == name), None)
        return None

LEAD_IN_MAX = 320  # characters: a longer paragraph may be split from its table
MAX_NESTING = 40  # levels of elements in a block of prose, or of blocks in one another


class ProseRenderer:
    """Renders one ruleset's chapters; knows its data and its content folder."""

    def __init__(
        self, raw: Mapping[str, Any], content_root: Path, alt: Callable[[str], bool] | None = None,
        figures: Figures | None = None,
    ):
        self.raw = raw
        self.alt = alt
        self.figures = figures or Figures()
        self.content_root = content_root.resolve()
        self.md = MarkdownIt("commonmark", {"html": True, "typographer": True})
        self.md.enable(["table", "replacements", "smartquotes"])
        # markdown-it binds each rule to its renderer, so the rules are plain functions
        # of (renderer, tokens, idx, options, env) that close over this object.
        # Every destination reaches the rules below, which refuse what a book must not
        # hold with a line naming it (markdown-it would print a file: link as plain text).
        self.md.validateLink = lambda url: True  # type: ignore[method-assign]
        self.md.add_render_rule("image", lambda _r, *a: self._image(*a))
        self.md.add_render_rule("link_open", lambda _r, *a: self._link_open(*a))
        self.md.add_render_rule("heading_open", lambda _r, *a: self._heading_open(*a))
        self.md.add_render_rule("html_block", lambda _r, *a: self._refuse_html(*a))
        self.md.add_render_rule("html_inline", lambda _r, *a: self._refuse_html(*a))
        self.md.add_render_rule("text", lambda _r, *a: self._text(*a))
        self.md.add_render_rule("ordered_list_open", lambda _r, *a: self._ordered_list(*a))

    # -- render rules ---------------------------------------------------------------

    def _refuse_html(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        snippet = tokens[idx].content.strip().splitlines()[0][:60]
        raise RenderError(f"{env['file']}: raw HTML is not allowed in rules prose: {snippet!r}")

    def _text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return mark_capitals(escapeHtml(tokens[idx].content))

    def _image(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        src = str(token.attrGet("src") or "")
        parts = urlsplit(src)
        if parts.scheme or parts.netloc:
            raise RenderError(
                f"{env['file']}: refused image {src!r}: only files inside the content folder"
            )
        # markdown-it has percent-encoded the name ("my%20map.png").
        try:
            path = (Path(env["dir"]) / unquote(parts.path)).resolve()
            usable = path_is_inside(path, [self.content_root]) and path.is_file()
        except (OSError, ValueError, RuntimeError):  # a NUL, a name too long, a loop
            usable = False
        if not usable:
            raise RenderError(
                f"{env['file']}: refused image {src!r}: not a file inside the content folder"
            )
        try:
            # Named by its bytes: a file: URL put the folder's path into the PDF (pictures.py).
            token.attrSet("src", picture_url(path))
        except PictureProblem as exc:
            raise RenderError(f"{env['file']}: cannot use image {src!r}: {exc}") from None
        renderer: RendererHTML = self.md.renderer  # type: ignore[assignment]
        return renderer.image(tokens, idx, options, env)

    def _link_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        # A relative link would be resolved against the templates' file: URL, and a reader's
        # click would open a file of their own machine (or a share of another's).
        href = str(tokens[idx].attrGet("href") or "")
        parts = urlsplit(href)
        web = parts.scheme in ("http", "https") and bool(parts.netloc)
        mail = parts.scheme == "mailto" and bool(parts.path)
        here = href.startswith("#") and len(href) > 1
        if not (web or mail or here):
            raise RenderError(
                f"{env['file']}: refused link {href!r}: expected a web address (https://...), "
                "an e-mail address (mailto:...) or a place in this book (#a-heading, #a-table, "
                "#IT-07)"
            )
        renderer: RendererHTML = self.md.renderer  # type: ignore[assignment]
        return renderer.renderToken(tokens, idx, options, env)

    def _ordered_list(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        # WeasyPrint reads <ol start> only as a presentational hint, which we leave off:
        # a list that starts at 2 ("2. Your character") sets the counter itself.
        token = tokens[idx]
        start = token.attrGet("start")
        if start is not None and int(start) != 1:
            token.attrSet("style", f"counter-reset: list-item {int(start) - 1}")
        renderer: RendererHTML = self.md.renderer  # type: ignore[assignment]
        return renderer.renderToken(tokens, idx, options, env)

    def _heading_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        token = tokens[idx]
        text = tokens[idx + 1].content
        anchor = f"{env['slug']}--{slugify(text)}"
        used: set[str] = env["anchors"]
        base, n = anchor, 2
        while anchor in used:
            anchor, n = f"{base}-{n}", n + 1
        used.add(anchor)
        level = int(token.tag[1])
        env["headings"].append(Heading(level, _MARK_RE.sub(r"\2", text), anchor))
        token.attrSet("id", anchor)
        renderer: RendererHTML = self.md.renderer  # type: ignore[assignment]
        return renderer.renderToken(tokens, idx, options, env)

    # -- directives -------------------------------------------------------------------

    def _inline_directives(self, text: str, file: str) -> str:
        def replace(m: re.Match[str]) -> str:
            kind, arg = m.group(1), m.group(2)
            if kind == "value":
                try:
                    value = format_value(lookup_value(self.raw, arg, self.alt))
                except KeyError as exc:
                    raise RenderError(
                        f"{file}: value {arg!r} does not resolve: {exc.args[0]}"
                    ) from None
                return _MD_SPECIAL.sub(r"\\\1", value)
            if kind == "ruling":
                return _MARK.format(arg)
            raise RenderError(f"{file}: directive {m.group(0)!r} cannot be used inside a paragraph")

        return DIRECTIVE.sub(replace, text)

    def _figure(self, name: str, seed: str | None, file: str) -> Markup:
        """The block of ``{{ figure: NAME seed=N }}``: the figure as its maker draws it.

        Raises:
            RenderError: the name is none of the family's figures, or the seed is missing
                (generator.model.prose reports that first), naming the file and line."""
        line = self.figures.line(file, name)
        where = f"{file}: line {line}" if line is not None else file
        maker = self.figures.makers.get(name)
        if maker is None:
            known = ", ".join(sorted(self.figures.makers)) or "none: this ruleset has no figures"
            raise RenderError(f"{where}: unknown figure {name!r} (expected one of: {known})")
        if not seed:
            raise RenderError(f"{where}: figure {name!r} has no seed (expected seed=N)")
        return maker(seed)

    def render(
        self, source: str, *, file: str, folder: Path, slug: str, anchors: set[str]
    ) -> tuple[list[ProseBlock], list[Heading]]:
        """Render a chapter body; returns its blocks and its headings (for the outline)."""
        headings: list[Heading] = []
        env = {
            "file": file,
            "dir": str(folder),
            "slug": slug,
            "anchors": anchors,
            "headings": headings,
        }
        blocks: list[ProseBlock] = []
        pending: list[str] = []

        def render(lines: list[str]) -> Markup:
            text = self._inline_directives("\n".join(lines), file)
            tokens = self.md.parse(text, env)
            depth = max((t.level for block in tokens for t in [block, *(block.children or [])]),
                        default=0)
            if depth > MAX_NESTING:
                # WeasyPrint lays out nested elements by recursion, and 500 emphases
                # overflowed it.
                raise RenderError(f"{file}: emphasis, links or lists nested {depth} deep "
                                  f"(expected at most {MAX_NESTING})")
            rendered = self.md.renderer.render(tokens, self.md.options, env)
            html = _SPACE_BEFORE_MARK.sub("\u2060", rendered)
            html = _MARK_RE.sub(_ruling_ref, html)
            return Markup(html)

        def flush(table: str | None = None, figure: Callable[[], Markup] | None = None
                  ) -> None:
            lines = list(pending)
            pending.clear()
            while lines and not lines[-1].strip():
                lines.pop()
            lead: list[str] = []
            if (table is not None or figure is not None) and lines:
                # The last paragraph, if short and plain, travels with the table or figure.
                start = max((i for i, line in enumerate(lines) if not line.strip()), default=-1)
                last = lines[start + 1 :]
                plain = last and not re.match(r"\s*([#>*+|-]|\d+[.)]\s)", last[0])
                if plain and sum(len(line) for line in last) <= LEAD_IN_MAX:
                    lead, lines = last, lines[: start + 1]
            if any(line.strip() for line in lines):
                blocks.append(ProseBlock(html=render(lines)))
            if table is not None:
                blocks.append(ProseBlock(html=render(lead) if lead else None, table=table))
            if figure is not None:
                drawn = figure()
                blocks.append(ProseBlock(html=Markup('<div class="figure-lead">{}{}</div>')
                                         .format(render(lead), drawn) if lead else drawn))

        for line in source.splitlines():
            m = TABLE_LINE.match(line)
            figure = FIGURE_LINE.match(line)
            if m:
                flush(m.group(1))
            elif figure:
                flush(figure=partial(self._figure, figure.group(1), figure.group(2), file))
            else:
                pending.append(line)
        flush()
        return blocks, headings
