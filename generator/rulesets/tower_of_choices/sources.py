"""Where Tower of Choices' cards and sheets get their entries, beyond its tables."""

from __future__ import annotations

from collections.abc import Mapping

from generator.model.deck_sources import Entity, Source, table_entities
from generator.model.sheet_sources import Entry, Sources, slug
from generator.model.views import TableView
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.entities import AbilityKind


def challenge(data: TowerOfChoices, tables: Mapping[str, TableView]) -> Source:
    """The CHALLENGE card: the rules of the check-rules table that speak of it."""
    label = data.checks.challenge_label
    rules = table_entities(tables["check-rules"])
    column = tables["check-rules"].columns[-1]
    wanted = [e for e in rules if label in e.name or label in e.field(column)]
    entity = Entity(label, tuple((e.name, e.field(column)) for e in wanted))
    labels = tuple(name for name, _ in entity.fields)
    return Source("challenge", label, labels, (label,), lambda profile: (entity,))


def sheet_sources(data: TowerOfChoices) -> Sources:
    """What the sheets may name: skills, abilities, the catalogue, the character's limits."""
    rules = data.character
    # An ability's extra card may be of a skill the character did not pick (ARCANE's
    # Spellcraft): the sheet needs a row for it.
    extra_skills = max(
        (
            len({e.skill for e in a.effects if e.kind == AbilityKind.EXTRA_CARD})
            for a in data.abilities
        ),
        default=0,
    )
    return Sources(
        lists={
            "skills": tuple(Entry(slug(s.name), s.name, s.covers) for s in data.skills),
            "abilities": tuple(Entry(slug(a.name), a.name, a.text) for a in data.abilities),
            "catalogue": tuple(
                Entry(slug(i.name), i.name, i.text, (i.name, str(i.cost))) for i in data.items
            ),
        },
        numbers={
            "carry-limit": rules.carry_limit,
            "starting-skills": rules.starting_skills,
            "skills-held": rules.starting_skills + extra_skills,
            "abilities": rules.abilities,
        },
    )
