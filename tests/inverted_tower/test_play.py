"""``towerpress play``: one game, every step of it, replayed by an independent reading of
the rules.

:class:`Replay` is the rules of rulings.md 1.1-1.3 written again in a few lines, reading
only the content's data objects and the profile (never the engine's ``Rules``). It walks a
logged game step by step: the dice of each step must decide what the step says, and the
character sheet after it must follow from the sheet before. The policy is not replayed:
a decision may change the sheet only as a drink, daggers or a purchase do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from generator.engine.playlog import Step
from generator.engine.rng import normalise_seed
from generator.rulesets.inverted_tower.entities import (
    CritBasis,
    EffectKind,
    EliteCount,
    EventKind,
    RepeatRule,
    TermSource,
    TreasureAfter,
    WanderingChecks,
    XpCounting,
)
from generator.rulesets.inverted_tower.family import FAMILY
from generator.rulesets.inverted_tower.simulate import simulate, simulation_tape
from tests.inverted_tower.support import PROFILES, data, profile

SLOT = {EffectKind.CURRENCY: "gold", EffectKind.COMBAT_BONUS: "daggers",
        EffectKind.HEAL_TO_MAX: "potions"}
DRAWN = ("room", "wander", "attack")  # the steps whose dice come off the tape, in order


@dataclass
class Replay:
    """The rules again, minimal: what each step's dice decide and the sheet after it.

    It covers the readings the shipped profiles take (it says so where it assumes one).
    """

    profile_id: str
    sheet: dict[str, Any] = field(default_factory=dict)
    kinds: set[EventKind] = field(default_factory=set)  # event kinds on this floor
    rooms: int = 0
    stairs: bool = False
    last: bool = False
    foes: list[str] = field(default_factory=list)
    treasure: int = 0  # the die of the treasure a win or a passed trap gives, 0 for none
    trap: tuple[str, int] = ("", 0)  # the attribute and the die of the trap check to come
    daggers: int = 0  # daggers added to the coming roll

    def __post_init__(self) -> None:
        self.d, self.p = data(), profile(self.profile_id)
        assert not any(self.p.alt(r) for r in ("IT-09", "IT-10", "IT-29")), self.profile_id

    def v(self, varies: Any) -> Any:
        return varies.under(self.p)

    def passes(self, check: str, die: int) -> bool:
        return die >= self.d.rolls.check(check).target

    def gain(self, item: str, n: int) -> None:
        self.sheet[SLOT[self.d.item(item).effect.kind]] += n

    def start(self, step: Step) -> None:
        """The new character (rulings.md 1.1): the point is in the attribute the log says."""
        start, attrs = self.d.character.start, self.d.character.attributes
        self.sheet = {"floor": self.d.floor.first_floor, "hp": start.max_hp,
                      "max_hp": start.max_hp, "level": self.v(start.level), "xp": start.xp,
                      "gold": start.gold, "daggers": 0, "potions": 0}
        for stack in self.d.character.kit:
            self.gain(stack.item, stack.quantity)
        chosen = step.text.split(" goes to ")[1].split(":")[0]
        for a in attrs:
            self.sheet[a.code] = start.attribute_value + (
                start.attribute_points if a.code == chosen else 0)

    # -- the floor and its rooms --------------------------------------------------------

    def floor(self, step: Step) -> None:
        if self.rooms:
            self.sheet["floor"] += 1
        self.kinds, self.rooms, self.stairs, self.last = set(), 0, False, False
        assert step.text.startswith(f"Floor {self.sheet['floor']}:")

    def room(self, step: Step) -> None:
        de, ec, er, tk, tc, el, ct, tr, mn = step.dice[:9]
        assert not self.last
        self.rooms += 1
        head = step.text.split(";")[0]
        assert head.startswith(f"Room {self.rooms}: ")
        floor, forced = self.d.floor, self.rooms == self.d.floor.max_rooms and not self.stairs
        dead_end = self.stairs and self.passes(floor.dead_end_check, de)
        self.last = dead_end or self.rooms == floor.max_rooms
        if forced or (dead_end and self.v(floor.dead_end_lair)):  # IT-18
            return self.lair(step, head, forced, tr, mn)
        kind = self.d.events.table.lookup(er).kind if self.passes(
            self.d.events.room_check, ec) else None
        if kind in self.v(self.d.events.once_per_floor) and kind in self.kinds:
            assert self.v(self.d.events.on_repeat) is RepeatRule.ENCOUNTER
            kind = None  # IT-02: a repeated kind is an encounter
        if kind is None:
            return self.encounter(head, el, ct, tr, wandering=False)
        self.kinds.add(kind)
        self.stairs |= kind is EventKind.STAIRS
        assert f" {kind.value}" in head, head
        if kind is EventKind.TRAP:
            self.trap = (self.d.traps.table.lookup(tk).attribute, tc)
            after = self.v(self.d.treasure.after)
            self.treasure = tr if TreasureAfter.TRAP_PASSED in after else 0

    def lair(self, step: Step, head: str, forced: bool, tr: int, mn: int) -> None:
        b = self.d.bosses
        assert self.d.floor.forced_stairs_lair or not forced
        assert self.v(b.lair_treasure_rolls) <= 1 and len(step.dice) == 9
        n = b.minions_on_pass if self.passes(b.minion_check, mn) else b.minions_on_fail
        assert f"boss lair, {n} minions" in head, head
        self.stairs = True
        self.foes = [b.minion] * n + [b.monster]
        self.treasure = tr if self.v(b.lair_treasure_rolls) else 0

    def encounter(self, head: str, el: int, ct: int, tr: int, *, wandering: bool) -> None:
        n = self.d.encounters.count.lookup(ct)
        elite = self.passes(self.v(self.d.encounters.elite_check), el)
        elites = (n if self.v(self.d.encounters.elites) is EliteCount.ALL else 1) if elite else 0
        assert f"{n} monster" in head and (f"{elites} elite" in head) == bool(elites), head
        elite_id = self.d.monster(self.d.bosses.monster).fights_as
        self.foes = [self.d.bosses.minion] * (n - elites) + [elite_id] * elites
        won = TreasureAfter.ENCOUNTER_WON in self.v(self.d.treasure.after)
        self.treasure = tr if won and (
            not wandering or self.v(self.d.floor.wandering_treasure)) else 0

    def wander(self, step: Step) -> None:
        check, el, ct, tr = step.dice
        assert self.v(self.d.floor.wandering_checks) is WanderingChecks.PER_MOVE
        if not self.passes(self.d.floor.wandering_check, check):
            assert "no monster" in step.text
            self.foes, self.treasure = [], 0
            return
        self.encounter(step.text.split(";")[0], el, ct, tr, wandering=True)

    # -- rolls ----------------------------------------------------------------------------

    def hit(self, die: int, modifier: int, target: int) -> bool:
        """IT-08: a natural 1 misses, a 6 (or, under Alt, die plus daggers) hits."""
        dagger = next(i for i in self.d.items if i.effect.kind is EffectKind.COMBAT_BONUS)
        crits, bonus = self.d.rolls.crits, self.daggers * dagger.effect.amount
        six = die + (bonus if self.v(crits.applies_to) is CritBasis.TOTAL else 0)
        return die > crits.failure and (six >= crits.success or die + modifier + bonus >= target)

    def attack(self, step: Step) -> None:
        (die,) = step.dice
        foe = self.d.monster(self.foes[0])
        s = self.sheet
        value = {TermSource.ATTRIBUTE: max(s[a.code] for a in self.d.character.attributes),
                 TermSource.LEVEL: s["level"],
                 TermSource.FLOOR: s["floor"] - self.v(self.d.combat.floor_offset)}
        modifier = sum(t.sign * value[t.source] for t in self.v(foe.to_hit)
                       if t.source is not TermSource.DAGGERS)
        if self.hit(die, modifier, self.d.rolls.check(self.d.combat.check).target):
            assert f"on the {foe.name.lower()} " in step.text and ": a hit" in step.text
            s["xp"] += self.v(foe.xp)
            self.foes.pop(0)
        else:
            assert ": a miss" in step.text
            s["hp"] -= self.d.combat.fail_damage
        self.daggers = 0

    def trap_check(self, step: Step) -> None:
        attribute, die = self.trap
        assert step.dice == (die,) and not self.d.traps.daggers_allowed
        floor = self.sheet["floor"] - self.v(self.d.combat.floor_offset)
        modifier = self.sheet[attribute] - (floor if self.v(self.d.traps.subtract_floor) else 0)
        if self.hit(die, modifier, self.d.rolls.check(self.d.traps.check).target):
            assert step.text.endswith("passed")
        else:
            assert "failed" in step.text
            self.sheet["hp"] -= self.d.traps.fail_damage
            self.treasure = self.treasure if self.d.traps.fail_treasure else 0

    # -- the sheet ----------------------------------------------------------------------

    def treasure_roll(self, step: Step) -> None:
        assert not self.foes and step.dice == (self.treasure,) != (0,)
        stack = self.d.treasure.table.lookup(self.treasure)
        self.gain(stack.item, stack.quantity)

    def level(self, step: Step) -> None:
        s, leveling = self.sheet, self.d.leveling
        if self.v(leveling.counting) is XpCounting.TOTAL:  # IT-12 Alt: the thresholds add up
            first = self.v(self.d.character.start.level)
            assert s["xp"] >= sum(leveling.cost(lv) for lv in range(first, s["level"] + 1))
        else:
            s["xp"] -= leveling.cost(s["level"])
        s["level"] += 1
        s["max_hp"] += leveling.max_hp_gain
        s["hp"] = min(s["max_hp"], s["hp"] + self.v(leveling.hp_gain))
        s[step.text.split(", ")[2].split()[0]] += leveling.attribute_points

    def decision(self, step: Step) -> None:
        """A choice changes the sheet only as a potion, daggers or a purchase do."""
        s, after, words = self.sheet, dict(step.state), step.text.split()
        if words[0] == "drink":
            s["hp"], s["potions"] = s["max_hp"], s["potions"] - 1
        elif words[0] in ("spend", "declare"):
            self.daggers = int(words[1])
            s["daggers"] -= self.daggers
        elif words[0] == "buy":
            for offer in self.d.merchant.stock:
                slot = SLOT[self.d.item(offer.item).effect.kind]
                bought = after[slot] - s[slot]
                assert bought >= 0
                s[slot] += bought
                s["gold"] -= bought * offer.price

    def potion(self, step: Step) -> None:
        assert self.p.alt("IT-11") and self.sheet["hp"] <= 0  # IT-11 Alt: drunk by itself
        self.sheet["hp"], self.sheet["potions"] = self.sheet["max_hp"], self.sheet["potions"] - 1

    def bonfire(self, step: Step) -> None:
        self.sheet["hp"] = self.sheet["max_hp"]

    def loot(self, step: Step) -> None:
        for stack in self.d.bosses.loot:
            self.gain(stack.item, stack.quantity)

    def check(self, step: Step) -> None:
        """Replay one step: what it must say, and the sheet after it."""
        handlers = {"floor": self.floor, "room": self.room, "wander": self.wander,
                    "attack": self.attack, "trap": self.trap_check,
                    "treasure": self.treasure_roll, "level": self.level,
                    "decision": self.decision, "potion": self.potion,
                    "bonfire": self.bonfire, "loot": self.loot}
        handler = handlers.get(step.what)
        if handler is not None:
            handler(step)
        else:
            assert step.what in ("start", "death", "end"), step.what
        assert dict(step.state) == self.sheet, (step, self.sheet)


#: What follows a move of the reference player.
NEXT = {"explore": ("room",), "walk": ("wander",), "go": ("floor", "end")}


def replay(profile_id: str, seed: int) -> set[str]:
    """Play ``seed`` and replay every step of it; the kinds of step it holds."""
    canonical = normalise_seed(seed)
    game = FAMILY.play(data(), profile(profile_id), canonical, FAMILY.default_depth)
    steps = game.steps
    r = Replay(profile_id)
    r.start(steps[0])
    for step, after in zip(steps, (*steps[1:], None), strict=True):
        r.check(step)
        follows = NEXT.get(step.text.split()[0]) if step.what == "decision" else None
        assert follows is None or (after is not None and after.what in follows), (step, after)
    last, outcome = steps[-1], game.outcome
    assert last.what == ("end" if outcome.won else "death")
    assert outcome.won or (r.sheet["hp"] <= 0 and str(outcome.death).split()[0] in last.text)
    assert outcome.depth == r.sheet["floor"] - data().floor.first_floor + 1
    assert outcome.rooms == sum(s.what == "room" for s in steps)
    # The dice are the simulation's own tape, and the game its first.
    drawn = bytes(d for s in steps if s.what in DRAWN for d in s.dice)
    assert simulation_tape(canonical, data().rolls.faces).fresh(len(drawn)).startswith(drawn)
    assert outcome == simulate(data(), profile(profile_id), 1, canonical, 10)[0]
    return {s.what for s in steps}


@pytest.mark.parametrize("profile_id", PROFILES)
def test_logged_games_replay_step_by_step(profile_id: str) -> None:
    seen: set[str] = set()
    for seed in range(50):
        seen |= replay(profile_id, seed)
    every = {"start", "floor", "decision", "room", "attack", "trap", "treasure", "level",
             "wander", "bonfire", "loot", "death", "end"}
    assert every <= seen, every - seen
    assert ("potion" in seen) == profile(profile_id).alt("IT-11")


@pytest.mark.parametrize("profile_id", PROFILES)
def test_play_is_the_first_game_of_simulate(profile_id: str) -> None:
    """The contract of ``Family.play``, over many seeds (the fast path plays simulate)."""
    p = profile(profile_id)
    for seed in range(200):
        canonical = normalise_seed(seed)
        assert FAMILY.play(data(), p, canonical, 3).outcome == simulate(
            data(), p, 1, canonical, 3)[0], seed


def test_play_reads_the_reference_path_too() -> None:
    """A reading only the reference rules play (IT-10 Alt) keeps the contract."""
    p = profile(alts=("IT-10",))
    for seed in range(20):
        canonical = normalise_seed(seed)
        game = FAMILY.play(data(), p, canonical, 3)
        assert game.outcome == simulate(data(), p, 1, canonical, 3)[0]
