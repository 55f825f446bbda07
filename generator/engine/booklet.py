"""A seeded solo booklet as data: the JSON that the printed booklet renders (design.md 6).

The family pre-rolls its dungeon (``generate_booklet``) and writes it as a gamebook
(``gamebook``: numbered sections, tapes, and the dungeon as the JSON holds it); this
module puts around it what every booklet has: the schema version, the generator, the
ruleset and the profile with every reading, the seed, the content hash, and the odds of
surviving this very dungeon.  :func:`check_document` proves a booklet read back from its
JSON: its dungeon against the family's checker, its sections and tapes, and its
regeneration from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial
from importlib import resources
from typing import Any

import jsonschema_rs

from generator import __version__
from generator.engine.family import Family
from generator.engine.gamebook import Section, Way, check_sections, renumbering_problem
from generator.engine.plays import play_all
from generator.engine.report import summarise
from generator.engine.rng import normalise_seed
from generator.engine.tapes import Tape, check_tapes
from generator.errors import TowerpressError
from generator.findings import Finding
from generator.model.common import Profile
from generator.model.loader import Ruleset

SCHEMA = 1
AS_WRITTEN = "as-written"
#: The shared part of every booklet's JSON Schema; each family adds its own.
SHARED_SCHEMA: Mapping[str, Any] = json.loads(
    resources.files(__package__).joinpath("booklet.schema.json").read_text("utf-8"))
#: Plays for a booklet's odds: enough for a 95% interval of at most +-2 points.
DEFAULT_ODDS = 2500
MAX_SCHEMA_FINDINGS = 50  # a document of another shape breaks the schema everywhere
MAX_MESSAGE = 200


@dataclass(frozen=True)
class Layout:
    """How the printed booklet renumbers its sections to keep each away from the spread of
    those it leads to (design.md 6): laid out on ``paper``, the section the seed numbers
    ``k`` is printed as ``renumbered[k - 1]``."""

    paper: str
    renumbered: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"paper": self.paper, "renumbered": list(self.renumbered)}


@dataclass(frozen=True)
class BookletRequest:
    """One booklet to make: ``seed`` as the user typed it, ``depth`` floors (levels,
    rooms), and ``odds_runs`` plays for its odds.

    Raises:
        ValueError: the seed is empty (:func:`generator.engine.rng.normalise_seed`).
    """

    seed: str
    depth: int
    odds_runs: int
    layout: Layout | None = None

    @property
    def canonical(self) -> str:
        """The seed as the engine takes it (``int:42``, ``str:abc``)."""
        return normalise_seed(self.seed)


def make_booklet(ruleset: Ruleset, family: Family[Any], profile: Profile,
                 request: BookletRequest, odds: Mapping[str, Any] | None = None
                 ) -> dict[str, Any]:
    """The booklet of ``request`` under ``profile``, as its JSON document.  ``odds``, when
    given, are those a booklet of the same request already has (numbers do not change
    them), and are not played again."""
    dungeon = family.generate_booklet(ruleset.data, profile, request.canonical, request.depth)
    renumbered = request.layout.renumbered if request.layout else ()
    book = family.gamebook(ruleset.data, profile, dungeon, request.canonical, renumbered)
    layout = {"layout": request.layout.to_json()} if request.layout else {}
    return {
        "schema": SCHEMA,
        "generator": __version__,
        "ruleset": ruleset.id,
        "profile": {"id": profile.id, "title": profile.title,
                    "readings": dict(sorted(profile.readings.items()))},
        "seed": request.seed,
        "depth": request.depth,
        "content_hash": ruleset.content_hash,
        "start": 1,
        "sections": [section.to_json() for section in book.sections],
        "tapes": [tape.to_json() for tape in book.tapes],
        "odds": odds if odds is not None else _odds(ruleset, family, profile, dungeon, request),
        **layout,
        **book.dungeon,
    }


def laid_out(document: Mapping[str, Any], ruleset: Ruleset, family: Family[Any],
             layout: Layout) -> dict[str, Any]:
    """``document`` (a booklet of the seed's own numbers, as :func:`make_booklet` made it)
    renumbered by ``layout``: the same booklet, as its printed pages number it."""
    profile = ruleset.profiles[document["profile"]["id"]]
    request = replace(request_of(document), layout=layout)
    return make_booklet(ruleset, family, profile, request, odds=document["odds"])


def to_bytes(document: Mapping[str, Any]) -> bytes:
    """The booklet's JSON file, as ``towerpress booklet`` writes it: UTF-8, one key a line
    at the top (a diff of two booklets reads), the same bytes for the same document."""
    return (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _odds(ruleset: Ruleset, family: Family[Any], profile: Profile, dungeon: Any,
          request: BookletRequest) -> dict[str, Any] | None:
    """The share of plays of this dungeon (fresh dice each time, not the tapes) that reach
    each depth and win, under the profile and, when it is another, as written."""
    if request.odds_runs == 0:
        return None
    profiles = [profile]
    if profile.id != AS_WRITTEN and AS_WRITTEN in ruleset.profiles:
        profiles.append(ruleset.profiles[AS_WRITTEN])
    plays = [partial(family.booklet_odds, ruleset.data, each, dungeon, seed=request.canonical)
             for each in profiles]
    reports = {}
    for each, outcomes in zip(profiles, play_all(plays, request.odds_runs), strict=True):
        report = summarise(outcomes, ruleset=ruleset.id, profile=each.id, seed=request.seed,
                           depth_name=family.depth_name, has_end=family.has_end)
        reports[each.id] = report.to_json()
    return {"runs": request.odds_runs, "profile": reports[profile.id],
            "as_written": reports.get(AS_WRITTEN) if profile.id != AS_WRITTEN else None}


def request_of(document: Mapping[str, Any]) -> BookletRequest:
    """The request that made ``document`` (schema-valid): its seed, depth and odds plays."""
    odds = document["odds"]
    layout = document.get("layout")
    return BookletRequest(document["seed"], document["depth"], odds["runs"] if odds else 0,
                          Layout(layout["paper"], tuple(layout["renumbered"]))
                          if layout else None)


def schema_findings(document: object, family: Family[Any]) -> list[Finding]:
    """Every way ``document`` breaks the shared booklet schema or its family's."""
    errors = sorted(_validator(family).iter_errors(document),
                    key=lambda e: [str(p) for p in e.instance_path])
    return [Finding("schema", _json_path(error.instance_path), _short(error.message))
            for error in errors[:MAX_SCHEMA_FINDINGS]]


@cache
def _validator(family: Family[Any]) -> jsonschema_rs.Validator:
    """The shared schema and the family's, as one validator.  jsonschema-rs, because the
    pure-Python jsonschema takes 0.2 s over a 10-floor booklet (12,000 values) and
    jsonschema-rs under 1 ms; the tests check its verdicts against jsonschema's."""
    return jsonschema_rs.validator_for({"allOf": [SHARED_SCHEMA, family.booklet_schema()]})


def check_document(document: Mapping[str, Any], ruleset: Ruleset, family: Family[Any]
                   ) -> list[Finding]:
    """Every way ``document`` (a booklet of ``ruleset``) breaks its rules: the schemas; the
    family's invariants of its dungeon, read back; its sections and tapes; and its
    regeneration from the seed under the declared profile."""
    found = schema_findings(document, family)
    if found:
        return found  # the rest reads the document as the schema describes it
    profile_id = document["profile"]["id"]
    if profile_id not in ruleset.profiles:
        return [Finding("profile", "profile", f"unknown profile {profile_id!r} of {ruleset.id} "
                        f"(expected one of: {', '.join(sorted(ruleset.profiles))})")]
    profile = ruleset.profiles[profile_id]
    try:
        dungeon = family.read_dungeon(ruleset.data, profile, document)
    except TowerpressError as exc:
        return [Finding("dungeon", "dungeon", exc.message)]
    found = family.check_booklet(ruleset.data, profile, dungeon)
    found += _layout(document)
    found += check_sections(_sections(document))
    found += check_tapes(_tapes(document))
    return found + _regeneration(document, ruleset, family, profile)


def _layout(document: Mapping[str, Any]) -> list[Finding]:
    layout = document.get("layout")
    problem = layout and renumbering_problem(layout["renumbered"], len(document["sections"]))
    return [Finding("layout", "layout.renumbered", problem)] if problem else []


def _regeneration(document: Mapping[str, Any], ruleset: Ruleset, family: Family[Any],
                  profile: Profile) -> list[Finding]:
    if document["generator"] != __version__:
        return [Finding("generator", "generator", f"made by TowerPress "
                        f"{document['generator']}; this is {__version__}, which cannot "
                        "regenerate it to compare")]
    if _layout(document):
        return []  # a renumbering of other sections cannot be made again
    again = make_booklet(ruleset, family, profile, request_of(document))
    return [Finding("regenerated", where, _differs(key, document["seed"], profile.id))
            for key in sorted(again) if (where := _first_difference(key, again[key],
                                                                     document.get(key)))]


def _differs(key: str, seed: str, profile: str) -> str:
    if key == "content_hash":
        return "made from other content than this program's (the content hash differs)"
    return f"differs from the booklet of seed {seed!r} under {profile}, made again"


def _first_difference(key: str, made: Any, read: Any) -> str:
    """Where ``read`` first differs from ``made`` (``sections[12]``), or "" if nowhere."""
    if made == read:
        return ""
    if isinstance(made, list) and isinstance(read, list):
        index = next((i for i, (a, b) in enumerate(zip(made, read, strict=False)) if a != b),
                     min(len(made), len(read)))
        return f"{key}[{index}]"
    return key


def _json_path(path: Iterable[object]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") \
        or "document"


def _short(message: str) -> str:
    """jsonschema's message, cut: it quotes the whole failing value."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 3] + "..."


def _sections(document: Mapping[str, Any]) -> list[Section]:
    return [Section(s["number"], s["kind"], s["where"], tuple(s["text"]), s["dice"],
                    tuple(Way(w["text"], w["section"]) for w in s["turn_to"]),
                    s["ending"] or "")
            for s in document["sections"]]


def _tapes(document: Mapping[str, Any]) -> list[Tape]:
    return [Tape(t["name"], t["place"], tuple(t["parts"]),
                 tuple(tuple(e) for e in t["entries"]), t["low"], t["high"], t["bound"],
                 t["fallback"] or "")
            for t in document["tapes"]]
