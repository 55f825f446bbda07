"""The cover's survival chart: the share of plays of this very booklet that reach each floor
(level, room) and win, drawn in SVG from the odds its JSON holds (issue 26)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from generator.render.fonts import SANS
from generator.render.svg import title

WIDTH, HEIGHT = 120.0, 62.0  # the chart's box, in its own units (mm on an A5 cover)
LEFT, RIGHT, TOP, BOTTOM = 9.0, 1.0, 8.0, 7.5
INK, PALE = "#222", "#aaa"
MAX_BARS = 16  # deeper booklets show every n-th depth, and the last


def survival_chart(odds: Mapping[str, Any]) -> Markup:
    """Bars of the share of plays reaching each depth, and winning: under the booklet's
    profile in black, and as written in grey beside it when the JSON has both."""
    reports = [odds["profile"]] + ([odds["as_written"]] if odds["as_written"] else [])
    depths = _shown([row["depth"] for row in odds["profile"]["survival"]])
    labels = [str(depth) for depth in depths] + ["won"]
    values = [[_reached(report, depth) for depth in depths] + [report["won"]]
              for report in reports]
    parts = [_axis(), *_bars(values, labels), *_legend(reports)]
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}mm" '
        f'height="{HEIGHT}mm" role="img" aria-label="{escape(_description(reports))}" '
        f'font-family="{SANS}" font-size="2.6">' + title(_description(reports)) + "".join(parts)
        + "</svg>")


def _shown(depths: Sequence[int]) -> list[int]:
    if len(depths) <= MAX_BARS:
        return list(depths)
    step = -(-len(depths) // (MAX_BARS - 1))
    return [d for i, d in enumerate(depths) if i % step == 0 or i == len(depths) - 1]


def _reached(report: Mapping[str, Any], depth: int) -> float:
    """The share reaching ``depth``: none where the report's rows stop short of it (no
    play came that far)."""
    return float(next((row["reached"] for row in report["survival"] if row["depth"] == depth),
                      0.0))


def _y(share: float) -> float:
    return TOP + (1 - share) * (HEIGHT - TOP - BOTTOM)


def _axis() -> str:
    lines = []
    for share in (0, 0.25, 0.5, 0.75, 1):
        y = _y(share)
        lines.append(f'<line x1="{LEFT}" y1="{y:.2f}" x2="{WIDTH - RIGHT}" y2="{y:.2f}" '
                     f'stroke="{PALE if share else INK}" stroke-width="{0.15 if share else 0.3}"/>')
        lines.append(f'<text x="{LEFT - 1}" y="{y + 0.9:.2f}" text-anchor="end">'
                     f"{round(share * 100)}%</text>")
    return "".join(lines)


def _bars(values: Sequence[Sequence[float]], labels: Sequence[str]) -> list[str]:
    slot = (WIDTH - LEFT - RIGHT) / len(labels)
    bar = slot * 0.7 / len(values)
    parts = []
    for i, label in enumerate(labels):
        x0 = LEFT + i * slot + slot * 0.15
        for j, series in enumerate(values):
            y = _y(series[i])
            colour = INK if j == 0 else PALE
            parts.append(f'<rect x="{x0 + j * bar:.2f}" y="{y:.2f}" width="{bar:.2f}" '
                         f'height="{_y(0) - y:.2f}" fill="{colour}"/>')
        parts.append(f'<text x="{LEFT + (i + 0.5) * slot:.2f}" y="{HEIGHT - BOTTOM + 3.2}" '
                     f'text-anchor="middle">{escape(label)}</text>')
    return parts


def _legend(reports: Sequence[Mapping[str, Any]]) -> list[str]:
    name = reports[0]["depth_name"]
    parts = [f'<text x="{LEFT + (WIDTH - LEFT - RIGHT) / 2:.2f}" y="{HEIGHT - 0.6}" '
             f'text-anchor="middle">{escape(name)} reached</text>']
    for j, report in enumerate(reports):
        x = LEFT + 2 + j * 55
        parts.append(f'<rect x="{x}" y="0.6" width="2.6" height="2.6" '
                     f'fill="{INK if j == 0 else PALE}"/>')
        parts.append(f'<text x="{x + 3.6}" y="2.8">{escape(_series_name(report, j))}</text>')
    return parts


def _series_name(report: Mapping[str, Any], index: int) -> str:
    won = round(report["won"] * 100)
    return f"{'this booklet' if index == 0 else 'as written'} ({report['profile']}): " \
           f"{won}% win"


def _description(reports: Sequence[Mapping[str, Any]]) -> str:
    return "; ".join(f"{r['profile']}: {round(r['won'] * 100)}% of plays win"
                     for r in reports)
