"""The booklet as one HTML page for a phone (issue 29): the same booklet as the PDF, from
its JSON document alone, every picture and font inside the file, one section on screen at
a time, and tapes whose boxes cross off with a tap.  Like the printed pages
(:mod:`generator.products.booklet.html`), it decides nothing of the game."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from markupsafe import Markup

from generator.model.common import RulesetInfo
from generator.model.loader import Ruleset
from generator.products.booklet import maps
from generator.products.booklet.chart import survival_chart
from generator.products.booklet.html import (
    chart_caption,
    depth_words,
    dice_of,
    tape_enough,
    tape_title,
)
from generator.render.fonts import SANS, SERIF, inline_font_face_css
from generator.render.svg import data_url, die_face
from generator.render.templating import render_template

JSON_ID = "booklet-json"  # the <script> holding the document, which ``check`` reads
FONTS_MARK = "/* the page's fonts */"
# The faces screen.css and the rulesets' stylesheets set text in; a browser makes up
# the rare others (a bold italic) from these.
SCREEN_FACES = frozenset({(SERIF, 400, False), (SERIF, 400, True), (SERIF, 700, False),
                          (SANS, 400, False), (SANS, 600, False), (SANS, 700, False)})
# An inline SVG is in the SVG namespace by the HTML parser's rules: the attribute that
# names it only puts a URL in a page that must name none.
_SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'
_NOT_TEXT = re.compile(r"<(style|script)\b.*?</\1>|<[^>]*>", re.DOTALL)


@dataclass(frozen=True)
class ScreenTape:
    """A tape as its screen shows it: a box to tap for each entry, and what each entry
    brings where the ruleset's page says so (``own.tape_note``)."""

    index: int
    title: str
    fallback: str
    enough: str
    source: Mapping[str, Any]
    notes: bool


class ScreenContext(TypedDict):
    """What ``booklet/screen.html`` and the rulesets' own pages read."""

    doc: Mapping[str, Any]
    info: RulesetInfo
    paper: str
    authors: str
    serif: str
    sans: str
    font_faces: Markup
    faces_css: Markup
    chart: Markup | None
    chart_caption: str
    depth_words: str
    json_name: str
    storage_key: str
    json_id: str
    document_json: Markup
    tapes: list[ScreenTape]
    dice_of: Callable[[Mapping[str, Any]], list[tuple[str, list[int]]]]
    face: Callable[..., Markup]  # (value, dice=True)
    level_map: Callable[[Mapping[str, Any]], Markup]
    blank_grid: Callable[[int, int], Markup]


def screen_html(ruleset: Ruleset | RulesetInfo, document: Mapping[str, Any], *,
                json_name: str = "this page") -> str:
    """The booklet ``document`` (as :func:`generator.engine.booklet.make_booklet` returns
    it, laid out or not) as one self-contained HTML page; ``json_name`` is how its "how to
    play" names the file to check.  The same document gives the same bytes."""
    info = ruleset.info if isinstance(ruleset, Ruleset) else ruleset
    odds = document["odds"]
    page = render_template("booklet/screen.html", ScreenContext(
        doc=document,
        info=info,
        paper="screen",
        authors=", ".join(dict.fromkeys(c.author for c in info.credits)),
        serif=SERIF,
        sans=SANS,
        font_faces=Markup(FONTS_MARK),
        faces_css=_faces_css(),
        chart=survival_chart(odds) if odds else None,
        chart_caption=chart_caption(odds) if odds else "",
        depth_words=depth_words(document, odds),
        json_name=json_name,
        storage_key=storage_key(document),
        json_id=JSON_ID,
        document_json=embedded_json(document),
        tapes=[_tape(tape, index) for index, tape in enumerate(document["tapes"], start=1)],
        dice_of=dice_of,
        face=face,
        level_map=maps.level_map,
        blank_grid=maps.blank_grid,
    )).replace(_SVG_NAMESPACE, "")
    return page.replace(FONTS_MARK, inline_font_face_css(_text(page), SCREEN_FACES), 1)


def storage_key(document: Mapping[str, Any]) -> str:
    """Where the page keeps the boxes crossed off: one key a booklet (ruleset, seed and
    content), so that two booklets in one browser never share their marks."""
    return (f"towerpress:{document['ruleset']}:{document['seed']}:"
            f"{document['content_hash'][:16]}")


def embedded_json(document: Mapping[str, Any]) -> Markup:
    """The document for a ``<script type="application/json">``: every ``<`` escaped as
    JSON may escape it, so no text of the dungeon can end the script early."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c"))


def face(value: int, dice: bool = True) -> Markup:
    """A die as the page draws it: a d6 face (screen.css's picture of it, the number
    for a reader that reads the page aloud), or the number in a box past six or, not
    ``dice``, always (a tape of numbers past six: the printed tape's rule, tapes.py)."""
    css_class = f"die f{value}" if dice and 1 <= value <= 6 else "die number"
    return Markup('<i class="{}">{}</i>').format(css_class, value)


def _faces_css() -> Markup:
    """The six die faces, each drawn once, as the pictures of ``.f1`` to ``.f6``."""
    return Markup("\n".join(
        f'.f{value} {{ background-image: url("{data_url(str(die_face(value)))}"); }}'
        for value in range(1, 7)))


def _tape(tape: Mapping[str, Any], index: int) -> ScreenTape:
    return ScreenTape(index=index, title=tape_title(tape), fallback=tape["fallback"] or "",
                      enough=tape_enough(tape), source=tape, notes=len(tape["parts"]) > 1)


def _text(page: str) -> str:
    """The characters the page sets in its fonts: its text, without tags, styles and
    scripts (whose own characters are ASCII, which every face keeps anyway)."""
    ascii_printable = "".join(map(chr, range(0x20, 0x7F)))
    return ascii_printable + html.unescape(_NOT_TEXT.sub("", page))
