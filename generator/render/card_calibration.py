"""The calibration sheet: measure how far a printer shifts the backs of a duplex sheet.

The front carries a vernier along each axis: lines every 5 mm.  The back carries the
matching lines, mirrored for the flip, each moved by a further 0.5 mm per step and
labelled with that step.  Held to the light, one back line meets its front line: its
label is the ``--back-offset`` (X from the horizontal scale, Y from the vertical one) that
moves the backs onto the fronts.  A 100 mm ruler on the front checks the printer's scale.
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from generator import __version__
from generator.render.fonts import SANS, SERIF, font_face_css
from generator.render.imposition import PAPERS
from generator.render.templating import environment

STEP = 0.5  # mm of offset between neighbouring labels
PITCH = 5.0  # mm between front lines
SPAN = 8  # steps each way: offsets from -4 to +4 mm


def _label(value: float) -> str:
    text = f"{value:+.1f}".replace("-", "\u2212")
    return "0" if value == 0 else text


def _front(w: float, h: float) -> str:
    cx, cy = w / 2, h / 2
    parts = []
    for k in range(-SPAN, SPAN + 1):
        x = cx + k * PITCH
        parts.append(f'<line x1="{x:.3f}" y1="{cy - 40:.3f}" x2="{x:.3f}" y2="{cy - 28:.3f}"/>')
        y = cy + k * PITCH
        parts.append(f'<line x1="{cx - 60:.3f}" y1="{y:.3f}" x2="{cx - 48:.3f}" y2="{y:.3f}"/>')
    # A 100 mm ruler with a tick each millimetre.
    x0, y0 = cx - 50, cy + 55
    for mm in range(101):
        tall = 4 if mm % 10 == 0 else (2.5 if mm % 5 == 0 else 1.5)
        parts.append(f'<line x1="{x0 + mm}" y1="{y0}" x2="{x0 + mm}" y2="{y0 - tall}"/>')
    parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x0 + 100}" y2="{y0}"/>')
    # A target at the centre.
    parts.append(f'<circle cx="{cx}" cy="{cy}" r="6" fill="none"/>')
    parts.append(f'<line x1="{cx - 9}" y1="{cy}" x2="{cx + 9}" y2="{cy}"/>')
    parts.append(f'<line x1="{cx}" y1="{cy - 9}" x2="{cx}" y2="{cy + 9}"/>')
    return "".join(parts)


def _back(w: float, h: float, duplex: str) -> str:
    cx, cy = w / 2, h / 2
    parts: list[str] = []
    texts: list[str] = []
    for k in range(-SPAN, SPAN + 1):
        # Where the front line k lies, seen from the back, then moved by k steps.
        fx, fy = cx + k * PITCH, cy + k * PITCH
        bx = (w - fx if duplex == "long" else fx) + k * STEP
        by = (h - fy if duplex == "short" else fy) + k * STEP
        label = _label(k * STEP)
        parts.append(f'<line x1="{bx:.3f}" y1="{cy - 28:.3f}" x2="{bx:.3f}" y2="{cy - 16:.3f}"/>')
        anchor_y = cy - 14 + (2.6 if k % 2 else 0)
        texts.append(f'<text x="{bx:.3f}" y="{anchor_y + 1.6:.3f}" text-anchor="middle">'
                     f"{label}</text>")
        side = 1 if duplex == "long" else -1  # the Y scale lies mirrored on a long-edge back
        lx = w - (cx - 48) if duplex == "long" else cx - 48
        parts.append(f'<line x1="{lx:.3f}" y1="{by:.3f}" x2="{lx + 12 * side:.3f}" '
                     f'y2="{by:.3f}"/>')
        tx = lx + (14 + (7 if k % 2 else 0)) * side
        texts.append(f'<text x="{tx:.3f}" y="{by + 0.9:.3f}" text-anchor="middle">{label}</text>')
    return (f'<g stroke="#000" stroke-width="0.15">{"".join(parts)}</g>'
            f'<g fill="#111" stroke="none" font-size="2.4" font-family="{SANS}">'
            f'{"".join(texts)}</g>')


def calibration_html(paper: str, duplex: str) -> str:
    w, h = PAPERS[paper]
    template = environment().get_template("cards/calibrate.html")
    return template.render(
        paper=paper, duplex=duplex, page_w=w, page_h=h, version=__version__,
        font_faces=font_face_css(), serif=SERIF, sans=SANS,
        front=Markup(_front(w, h)), back=Markup(_back(w, h, duplex)),
        step=STEP, pitch=PITCH,
    )


def write_calibration(paper: str, duplex: str, out: Path) -> int:
    from generator.render.pdf import pdf_bytes, render_document, write_atomic

    document = render_document(calibration_html(paper, duplex), Path(__file__).parent)
    write_atomic(out, pdf_bytes(document))
    return len(document.pages)
