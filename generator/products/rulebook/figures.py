"""The rulebook's figures: worked examples the engine plays, drawn (issue 28).

A chapter asks for one with ``{{ figure: NAME seed=N }}``; the family makes the example
from the seed under the book's profile (``Family.examples``,
:mod:`generator.engine.examples`), and this module draws it for the page's text width:

- a level of 3 Dice Dungeon, by the booklet's own map (:func:`maps.level_map`), its
  locations numbered in the order they were found;
- a filled-in Dungeon Log of The Inverted Tower, in the columns of the log sheet
  (``sheets/log.toml``), what the player wrote set as pencil;
- an annotated check of Tower of Choices: the pile, the cards drawn in order, the matches
  and the result, each numbered, and a key naming each part.

Nothing here decides or retypes anything: every word of a drawing is the example's or the
content's.  Black and greys only; text in the book's fonts; marks are SVG paths.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from markupsafe import Markup, escape

from generator.engine.examples import (
    CheckExample,
    Example,
    ExampleMaker,
    LevelExample,
    LogExample,
)
from generator.engine.family import family_of
from generator.model.common import Profile
from generator.model.loader import Ruleset
from generator.model.sheets import LinesSection
from generator.products.booklet import maps
from generator.render.fonts import SANS
from generator.render.markdown import Figures
from generator.render.svg import title

INK = "#111"
PENCIL = "#4a4a4a"  # what the player wrote: graphite, not print black
PT = 25.4 / 72  # mm


def rulebook_figures(ruleset: Ruleset, profile: Profile, paper_width_mm: float,
                     margin: str) -> Figures:
    """The figures the ruleset's chapters may ask for, each drawn when a chapter asks, at
    most as wide as the text of a page ``paper_width_mm`` wide with the book's ``margin``
    (CSS: top outer bottom inner, in mm)."""
    width = paper_width_mm - sum(float(m.removesuffix("mm")) for m in margin.split()[1::2])
    makers: dict[str, Callable[[str], Markup]] = {
        name: partial(_figure, ruleset, profile, make, width)
        for name, make in family_of(ruleset).examples.items()
    }
    return Figures(makers, ruleset.sources)


def _figure(ruleset: Ruleset, profile: Profile, make: ExampleMaker, width_mm: float,
            seed: str) -> Markup:
    example = make(ruleset.data, profile, seed)
    drawing, caption = _drawn(ruleset, example, width_mm)
    replay = _replay(ruleset, profile, example)
    return Markup('<figure class="rb-figure rb-figure-{}">{}<figcaption>{} {}</figcaption>'
                  "</figure>").format(_kind(example), drawing, caption, replay)


def _kind(example: Example) -> str:
    if isinstance(example, LevelExample):
        return "level"
    return "log" if isinstance(example, LogExample) else "check"


def _drawn(ruleset: Ruleset, example: Example, width_mm: float) -> tuple[Markup, str]:
    if isinstance(example, LevelExample):
        return level_figure(example, _map_width(width_mm)), _level_caption(example)
    if isinstance(example, LogExample):
        return log_figure(_log_section(ruleset), example), _log_caption(ruleset, example)
    return check_figure(example, width_mm), _check_caption(example)


def _replay(ruleset: Ruleset, profile: Profile, example: Example) -> Markup:
    """How a reader makes the same example: the command, with the book's profile when it
    is not the ruleset's default."""
    command = "booklet" if isinstance(example, LevelExample) else "play"
    default = ruleset.info.booklet_profile if command == "booklet" else \
        ruleset.info.default_profile
    flag = "" if profile.id == default else f" --profile {profile.id}"
    what = ("prints this level, its locations numbered by section" if command == "booklet"
            else "plays this game die by die")
    return Markup('<span class="rb-replay"><code>towerpress {} {} --seed {}{}</code> {}.'
                  "</span>").format(command, ruleset.id, example.seed, flag, what)


# -- 3 Dice Dungeon: a level --------------------------------------------------------------------

#: The booklet's key names the number in each location its section; here it is the order.
ORDER_KEY = "The order it was found in"


#: The map's width: at least what keeps its coordinates and numbers at 7 pt (measured in
#: the PDF: 5.65 pt at 96 mm), three quarters of a wider text, never wider than the text.
MAP_WIDTHS = (119.0, 124.0)  # mm


def _map_width(text_mm: float) -> float:
    least, most = MAP_WIDTHS
    return min(text_mm, max(least, min(most, 0.75 * text_mm)))


def level_figure(example: LevelExample, width_mm: float = MAP_WIDTHS[0]) -> Markup:
    """The level as the booklet draws it, ``width_mm`` wide with its key below, each
    location numbered by the order it was found (``cells[].order``, from 1) instead of its
    booklet section, which a rulebook has not."""
    level = dict(example.level)
    level["cells"] = [{**cell, "section": int(cell["order"]) + 1} for cell in level["cells"]]
    return Markup('<div class="rb-map" style="width: {:.1f}mm">{}</div>').format(
        width_mm, maps.level_map(level, ORDER_KEY))


def _level_caption(example: LevelExample) -> str:
    cells = example.level["cells"]
    start = min(cells, key=lambda c: int(c["order"]))
    return (f"A first level as the dice made it (seed {example.seed}): {len(cells)} "
            f"locations, numbered in the order they were found, from the foot of the stairs "
            f"on {start['label']}.")


# -- The Inverted Tower: a filled-in Dungeon Log --------------------------------------------------


def _log_section(ruleset: Ruleset) -> tuple[str, LinesSection]:
    """The log sheet's title and its table of rooms (``sheets/log.toml``)."""
    for sheet in ruleset.sheets.values():
        if sheet.kind != "log":
            continue
        for section in sheet.sections:
            if isinstance(section, LinesSection):
                floor = sheet.repeat.label if sheet.repeat else ""
                return f"{sheet.title} · {floor}".rstrip(" ·"), section
    raise ValueError(f"{ruleset.id} has no log sheet with a table of rooms")


def log_figure(log: tuple[str, LinesSection], example: LogExample) -> Markup:
    """The log's rooms table as the sheet prints it, the lines of the example written
    in: the sheet's columns, labels and relative widths; a ticked box is a pencil tick."""
    title, section = log
    cols = "".join(f'<col style="width: {w:.2f}%">' for w in _widths(section))
    head = Markup("").join(Markup('<th class="{}">{}</th>').format(c.kind, c.label)
                           for c in section.columns)
    rows = []
    for line in example.lines:
        cells = []
        for column in section.columns:
            value = line.cells.get(column.key, "")
            if column.kind == "check":
                cells.append(Markup('<td class="check">{}</td>').format(_box(bool(value))))
            else:
                cells.append(Markup('<td class="pencil">{}</td>').format(value))
        rows.append(Markup('<tr><th class="row">{}</th>{}</tr>').format(
            line.number, Markup("").join(cells)))
    heading = Markup('<div class="rb-log-head"><span class="rb-log-title">{} {}</span>'
                     '<span class="pencil">{}</span></div>').format(
                         title, example.floor, example.character)
    table = Markup('<table class="rb-log"><colgroup><col style="width: {}%">{}</colgroup>'
                   '<thead><tr><th class="row">{}</th>{}</tr></thead><tbody>{}</tbody></table>'
                   ).format(ROW_SHARE, Markup(cols), section.row_header, head,
                            Markup("").join(rows))
    return heading + table


#: The least share of the table a box column takes: its label ("Stairs") on one line in A5.
CHECK_SHARE = 7.0  # percent
ROW_SHARE = 8.0  # percent: the room numbers


def _widths(section: LinesSection) -> list[float]:
    """Each column's share of the table, in percent: the sheet's relative widths, a box
    column at least :data:`CHECK_SHARE`, the room numbers :data:`ROW_SHARE`."""
    total = sum(c.width for c in section.columns)
    shares = [c.width / total * (100 - ROW_SHARE) for c in section.columns]
    boxes = [i for i, c in enumerate(section.columns) if c.kind == "check"]
    short = sum(max(0.0, CHECK_SHARE - shares[i]) for i in boxes)
    rest = sum(shares[i] for i in range(len(shares)) if i not in boxes)
    return [max(CHECK_SHARE, share) if i in boxes else share * (rest - short) / rest
            for i, share in enumerate(shares)]


def _box(ticked: bool) -> Markup:
    """A check box of the sheet, ticked in pencil when the room had it."""
    tick = (f'<path d="M1 3.1L2.4 4.6L5.2 0.9" fill="none" stroke="{PENCIL}" '
            'stroke-width="0.55" stroke-linecap="round" stroke-linejoin="round"/>'
            if ticked else "")
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" class="rb-box" width="3.4mm" '
                  f'height="3.4mm" viewBox="-0.5 -0.7 6 6" role="img" '
                  f'aria-label="{"ticked" if ticked else "empty"}">'
                  f'{title("ticked" if ticked else "empty")}'
                  f'<rect x="0" y="0" width="4.6" height="4.6" fill="#fff" stroke="{INK}" '
                  f'stroke-width="0.3"/>{tick}</svg>')


def _log_caption(ruleset: Ruleset, example: LogExample) -> str:
    rooms = len(example.lines)
    return (f"The first floor of a played game (seed {example.seed}), as its player logged "
            f"it in pencil: {rooms} rooms, then {example.end}.")


# -- Tower of Choices: an annotated check --------------------------------------------------------

CARD_W, CARD_H, GAP = 21.0, 29.0, 3.0  # mm: the largest card, its height, the gap
ARROW = 10.0  # mm between the pile and the first card
TEXT = 2.75  # mm: 7.8 pt
SMALL = 2.55  # mm: 7.2 pt


def check_figure(example: CheckExample, width_mm: float) -> Markup:
    """The check drawn left to right: the draw pile, the cards turned up in order with the
    matches marked, and the result; numbered callouts 1 to 4, and a key below that names
    each part."""
    n = len(example.drawn)
    card = min(CARD_W, (width_mm - 4.0 - ARROW - (n - 1) * GAP) / (n + 1))
    height = CARD_H * card / CARD_W
    pile_x, top = 2.0, 11.0
    first_x = pile_x + card + ARROW
    xs = [first_x + i * (card + GAP) for i in range(n)]
    width = xs[-1] + card + 2.0 if xs else first_x
    body = [_pile(pile_x, top, card, height, example.pile),
            _callout(pile_x + 2.4, top - 4.6, 1)]
    for x, name in zip(xs, example.drawn, strict=True):
        body.append(_card(x, top, card, height, name, name == example.skill,
                          name == example.challenge))
    if xs:
        body.append(_bracket((xs[0], xs[-1] + card), top - 3.0, f"DRAW {example.draw}", 2))
    ax, ay = pile_x + card + 2.0, top + height / 2
    body.append(f'<path d="M{ax:.2f} {ay:.2f}h{ARROW - 5.6:.2f}" stroke="{INK}" '
                'stroke-width="0.35" fill="none"/>'
                f'<path d="M{ax + ARROW - 4.0:.2f} {ay:.2f}l-1.8 -1.1v2.2Z" fill="{INK}"/>')
    matches = [x + card / 2 for x, name in zip(xs, example.drawn, strict=True)
               if name == example.skill]
    base = top + height + 3.5
    body.append(_matches(matches, top + height, base))
    body.append(_result(first_x, base + 9.5, example))
    total = base + 12.5
    svg = Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rb-check" width="{width:.2f}mm" '
        f'height="{total:.2f}mm" viewBox="0 0 {width:.2f} {total:.2f}" role="img" '
        f'aria-label="{escape(_check_label(example))}" font-family="{SANS}">'
        + title(_check_label(example)) + "".join(body) + "</svg>")
    return svg + _check_key(example)


def _pile(x: float, y: float, w: float, h: float, count: int) -> str:
    """The draw pile, face down: a few card backs offset, its size on the top one."""
    out = []
    for k in (2, 1, 0):
        out.append(f'<rect x="{x + k * 0.8:.2f}" y="{y - k * 0.8:.2f}" width="{w:.2f}" '
                   f'height="{h:.2f}" rx="1.6" fill="#fff" stroke="{INK}" '
                   'stroke-width="0.3"/>')
    out.append(f'<rect x="{x + 2:.2f}" y="{y + 2:.2f}" width="{w - 4:.2f}" '
               f'height="{h - 4:.2f}" rx="0.8" fill="#e6e6e6" stroke="#777" '
               'stroke-width="0.25"/>')
    out.append(_text(x + w / 2, y + h / 2 + 1, f"{count} cards", SMALL, weight=600))
    out.append(_text(x + w / 2, y + h + 4.2, "Draw pile", SMALL))
    return "".join(out)


def _card(x: float, y: float, w: float, h: float, name: str, match: bool,
          challenge: bool) -> str:
    """A card turned up: its name; a match in a heavy frame with a tick."""
    stroke = "0.8" if match else "0.3"
    out = [f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" rx="1.6" '
           f'fill="{"#fff" if match else "#f2f2f2"}" stroke="{INK}" stroke-width="{stroke}"/>']
    words = name.split()
    lines = [" ".join(words[: (len(words) + 1) // 2]), " ".join(words[(len(words) + 1) // 2:])]
    lines = [line for line in lines if line]
    for i, line in enumerate(lines):
        ly = y + h / 2 + 1.0 - (len(lines) - 1) * 1.6 + i * 3.2
        out.append(_text(x + w / 2, ly, line, TEXT,
                         weight=700 if match else 400, fill=INK if match else "#333"))
    if match:
        cx, cy = x + w - 4.0, y + 4.0
        out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="2.3" fill="{INK}"/>'
                   f'<path d="M{cx - 1.2:.2f} {cy:.2f}l0.9 0.9l1.6 -1.9" fill="none" '
                   'stroke="#fff" stroke-width="0.5" stroke-linecap="round" '
                   'stroke-linejoin="round"/>')
    if challenge:
        out.append(_text(x + w / 2, y + h - 3, "+1 needed", SMALL))
    return "".join(out)


def _bracket(span: tuple[float, float], y: float, label: str, callout: int) -> str:
    """A bracket over the cards drawn, broken round its label and its callout."""
    a, b = span
    mid = (a + b) / 2
    half = len(label) * 0.8 + 1.5
    return (f'<path d="M{a:.2f} {y + 1.5:.2f}V{y:.2f}H{mid - half - 6:.2f}M{mid + half:.2f} '
            f'{y:.2f}H{b:.2f}V{y + 1.5:.2f}" fill="none" stroke="{INK}" stroke-width="0.3"/>'
            + _callout(mid - half - 3.2, y, callout) + _text(mid, y + 1.0, label, TEXT,
                                                             weight=700))


def _matches(xs: Sequence[float], top: float, base: float) -> str:
    """The matches joined under the cards, with callout 3 below the join."""
    if not xs:
        return ""
    drops = "".join(f"M{x:.2f} {top + 0.6:.2f}V{base:.2f}" for x in xs)
    join = f"M{min(xs):.2f} {base:.2f}H{max(xs):.2f}" if len(xs) > 1 else ""
    mid = (min(xs) + max(xs)) / 2
    return (f'<path d="{drops}{join}M{mid:.2f} {base:.2f}V{base + 1.4:.2f}" fill="none" '
            f'stroke="{INK}" stroke-width="0.3"/>' + _callout(mid, base + 3.4, 3))


def _result(x: float, y: float, example: CheckExample) -> str:
    """The result line, callout 4 before it: the matches against the need."""
    word = "success" if example.success else "failure"
    sign = "≥" if example.success else "<"
    text = (f"{example.matches} {example.skill} {sign} {example.needed} needed: "
            f"{word}")
    return _callout(x + 2.2, y - 0.9, 4) + _text(x + 6.0, y, text, TEXT, weight=700,
                                                  anchor="start")


def _callout(x: float, y: float, n: int) -> str:
    """A numbered disc the key below explains."""
    return (f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.2" fill="{INK}"/>'
            + _text(x, y + 0.95, str(n), SMALL, weight=700, fill="#fff"))


def _text(x: float, y: float, text: str, size: float, *, weight: int = 400,
          fill: str = INK, anchor: str = "middle") -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>')


def _check_key(example: CheckExample) -> Markup:
    """What each number of the drawing names, from the example's own words."""
    reasons = Markup(". ").join(escape(r) for r in example.reasons)
    drew = (f"drew all {example.draw} cards" if example.committed == example.draw
            else f"chose to draw {example.committed}")
    items = [
        Markup("<b>Draw pile.</b> The skill deck, shuffled, face down: {} cards.").format(
            example.pile),
        Markup("<b>DRAW {}.</b> {}. The player {}, turned up in this order.").format(
            example.draw, reasons, drew),
        Markup("<b>Matches.</b> Only a {} card counts for the approach; TARGET {} is the "
               "matches needed{}.").format(
                   example.skill, example.target,
                   "" if example.needed == example.target
                   else f", raised to {example.needed} by challenge cards"),
        Markup("<b>Result.</b> {} {} for {} needed: the check {}. Every card drawn goes to "
               "the discard pile.").format(
                   example.matches, example.skill, example.needed,
                   "succeeds" if example.success else "fails"),
    ]
    return Markup('<ol class="rb-key">{}</ol>').format(
        Markup("").join(Markup("<li>{}</li>").format(item) for item in items))


def _check_label(example: CheckExample) -> str:
    return (f"{example.obstacle}, approach {example.skill}: drew "
            f"{', '.join(example.drawn)}")


def _check_caption(example: CheckExample) -> str:
    return (f"The first check of a played game (seed {example.seed}): {example.obstacle}, "
            f"met with {example.skill} at DRAW {example.draw}, TARGET {example.target}.")


