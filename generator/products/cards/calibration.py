"""The calibration sheet: measure how far a printer shifts the backs of a duplex sheet.

The front carries a vernier along each axis: lines every 10 mm.  The back carries the
matching lines, mirrored for the flip, each moved by a further 0.5 mm per step and
labelled with that step; seen through the sheet, each back line continues its front line.
Held to the light, one pair lines up: its label is the ``--back-offset`` (X from the
horizontal scale, Y from the vertical one) that moves the backs onto the fronts.  The lines
are further apart (10 mm) than the largest step (4 mm) and the largest offset the scales
read (4 mm) together, so a back line can only ever meet its own front line.  A 100 mm
ruler on the front checks the printer's scale.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from generator import __version__
from generator.model.paper import PAPERS
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.output import write_atomic
from generator.render.pdf import pdf_bytes, render_document
from generator.render.templating import TEMPLATES, render_template

STEP = 0.5  # mm of offset between neighbouring labels
SPAN = 8  # steps each way: offsets from -4 to +4 mm
PITCH = 10.0  # mm between front lines: more than 2 * SPAN * STEP, so no line meets another's
LINE = 12.0  # mm: each scale line, front and back
X_TOP = 64.0  # mm from the top: the X scale's front lines, under the instructions
Y_LEFT = 20.0  # mm from the left: the Y scale's front lines
Y_MIDDLE = 180.0  # mm from the top: the Y scale's middle line
LABEL = 2.4  # mm: the labels' font size


def _label(value: float) -> str:
    text = f"{value:+.1f}".replace("-", "\u2212")
    return "0" if value == 0 else text


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}"/>'


def _front(w: float) -> str:
    cx = w / 2
    parts = []
    for k in range(-SPAN, SPAN + 1):
        x = cx + k * PITCH
        parts.append(_line(x, X_TOP, x, X_TOP + LINE))
        y = Y_MIDDLE + k * PITCH
        parts.append(_line(Y_LEFT, y, Y_LEFT + LINE, y))
    # A 100 mm ruler with a tick each millimetre, right of the Y scale.
    x0 = max(cx - 50, Y_LEFT + 3 * LINE)
    for mm in range(101):
        tall = 4 if mm % 10 == 0 else (2.5 if mm % 5 == 0 else 1.5)
        parts.append(_line(x0 + mm, Y_MIDDLE, x0 + mm, Y_MIDDLE - tall))
    parts.append(_line(x0, Y_MIDDLE, x0 + 100, Y_MIDDLE))
    return "".join(parts)


def _back(w: float, h: float, duplex: str) -> str:
    """The back's lines and labels, in the back page's own coordinates.

    Back line k lies k steps (along the back's own axes) past where front line k shows
    through the sheet.  A printer that moves the back by d brings line k onto its front
    line where k * STEP = -d: the offset that cancels d.
    """
    cx = w / 2
    parts: list[str] = []
    texts: list[str] = []

    def through(x: float, y: float) -> tuple[float, float]:
        """Where a point of the front shows through on the back (a flip is its own
        inverse)."""
        return (w - x, y) if duplex == "long" else (x, h - y)

    # Each label lies past the far end of its line, away from where the front line shows
    # through: over it, the front line would strike through the number to be read.
    for k in range(-SPAN, SPAN + 1):
        label = _label(k * STEP)
        shift = k * STEP
        # The X scale: each back line continues its front line.
        x, near = through(cx + k * PITCH, X_TOP + LINE)
        _, far = through(cx, X_TOP + 2 * LINE)
        parts.append(_line(x + shift, min(near, far), x + shift, max(near, far)))
        baseline = far + 1.5 + 0.75 * LABEL if far > near else far - 1.5
        texts.append(f'<text x="{x + shift:.3f}" y="{baseline:.3f}" '
                     f'text-anchor="middle">{label}</text>')
        # The Y scale: each back line continues its front line.
        near, y = through(Y_LEFT + LINE, Y_MIDDLE + k * PITCH)
        far, _ = through(Y_LEFT + 2 * LINE, Y_MIDDLE)
        parts.append(_line(near, y + shift, far, y + shift))
        anchor, gap = ("start", 1.5) if far > near else ("end", -1.5)
        texts.append(f'<text x="{far + gap:.3f}" y="{y + shift + 0.35 * LABEL:.3f}" '
                     f'text-anchor="{anchor}">{label}</text>')
    return (f'<g stroke="#000" stroke-width="0.15">{"".join(parts)}</g>'
            f'<g fill="#111" stroke="none" font-size="{LABEL}" font-family="{SANS}">'
            f'{"".join(texts)}</g>')


class CalibrationContext(TypedDict):
    """What ``cards/calibrate.html`` reads."""

    paper: str
    duplex: str
    page_w: float
    page_h: float
    version: str
    font_faces: Markup
    serif: str
    sans: str
    front: Markup  # the front's scales, as SVG
    back: Markup  # the back's, mirrored for the duplex flip
    step: float
    pitch: float
    reach: str


def calibration_html(paper: str, duplex: str) -> str:
    w, h = float(PAPERS[paper].width_mm), float(PAPERS[paper].height_mm)
    return render_template("cards/calibrate.html", CalibrationContext(
        paper=paper, duplex=duplex, page_w=w, page_h=h, version=__version__,
        font_faces=font_face_css(), serif=SERIF, sans=SANS,
        front=Markup(_front(w)), back=Markup(_back(w, h, duplex)),
        step=STEP, pitch=PITCH, reach=f"{SPAN * STEP:g}",
    ))


def write_calibration(paper: str, duplex: str, out: Path) -> int:
    # The sheet reads no content: the templates are the only folder it may fetch from.
    document = render_document(calibration_html(paper, duplex), TEMPLATES)
    write_atomic(out, pdf_bytes(document))
    return len(document.pages)
