"""A ruleset's rules profiles side by side: how far the reference player gets under each
(one chart of their survival curves), and the rulings on which they differ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from generator.engine.family import family_of
from generator.engine.report import SimulationReport, summarise
from generator.engine.rng import normalise_seed
from generator.model.common import Profile, Reading, Ruling
from generator.model.loader import Ruleset
from generator.render.svg import title

RUNS = 500  # games a profile: a 95% interval of at most +-4.4 points, seconds on the slowest
SEED = "1"
WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 600.0, 290.0, 46.0, 44.0, 12.0, 30.0
DASHES = ("", "6 3", "2 3", "9 3 2 3")  # one a profile, told apart without colour
INK = ("#1b1b1b", "#8a2a12", "#1f4e79", "#4d6b1f")


@dataclass(frozen=True)
class ProfileOdds:
    """A profile and how ``runs`` games of the reference player went under it."""

    profile: Profile
    report: SimulationReport


@dataclass(frozen=True)
class Difference:
    """A ruling that the profiles read differently: each profile's reading, in order."""

    ruling: Ruling
    readings: tuple[tuple[Profile, Reading], ...]


def profile_odds(ruleset: Ruleset) -> list[ProfileOdds]:
    """Each profile's survival: the same seeds, the family's default depth."""
    family = family_of(ruleset)
    seed = normalise_seed(SEED)
    return [ProfileOdds(profile, summarise(
        family.simulate(ruleset.data, profile, RUNS, seed, family.default_depth, None),
        ruleset=ruleset.id, profile=profile.id, seed=seed, depth_name=family.depth_name,
        has_end=family.has_end)) for profile in ruleset.profiles.values()]


def differences(ruleset: Ruleset) -> list[Difference]:
    """The rulings whose reading is not the same in every profile, in the ruleset's order."""
    profiles = list(ruleset.profiles.values())
    return [Difference(ruling, tuple((p, p.reading(ruling.id)) for p in profiles))
            for ruling in ruleset.rulings
            if len({p.reading(ruling.id) for p in profiles}) > 1]


def curves_chart(odds: Sequence[ProfileOdds]) -> Markup:
    """One line a profile: the share of games reaching each depth, then winning."""
    deepest = max(len(o.report.survival) for o in odds)
    steps = deepest + 1  # the depths, and "won"
    lines = [_curve(o.report, i, steps) for i, o in enumerate(odds)]
    name = odds[0].report.depth_name
    described = "; ".join(f"{o.profile.title}: {_won(o.report)} of games win" for o in odds)
    return Markup(
        f'<svg class="curves" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(described)}" font-size="14">' + title(described)
        + _grid(steps) + "".join(lines) + _labels(steps, deepest, name) + "</svg>")


def _x(step: int, steps: int) -> float:
    return LEFT + step * (WIDTH - LEFT - RIGHT) / max(1, steps - 1)


def _y(share: float) -> float:
    return TOP + (1 - share) * (HEIGHT - TOP - BOTTOM)


def _shares(report: SimulationReport) -> list[float]:
    return [row.reached for row in report.survival]


def _curve(report: SimulationReport, index: int, steps: int) -> str:
    shares = _shares(report)
    shares += [0.0] * (steps - 1 - len(shares)) + [report.won or 0.0]
    points = " ".join(f"{_x(i, steps):.1f},{_y(s):.1f}" for i, s in enumerate(shares))
    dash = DASHES[index % len(DASHES)]
    return (f'<polyline points="{points}" fill="none" stroke="{INK[index % len(INK)]}" '
            f'stroke-width="3"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")


def _grid(steps: int) -> str:
    parts = []
    for share in (0, 0.25, 0.5, 0.75, 1):
        y = _y(share)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                     f'stroke="{"#222" if share == 0 else "#ccc"}" stroke-width="0.8"/>'
                     f'<text x="{LEFT - 6}" y="{y + 5:.1f}" text-anchor="end">'
                     f"{round(share * 100)}%</text>")
    return "".join(parts)


def _labels(steps: int, deepest: int, depth_name: str) -> str:
    every = max(1, -(-deepest // 10))
    parts = [f'<text x="{_x(d - 1, steps):.1f}" y="{HEIGHT - BOTTOM + 18}" '
             f'text-anchor="middle">{d}</text>' for d in range(1, deepest + 1)
             if (d - 1) % every == 0]
    parts.append(f'<text x="{_x(steps - 1, steps):.1f}" y="{HEIGHT - BOTTOM + 18}" '
                 'text-anchor="middle">won</text>')
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 4}" '
                 f'text-anchor="middle">{escape(depth_name)} reached</text>')
    return "".join(parts)


def _won(report: SimulationReport) -> str:
    return "none" if report.won is None else f"{round(report.won * 100)}%"


def ruleset_view(ruleset: Ruleset) -> dict[str, Any]:
    """What the ruleset page shows, made in a worker: the chart, each profile's figures
    (in the chart's line style) and the rulings that differ."""
    odds = profile_odds(ruleset)
    return {
        "ruleset": ruleset.id,
        "chart": str(curves_chart(odds)),
        "profiles": [_profile_row(o, i) for i, o in enumerate(odds)],
        "differences": [_difference_row(d) for d in differences(ruleset)],
        "runs": RUNS,
    }


def _profile_row(odds: ProfileOdds, index: int) -> Mapping[str, Any]:
    report = odds.report
    return {"id": odds.profile.id, "title": odds.profile.title,
            "description": odds.profile.description, "won": _won(report),
            "mean_depth": f"{report.mean_depth:.1f}", "depth_name": report.depth_name,
            "ink": INK[index % len(INK)], "dash": DASHES[index % len(DASHES)]}


def _difference_row(difference: Difference) -> Mapping[str, Any]:
    ruling = difference.ruling
    return {"id": ruling.id, "topic": ruling.topic, "question": ruling.question,
            "readings": [{"profile": p.title, "reading": r, "text": ruling.reading_text(r)}
                         for p, r in difference.readings]}
