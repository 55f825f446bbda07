"""The rules of The Inverted Tower resolved for one profile, as flat lookup tables.

:class:`Rules` reads every number from the typed data (``generator.rulesets.inverted_tower.data``)
and every ruling from the profile, once, so that the reference procedures (``rules.py``)
and the fast simulator (``fast.py``) share the same numbers and no rules number is typed
into engine code. Tables are indexed by the natural die face (index 0 is unused), which
is what both the reference code and the fast path look up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from generator.engine.resolved import once_per_readings
from generator.model.common import Profile
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.entities import (
    AttributeChoice,
    CritBasis,
    EffectKind,
    EliteCount,
    EventKind,
    ItemUse,
    Monster,
    MustBeat,
    RepeatRule,
    Stack,
    TermSource,
    Trade,
    TreasureAfter,
    WanderingChecks,
    XpCounting,
)

NEVER = 1 << 30  # "no number of daggers makes this die hit"


class Slot(StrEnum):
    """Where an item goes on the character sheet (read from the item's effect kind)."""

    GOLD = "gold"
    DAGGERS = "daggers"
    POTIONS = "potions"


SLOT_OF_EFFECT = {
    EffectKind.CURRENCY: Slot.GOLD,
    EffectKind.COMBAT_BONUS: Slot.DAGGERS,
    EffectKind.HEAL_TO_MAX: Slot.POTIONS,
}


class Outcome(StrEnum):
    """How one roll came out, and what decided it (IT-08)."""

    NATURAL_MISS = "natural miss"  # the critical failure, whatever is added
    NATURAL_HIT = "natural hit"  # the critical success, whatever is taken off
    EFFECTIVE_SIX = "effective six"  # IT-08 Alt: the die plus daggers reaches the critical
    HIT = "hit"
    MISS = "miss"

    @property
    def hit(self) -> bool:
        return self not in (Outcome.NATURAL_MISS, Outcome.MISS)


@dataclass(frozen=True)
class Gain:
    """Items gained at once: a treasure row, a boss's loot, a starting kit."""

    gold: int = 0
    daggers: int = 0
    potions: int = 0

    def __add__(self, other: Gain) -> Gain:
        return Gain(
            self.gold + other.gold, self.daggers + other.daggers, self.potions + other.potions
        )


@dataclass(frozen=True)
class Foe:
    """One kind of monster as combat reads it (IT-07, IT-25 resolved)."""

    id: str
    xp: int
    mods: tuple[tuple[TermSource, int], ...]  # non-dagger terms with their signs
    dagger_sign: int  # 0 when daggers do not help against it


@dataclass(frozen=True)
class Rules:
    """Every number and ruling the engine uses, for one (data, profile) pair."""

    data: InvertedTower
    profile: Profile
    faces: int
    # -- rolls (IT-08, IT-30) --
    crit_success: int
    crit_failure: int
    crit_on_total: bool  # IT-08 Alt: daggers count towards the critical six (not the one)
    # -- a new room (IT-01/02/03/32/34) --
    room_check: tuple[bool, ...]
    event_of: tuple[EventKind | None, ...]
    once_per_floor: frozenset[EventKind]
    repeat_rerolls: bool  # IT-02 Alt
    first_room_encounter: bool  # IT-32 Alt
    # -- traps (IT-16) --
    trap_attribute: tuple[int, ...]  # attribute index per face
    trap_target: int
    trap_subtracts_floor: bool
    trap_daggers: bool
    trap_damage: int
    trap_fail_treasure: bool  # a failed trap still gives the treasure a passed one does
    # -- encounters (IT-04/05/06) --
    elite_check: tuple[bool, ...]
    all_elite: bool  # IT-05 Alt
    monster_count: tuple[int, ...]
    # -- combat (IT-07/08/09/10/17/28/29) --
    combat_target: int
    combat_damage: int
    floor_offset: int
    per_fight_attribute: bool  # IT-29 Alt
    normal: Foe
    elite: Foe
    boss: Foe
    minion: Foe
    dagger_amount: int
    daggers_kept: bool  # IT-09 Alt
    daggers_before_roll: bool  # IT-10 Alt
    potions_between_rooms_only: bool  # IT-10 Alt
    last_gasp: bool  # IT-11 Alt
    # -- bosses (IT-18/25/26) --
    minion_check: tuple[bool, ...]
    minions_on_pass: int
    minions_on_fail: int
    loot: Gain
    lair_treasure_rolls: int
    boss_always: bool  # IT-26 Alt
    # -- treasure (IT-15/24) --
    treasure: tuple[Gain, ...]
    treasure_after_encounter: bool
    treasure_after_trap: bool
    wandering_treasure: bool
    # -- the floor (IT-18/22/23/27) --
    first_floor: int
    max_rooms: int
    dead_end_check: tuple[bool, ...]
    dead_end_lair: bool
    forced_lair: bool
    wandering_check: tuple[bool, ...]
    wandering_per_room: bool  # IT-23 Alt
    events_reusable: bool  # IT-22 Faithful
    win_floor: int  # IT-27; 0 = endless
    # -- merchant (IT-21) --
    merchant_sells: bool
    potion_price: int | None
    dagger_price: int | None
    # -- the character and levels (IT-12/13/14) --
    attribute_count: int
    start_attributes: tuple[int, ...]
    start_points: int
    start_hp: int
    start_level: int
    start_xp: int
    start_kit: Gain
    xp_total: bool  # IT-12 Alt
    level_base: int
    level_step: int
    max_hp_gain: int
    hp_gain: int
    attribute_gain: int
    _need: dict[tuple[str, int, int, int], tuple[int, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    # -- derived helpers -----------------------------------------------------------------

    def floor_term(self, floor: int) -> int:
        """The value of "the floor" in a roll (IT-28: floor 1 counts 1, or 0 under Alt)."""
        return floor - self.floor_offset

    def level_cost(self, level: int) -> int:
        """XP to gain from ``level`` to the next (IT-12): fresh XP, or a running total."""
        if not self.xp_total:
            return self.level_base + self.level_step * level
        steps = range(self.start_level, level + 1)
        return sum(self.level_base + self.level_step * j for j in steps)

    def foe(self, foe_id: str) -> Foe:
        for foe in (self.normal, self.elite, self.boss, self.minion):
            if foe.id == foe_id:
                return foe
        raise KeyError(foe_id)

    def modifier(self, foe: Foe, attribute: int, floor: int, level: int) -> int:
        """The sum of a foe's non-dagger terms (IT-07, IT-28)."""
        total = 0
        for source, sign in foe.mods:
            if source is TermSource.ATTRIBUTE:
                total += sign * attribute
            elif source is TermSource.FLOOR:
                total += sign * self.floor_term(floor)
            elif source is TermSource.LEVEL:
                total += sign * level
        return total

    def outcome(self, die: int, bonus: int, modifier: int, target: int) -> Outcome:
        """One roll against ``target``, and what decided it (IT-08).

        The critical failure always reads the natural die: under IT-08 Alt daggers lift a
        die to the "effective 6" critical hit, but nothing lifts a natural 1.
        """
        if die <= self.crit_failure:
            return Outcome.NATURAL_MISS
        if die >= self.crit_success:
            return Outcome.NATURAL_HIT
        if die + modifier + bonus >= target:
            return Outcome.HIT
        if self.crit_on_total and die + bonus >= self.crit_success:
            return Outcome.EFFECTIVE_SIX
        return Outcome.MISS

    def hits(self, die: int, bonus: int, modifier: int, target: int) -> bool:
        return self.outcome(die, bonus, modifier, target).hit

    def daggers_needed(self, foe: Foe, attribute: int, floor: int, level: int) -> tuple[int, ...]:
        """For each face, the fewest daggers that turn it into a hit on ``foe``.

        Index 0 is unused; 0 means the die hits by itself, :data:`NEVER` that no number of
        daggers helps (a natural critical failure, or a foe that daggers cannot touch).
        Cached: the fast path and the policy look these up on every roll.
        """
        key = (foe.id, attribute, floor, level)
        found = self._need.get(key)
        if found is not None:
            return found
        modifier = self.modifier(foe, attribute, floor, level)
        per = foe.dagger_sign * self.dagger_amount
        # Enough daggers to reach the target from the lowest face, or the critical six.
        most = max(self.combat_target - modifier, self.crit_success) + 1
        row = [NEVER]
        for die in range(1, self.faces + 1):
            need = NEVER
            for k in range(0, most + 1 if per > 0 else 1):
                if self.hits(die, k * per, modifier, self.combat_target):
                    need = k
                    break
            row.append(need)
        table = tuple(row)
        self._need[key] = table
        return table

    def trap_passes(self, attribute: int, floor: int) -> tuple[bool, ...]:
        """Which faces pass a trap check (IT-16): die plus attribute, maybe minus the floor."""
        modifier = attribute - (self.floor_term(floor) if self.trap_subtracts_floor else 0)
        return (False, *(self.hits(d, 0, modifier, self.trap_target)
                         for d in range(1, self.faces + 1)))


# -- building ---------------------------------------------------------------------------------


def _check_table(data: InvertedTower, code: str) -> tuple[bool, ...]:
    """Faces that pass an unmodified check (crits change nothing there, IT-30)."""
    target = data.rolls.check(code).target
    crits = data.rolls.crits
    out = [False]
    for die in range(1, data.rolls.faces + 1):
        out.append(die >= crits.success or (die > crits.failure and die >= target))
    return tuple(out)


def _gain(data: InvertedTower, item_id: str, quantity: int) -> Gain:
    slot = SLOT_OF_EFFECT[data.item(item_id).effect.kind]
    return Gain(**{slot.value: quantity})


def _gains(data: InvertedTower, stacks: tuple[Stack, ...]) -> Gain:
    """Stacks of items (a starting kit, a boss's loot) added up into one gain."""
    total = Gain()
    for stack in stacks:
        total = total + _gain(data, stack.item, stack.quantity)
    return total


def _foe(data: InvertedTower, profile: Profile, monster: Monster) -> Foe:
    terms = monster.to_hit.under(profile)
    mods = tuple((t.source, t.sign) for t in terms if t.source is not TermSource.DAGGERS)
    dagger = [t.sign for t in terms if t.source is TermSource.DAGGERS]
    return Foe(monster.id, monster.xp.under(profile), mods, dagger[0] if dagger else 0)


def _trap_attributes(data: InvertedTower) -> tuple[int, ...]:
    """The attribute index each trap face tests (IT-16), index 0 unused."""
    codes = [a.code for a in data.character.attributes]
    return (-1, *(codes.index(t.attribute) for t in data.traps.table.lookup_table()))


def _item_of(data: InvertedTower, kind: EffectKind) -> str:
    found = [i.id for i in data.items if i.effect.kind is kind]
    if len(found) != 1:
        raise ValueError(f"expected exactly one {kind.value} item, found {found!r}")
    return found[0]


def build_rules(data: InvertedTower, profile: Profile) -> Rules:
    """Resolve every table and ruling for ``profile``.

    Raises:
        ValueError: the data lacks an item the engine needs (a dagger, a potion, gold).
    """
    p = profile
    crits = data.rolls.crits
    dagger_id = _item_of(data, EffectKind.COMBAT_BONUS)
    potion_id = _item_of(data, EffectKind.HEAL_TO_MAX)
    dagger = data.item(dagger_id)
    events = data.events
    prices = {o.item: o.price for o in data.merchant.stock}
    start = data.character.start
    after = data.treasure.after.under(p)
    return Rules(
        data=data,
        profile=p,
        faces=data.rolls.faces,
        crit_success=crits.success,
        crit_failure=crits.failure,
        crit_on_total=crits.applies_to.under(p) is CritBasis.TOTAL,
        room_check=_check_table(data, events.room_check),
        event_of=(None, *(e.kind for e in events.table.lookup_table())),
        once_per_floor=frozenset(events.once_per_floor.under(p)),
        repeat_rerolls=events.on_repeat.under(p) is RepeatRule.REROLL,
        first_room_encounter=p.alt("IT-32"),
        trap_attribute=_trap_attributes(data),
        trap_target=data.rolls.check(data.traps.check).target,
        trap_subtracts_floor=data.traps.subtract_floor.under(p),
        trap_daggers=data.traps.daggers_allowed,
        trap_damage=data.traps.fail_damage,
        trap_fail_treasure=data.traps.fail_treasure,
        elite_check=_check_table(data, data.encounters.elite_check.under(p)),
        all_elite=data.encounters.elites.under(p) is EliteCount.ALL,
        monster_count=(0, *data.encounters.count.lookup_table()),
        combat_target=data.rolls.check(data.combat.check).target,
        combat_damage=data.combat.fail_damage,
        floor_offset=data.combat.floor_offset.under(p),
        per_fight_attribute=data.combat.attribute_choice.under(p) is AttributeChoice.FIGHT,
        normal=_foe(data, p, data.monster(data.bosses.minion)),
        # An encounter's elite is the monster the boss fights as (IT-25: "handle it as an
        # elite monster"); ordinary monsters are the boss's minions.
        elite=_foe(data, p, data.monster(data.monster(data.bosses.monster).fights_as
                                         or data.bosses.monster)),
        boss=_foe(data, p, data.monster(data.bosses.monster)),
        minion=_foe(data, p, data.monster(data.bosses.minion)),
        dagger_amount=dagger.effect.amount,
        daggers_kept=dagger.effect.use.under(p) is ItemUse.KEPT,
        daggers_before_roll=p.alt("IT-10"),
        potions_between_rooms_only=p.alt("IT-10"),
        last_gasp=p.alt("IT-11"),
        minion_check=_check_table(data, data.bosses.minion_check),
        minions_on_pass=data.bosses.minions_on_pass,
        minions_on_fail=data.bosses.minions_on_fail,
        loot=_gains(data, data.bosses.loot),
        lair_treasure_rolls=data.bosses.lair_treasure_rolls.under(p),
        boss_always=data.bosses.must_beat.under(p) is MustBeat.ALWAYS,
        treasure=(Gain(), *(_gain(data, s.item, s.quantity)
                            for s in data.treasure.table.lookup_table())),
        treasure_after_encounter=TreasureAfter.ENCOUNTER_WON in after,
        treasure_after_trap=TreasureAfter.TRAP_PASSED in after,
        wandering_treasure=data.floor.wandering_treasure.under(p),
        first_floor=data.floor.first_floor,
        max_rooms=data.floor.max_rooms,
        dead_end_check=_check_table(data, data.floor.dead_end_check),
        dead_end_lair=data.floor.dead_end_lair.under(p),
        forced_lair=data.floor.forced_stairs_lair,
        wandering_check=_check_table(data, data.floor.wandering_check),
        wandering_per_room=data.floor.wandering_checks.under(p) is WanderingChecks.PER_ROOM,
        events_reusable=not p.alt("IT-22"),
        win_floor=data.floor.win_floor.under(p),
        merchant_sells=data.merchant.trade.under(p) is Trade.SELLS,
        potion_price=prices.get(potion_id),
        dagger_price=prices.get(dagger_id),
        attribute_count=len(data.character.attributes),
        start_attributes=tuple(start.attribute_value for _ in data.character.attributes),
        start_points=start.attribute_points,
        start_hp=start.max_hp,
        start_level=start.level.under(p),
        start_xp=start.xp,
        start_kit=_gains(data, data.character.kit) + Gain(gold=start.gold),
        xp_total=data.leveling.counting.under(p) is XpCounting.TOTAL,
        level_base=data.leveling.base,
        level_step=data.leveling.per_level,
        max_hp_gain=data.leveling.max_hp_gain,
        hp_gain=data.leveling.hp_gain.under(p),
        attribute_gain=data.leveling.attribute_points,
    )


#: :func:`build_rules`, once per data object and set of readings.
rules_for = once_per_readings(build_rules)
