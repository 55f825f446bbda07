"""Tower of Choices: the whole ruleset's typed data, and its loading.

Reads ``tables/{skills,abilities,items,character,checks,setbacks,catalogue}.toml`` with the
readers of :mod:`generator.rulesets.tower_of_choices.read`; every problem is a finding with
its file and key path (design.md section 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.table_files import TableFiles
from generator.rulesets.tower_of_choices.entities import (
    Ability,
    AbilityKind,
    Catalogue,
    CharacterRules,
    CheckRules,
    Item,
    Setback,
    Skill,
    SkillAlias,
    WoundsRules,
)
from generator.rulesets.tower_of_choices.read import (
    read_abilities,
    read_catalogue,
    read_character,
    read_checks,
    read_items,
    read_setbacks,
    read_skills,
)


@dataclass(frozen=True)
class TowerOfChoices:
    """Everything a Tower of Choices engine reads."""

    skills: tuple[Skill, ...]
    aliases: tuple[SkillAlias, ...]
    abilities: tuple[Ability, ...]
    items: tuple[Item, ...]
    character: CharacterRules
    checks: CheckRules
    setbacks: tuple[Setback, ...]
    wounds_alt: WoundsRules
    catalogue: Catalogue  # the booklets' rooms and obstacles (issue 25)

    @property
    def skill_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.skills)

    def skill_named(self, name: str) -> str:
        """The normalised skill name for ``name`` or one of its aliases (TC-13).

        Raises:
            KeyError: no skill or alias has that name.
        """
        if name in self.skill_names:
            return name
        for alias in self.aliases:
            if alias.written == name:
                return alias.skill
        raise KeyError(name)

    def ability(self, name: str) -> Ability:
        """Raises KeyError for an unknown ability."""
        for ability in self.abilities:
            if ability.name == name:
                return ability
        raise KeyError(name)

    def item(self, name: str) -> Item:
        """Raises KeyError for an unknown item."""
        for item in self.items:
            if item.name == name:
                return item
        raise KeyError(name)

    def kit_size(self, item: Item) -> int:
        """How many pieces the item counts as when kits count their contents (TC-16 Alt)."""
        size = len(item.contents)
        if item.includes:
            size += self.kit_size(self.item(item.includes))
        return max(size, 1)

    def starting_deck_size(self, ability: Ability | None = None) -> int:
        """Cards in a new character's deck, with ``ability``'s extra cards (TC-14)."""
        rules = self.character
        size = rules.starting_skills * rules.cards_per_starting_skill
        if ability is not None:
            size += sum(e.amount for e in ability.effects if e.kind == AbilityKind.EXTRA_CARD)
        return size

    def standard_checks_per_deck(self, ability: Ability | None = None) -> int:
        """Standard obstacles a fresh deck pays for before it runs dry (rulings.md 3.2)."""
        return self.starting_deck_size(ability) // self.checks.standard_draw


def load(files: TableFiles) -> TowerOfChoices:
    """Read and validate every Tower of Choices tables file; problems become findings."""
    skills, aliases = read_skills(files.file("skills"))
    names = tuple(s.name for s in skills)
    abilities = read_abilities(files.file("abilities"), names)
    items = read_items(files.file("items"), names)
    character = read_character(files.file("character"), len(abilities), len(skills))
    checks = read_checks(files.file("checks"), names)
    setbacks, wounds = read_setbacks(files.file("setbacks"))
    catalogue = read_catalogue(files.file("catalogue"), names, items, checks, setbacks,
                               character)
    return TowerOfChoices(skills, aliases, abilities, items, character, checks, setbacks,
                          wounds, catalogue)
