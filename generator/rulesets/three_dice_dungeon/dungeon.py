"""A whole pre-rolled 3 Dice Dungeon: the character and the levels of one dungeon.

The character (DD-01, DD-02) and the dungeon's monster substitution (DD-09) have their
own streams; each level is laid out by :mod:`.levels` from the stream of (seed, level,
attempt).  A dungeon is the whole run of levels: it must hold some dragon (DD-09), and
its last level is the undead level (a documented choice, :func:`undead_level`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from generator.engine.rng import DiceRng
from generator.rulesets.three_dice_dungeon.dice import stable
from generator.rulesets.three_dice_dungeon.effects import Stat
from generator.rulesets.three_dice_dungeon.levels import (
    DEFAULT_GRID,
    Grid,
    Level,
    generate_level,
)
from generator.rulesets.three_dice_dungeon.rules import Rules

# -- the character ----------------------------------------------------------------------


@dataclass(frozen=True)
class CharacterRoll:
    """The creation dice (DD-01, DD-02) and the character they give.

    ``rejected`` are the triples rerolled for a low total; ``assignment`` names the
    attribute each die of ``dice`` became; ``klass`` is the class taken at creation under
    DD-02 Alt ("" otherwise), whose HP is then the starting HP.
    """

    rejected: tuple[tuple[int, ...], ...]
    dice: tuple[int, ...]
    assignment: tuple[Stat, ...]
    klass: str
    hp: int

    def value(self, stat: Stat) -> int:
        return self.dice[self.assignment.index(stat)]


Assign = Callable[[tuple[int, ...]], tuple[Stat, ...]]
ChooseClass = Callable[[Sequence[str]], str]


def roll_character(
    rules: Rules, rng: DiceRng, assign: Assign | None = None, choose: ChooseClass | None = None
) -> CharacterRoll:
    """Roll 3d6, rerolling every triple whose total is too low, and derive the character.

    DD-01 Faithful reads the dice in the order rolled; under the Alt reading ``assign``
    (the player's choice) places them.  DD-02 Faithful: HP is the sum of the attributes
    the data names; Alt: the class ``choose`` picks at creation gives the HP.
    """
    spec = rules.data.character
    rejected: list[tuple[int, ...]] = []
    while True:
        dice = tuple(rng.die(spec.dice.faces) for _ in range(spec.dice.count))
        if sum(dice) + spec.dice.plus > spec.reroll_if_total_at_most:
            break
        rejected.append(dice)
    order = tuple(a.stat for a in spec.attributes)
    assignment = assign(dice) if rules.free_assignment and assign is not None else order
    klass = ""
    if rules.class_at_creation and rules.classes and choose is not None:
        klass = choose([c.name for c in rules.classes])
    hp = derive_hp(rules, dice, assignment, klass)
    return CharacterRoll(tuple(rejected), dice, assignment, klass, hp)


def derive_hp(rules: Rules, dice: tuple[int, ...], assignment: tuple[Stat, ...], klass: str) -> int:
    """Starting HP (DD-02): the class's HP under the Alt reading, else the attribute sum."""
    if klass:
        return next(c.hp for c in rules.classes if c.name == klass)
    return sum(dice[assignment.index(s)] for s in rules.data.character.hp_sum_of)


# -- a dungeon ----------------------------------------------------------------------------


def roll_substitution(rules: Rules, rng: DiceRng) -> dict[str, str]:
    """DD-09: the dungeon's monster substitution.

    Faithful: none (the table's own monsters).  Alt: the swappable monsters of the main
    table are replaced, from the seed, by a shuffle of every swappable manual monster;
    Dragons are never swapped.
    """
    if not rules.substitute:
        return {}
    slots = [
        r.value.monster
        for r in rules.data.main_level.rows.rows
        if r.value.monster and rules.manual(r.value.monster).swappable
    ]
    pool = [m.name for m in rules.data.monsters if m.swappable]
    order = list(range(len(pool)))
    rng.shuffle(order)
    return {slot: pool[i] for slot, i in zip(slots, order, strict=False)}


def undead_level(number: int, depth: int) -> bool:
    """Which level is the undead level: the deepest of a dungeon of more than one level.

    The fan text gives the undead level as an optional theme without saying where it
    goes; the project puts it last, as the dungeon's climax (a documented choice).
    """
    return number == depth and depth > 1


def has_dragon(level: Level) -> bool:
    return any(c.monster.foe.dragon for c in level.cells)


#: How many layouts a level may try before it is kept as it is (a safety bound of the
#: generator, not a game rule; in practice one or two suffice).
MAX_ATTEMPTS = 64

LevelRng = Callable[[int, int], DiceRng]  # (level number, attempt) -> content stream


def build_level(
    rules: Rules,
    rng_for: LevelRng,
    number: int,
    depth: int,
    substitution: Mapping[str, str],
    dragon_before: bool,
    grid: Grid = DEFAULT_GRID,
) -> Level:
    """Level ``number`` of a ``depth``-level dungeon, from its content stream.

    A layout is tried again (next attempt, a fresh stream) when DD-12's fallback cannot
    save it, and on the last level when no dragon appeared anywhere in the dungeon:
    "there must be some form of a dragon in each dungeon" (DD-09, invariant 2.5.7).
    """
    level: Level | None = None
    for attempt in range(MAX_ATTEMPTS):
        level = generate_level(
            rules,
            rng_for(number, attempt),
            number,
            undead_level(number, depth),
            substitution,
            grid,
            attempt,
        )
        if rules.stuck_fallback and level.stuck:
            continue
        if number == depth and not dragon_before and not has_dragon(level):
            continue
        return level
    assert level is not None
    return level


@dataclass(frozen=True)
class Dungeon:
    """A whole pre-rolled dungeon: the character and every level."""

    seed: str
    profile: str
    character: CharacterRoll
    substitution: tuple[tuple[str, str], ...]
    levels: tuple[Level, ...]
    ladder: tuple[tuple[int, int], ...]  # (level, total XP needed), as printed


def generate_dungeon(
    rules: Rules,
    seed: str,
    depth: int,
    grid: Grid = DEFAULT_GRID,
    assign: Assign | None = None,
    choose: ChooseClass | None = None,
) -> Dungeon:
    """Pre-roll a booklet's dungeon from the seed: stable streams per level and purpose."""
    character = roll_character(rules, stable(seed, "character", purpose="content"), assign, choose)
    substitution = roll_substitution(rules, stable(seed, "dungeon", purpose="substitution"))
    levels: list[Level] = []
    for number in range(1, depth + 1):
        levels.append(
            build_level(
                rules,
                lambda n, a: stable(seed, "level", n, "attempt", a, purpose="content"),
                number,
                depth,
                substitution,
                any(has_dragon(lv) for lv in levels),
                grid,
            )
        )
    exp = rules.data.experience
    ladder = tuple((lv, exp.threshold(lv)) for lv in range(2, exp.listed_max_level + 1))
    return Dungeon(
        seed,
        rules.profile.id,
        character,
        tuple(sorted(substitution.items())),
        tuple(levels),
        ladder,
    )
