"""The printed booklet's HTML, from its JSON document alone (issue 26): every number on its
pages is one the document holds, and the pages decide nothing of the game."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from markupsafe import Markup

from generator.model.common import RulesetInfo
from generator.products.booklet import maps
from generator.products.booklet.chart import survival_chart
from generator.products.booklet.layout import sections_mark
from generator.products.booklet.pages import BookletPaper
from generator.products.booklet.tapes import tape_blocks
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.svg import data_url, die_face
from generator.render.templating import render_template
from generator.words import plural

NOTE_LINE_MM = 7.0  # a blank page's ruled lines for notes


@dataclass(frozen=True)
class TapeView:
    """A tape as its page prints it: a title, its rows as pictures (tapes.py), and what to
    do when it runs out (or why it will not)."""

    title: str
    blocks: tuple[Markup, ...]
    fallback: str
    enough: str
    source: Mapping[str, Any]  # the tape as the JSON holds it
    parts: tuple[str, ...]
    notes: bool  # entries of several values, which a ruleset's page may say more of


class Pictures:
    """The SVGs a booklet's HTML names by URL (``picture:NAME``), drawn once each: a die
    face is one URL however often it is printed, and the HTML stays short (parsing it
    had cost WeasyPrint more than laying out the tapes)."""

    def __init__(self) -> None:
        self.svgs: dict[str, str] = {}

    def image(self, name: str, svg: str, css_class: str) -> Markup:
        self.svgs.setdefault(name, svg)
        return Markup('<img class="{}" src="picture:{}" alt="">').format(css_class, name)

    def face(self, value: int) -> Markup:
        """A die as the booklet draws it: a d6 face, or the number in a box past six."""
        if not 1 <= value <= 6:
            return Markup('<span class="number">{}</span>').format(value)
        return self.image(f"die-{value}.svg", _with_namespace(str(die_face(value))), "die")


def _with_namespace(svg: str) -> str:
    return svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)


class BookletContext(TypedDict):
    """What ``booklet/booklet.html`` and the rulesets' own pages read."""

    doc: Mapping[str, Any]
    info: RulesetInfo
    paper: str
    spec: BookletPaper
    authors: str
    font_faces: Markup
    serif: str
    sans: str
    chart: Markup | None
    chart_caption: str
    depth_words: str
    json_name: str
    sections_mark: str
    measuring: bool
    tapes: list[TapeView]
    log_pages: int
    notes_lines: str
    dice_of: Callable[[Mapping[str, Any]], list[tuple[str, list[int]]]]
    face: Callable[[int], Markup]
    level_map: Callable[[Mapping[str, Any]], Markup]
    blank_grid: Callable[[int, int], Markup]


def booklet_html(document: Mapping[str, Any], info: RulesetInfo, spec: BookletPaper, *,
                 json_name: str, log_pages: int, measuring: bool = False
                 ) -> tuple[str, dict[str, str]]:
    """The booklet's HTML on ``spec``'s pages, with ``log_pages`` empty pages where the
    log sheet's pages go (:mod:`generator.products.booklet.render`), and the pictures it
    names (:class:`Pictures`).  ``measuring``: its front pages and sections only."""
    odds = document["odds"]
    pictures = Pictures()
    html = render_template("booklet/booklet.html", BookletContext(
        doc=document,
        info=info,
        paper=spec.id,
        spec=spec,
        authors=", ".join(dict.fromkeys(c.author for c in info.credits)),
        font_faces=font_face_css(),
        serif=SERIF,
        sans=SANS,
        chart=survival_chart(odds) if odds else None,
        chart_caption=chart_caption(odds) if odds else "",
        depth_words=depth_words(document, odds),
        json_name=json_name,
        sections_mark=sections_mark(document),
        measuring=measuring,
        tapes=[_tape(tape, spec, index, pictures)
               for index, tape in enumerate(document["tapes"], start=1)],
        log_pages=log_pages,
        notes_lines=_note_lines(spec),
        dice_of=dice_of,
        face=pictures.face,
        level_map=maps.level_map,
        blank_grid=maps.blank_grid,
    ))
    return html, pictures.svgs


def depth_words(document: Mapping[str, Any], odds: Mapping[str, Any] | None) -> str:
    name = odds["profile"]["depth_name"] if odds else "floor"
    return plural(document["depth"], name)


def chart_caption(odds: Mapping[str, Any]) -> str:
    runs = odds["runs"]
    return (f"How far {runs:,} plays of this very dungeon came, each with fresh dice, "
            "played by the reference player")


def dice_of(dice: Mapping[str, Any]) -> list[tuple[str, list[int]]]:
    """A section's raw dice as its foot prints them: (name, values), in the JSON's order,
    leaving out what was not rolled (an empty list, null)."""
    return [(name.replace("_", " "), values) for name, value in dice.items()
            if (values := list(_values(value)))]


def _values(value: Any) -> Iterator[int]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _values(item)
    elif isinstance(value, Mapping) and "die" in value:
        yield from _values(value["die"])


def _tape(tape: Mapping[str, Any], spec: BookletPaper, index: int, pictures: Pictures
          ) -> TapeView:
    return TapeView(
        title=tape_title(tape),
        blocks=tuple(pictures.image(f"tape-{index}-{part}.svg", svg, "tape-block")
                     for part, svg in enumerate(tape_blocks(tape, spec.body_width_mm), 1)),
        fallback=tape["fallback"] or "",
        enough=tape_enough(tape),
        source=tape, parts=tuple(tape["parts"]), notes=len(tape["parts"]) > 1)


def tape_title(tape: Mapping[str, Any]) -> str:
    """"Floor 1: combat tape"."""
    return f"{tape['place'][:1].upper()}{tape['place'][1:]}: {tape['name']} tape"


def tape_enough(tape: Mapping[str, Any]) -> str:
    """What a tape that never runs out says in place of a fallback rule."""
    return (f"{plural(len(tape['entries']), 'entry')}: enough for the longest play the "
            f"rules allow (at most {tape['bound']:,}).")


def _note_lines(spec: BookletPaper) -> str:
    """Ruled lines filling a page's text area, for a page left blank before a left page."""
    lines = _lines(spec.body_height_mm)
    return data_url(
        f'<svg viewBox="0 0 {spec.body_width_mm} {spec.body_height_mm}" '
        f'width="{spec.body_width_mm}mm" height="{spec.body_height_mm}mm">'
        + "".join(f'<line x1="0" y1="{y}" x2="{spec.body_width_mm}" y2="{y}" '
                  'stroke="#999" stroke-width="0.2"/>' for y in lines) + "</svg>")


def _lines(height_mm: float) -> Sequence[float]:
    count = int(height_mm // NOTE_LINE_MM)
    return [round((i + 1) * NOTE_LINE_MM, 2) for i in range(count)]
