"""``towerpress play`` for 3 Dice Dungeon: the game is the first one ``simulate`` plays, and
an independent replay of its log checks every step.

The replay is a minimal reading of the rules written here, apart from the engine: it reads
numbers and tables from the loaded content (never retyped) and the profile's readings, and
checks that each step's dice decide what the step says (a location's kind, monster and
treasure, a hit or a miss, the damage) and that the character's state follows (HP, XP,
coins, the monster's HP).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from generator.engine.playlog import Step
from generator.model.common import Profile
from generator.rulesets.three_dice_dungeon.effects import ATTRIBUTES, EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import LevelRow
from generator.rulesets.three_dice_dungeon.family import FAMILY
from tests.three_dice_dungeon.support import data, profile

SEEDS = ("int:1", "int:2", "int:5", "int:8", "int:42", "str:tonight")
VARIANTS = [("as-written", ()), ("d6-scale", ()), ("balanced", ()),
            ("d6-scale", ("DD-13", "DD-21", "DD-33")), ("d6-scale", ("DD-05", "DD-06", "DD-22"))]


@pytest.mark.parametrize(("base", "alts"), VARIANTS)
def test_a_played_game_is_the_first_game_simulate_plays(base: str, alts: tuple[str, ...]
                                                        ) -> None:
    for seed in SEEDS:
        game = FAMILY.play(data(), profile(base, alts), seed, 3)
        (first,) = FAMILY.simulate(data(), profile(base, alts), 1, seed, 3, None)
        assert game.outcome == first, seed
        assert game.steps[0].what == "character"


@pytest.mark.parametrize(("base", "alts"), VARIANTS)
def test_an_independent_replay_agrees_with_every_step(base: str, alts: tuple[str, ...]
                                                      ) -> None:
    for seed in SEEDS:
        game = FAMILY.play(data(), profile(base, alts), seed, 3)
        Replay(profile(base, alts)).check(game.steps)


def _tampered(steps: tuple[Step, ...], what: str, change: Any) -> tuple[int, tuple[Step, ...]]:
    """The log with the first step of kind ``what`` changed; its number."""
    i = next(i for i, step in enumerate(steps) if step.what == what)
    return i + 1, (*steps[:i], change(steps[i]), *steps[i + 1:])


def test_the_replay_finds_a_step_that_does_not_follow() -> None:
    steps = FAMILY.play(data(), profile("d6-scale"), "int:8", 3).steps
    Replay(profile("d6-scale")).check(steps)
    changes = [
        ("location", lambda s: replace(s, dice=(s.dice[0] % 6 + 1,))),  # another kind
        ("attack", lambda s: replace(s, text=re.sub(r"(hit|miss)$", lambda m: {
            "hit": "miss", "miss": "hit"}[m.group(1)], s.text))),
        ("hurt", lambda s: replace(s, state=tuple((k, v + 1 if k == "HP" else v)
                                                  for k, v in s.state))),
    ]
    for what, change in changes:
        number, broken = _tampered(steps, what, change)
        with pytest.raises(AssertionError, match=f"^step {number}: "):
            Replay(profile("d6-scale")).check(broken)


def _items(state: dict[str, Any]) -> dict[str, int]:
    text = str(state["items"])
    found: dict[str, int] = {}
    for part in ([] if text == "none" else text.split(", ")):
        name, _, count = part.partition(" x")
        found[name] = int(count or 1)
    return found


class Replay:
    """The rules once more, as small as they go; ``check`` fails on the first wrong step."""

    def __init__(self, p: Profile):
        self.p, self.d = p, data()
        self.items = self.d.all_items()
        self.s: dict[str, Any] = {}  # the state before the step
        self.level, self.undead, self.distance, self.pos = 0, False, 0, ""
        self.subst: dict[str, str] = {}
        self.monsters: dict[tuple[int, str], tuple[str, int, bool, int, str]] = {}
        self.met: tuple[str, int, bool, int, str] = ("", 0, False, 0, "")
        self.foe: dict[str, Any] = {}
        self.boosts: dict[str, int] = {}
        self.rod = 0

    def check(self, steps: tuple[Step, ...]) -> None:
        # Every kind of step has its check; a kind without one fails (KeyError).
        checks = {
            "character": self._character, "level": self._level, "location": self._location,
            "substitution": self._substitution, "monster": self._monster,
            "treasure": self._treasure, "exits": self._exits, "roaming": self._roaming,
            "fight": self._fight, "decision": self._decision, "attack": self._attack,
            "damage": self._damage, "regenerate": self._regenerate, "hurt": self._hurt,
            "absorb": self._absorb, "loot": self._loot, "take": self._take, "xp": self._xp,
            "level up": self._level_up, "class": self._class, "artifact": self._artifact,
            "flee": self._flee, "soul": self._soul, "move": self._unchanged,
            "asleep": self._unchanged, "leave": self._unchanged, "mind": self._unchanged,
        }
        for number, step in enumerate(steps, 1):
            after: dict[str, Any] = dict(step.state)
            try:
                checks[step.what](step, after)
                assert after["HP"] <= after["max HP"]
            except Exception as error:
                raise AssertionError(f"step {number}: {step}") from error
            self.s = after

    # -- helpers: the content's tables and the profile's readings --------------------------

    def alt(self, ruling: str) -> bool:
        return bool(ruling) and self.p.alt(ruling)

    def row(self, face: int) -> LevelRow:
        return (self.d.undead_level if self.undead else self.d.main_level).rows.lookup(face)

    def chart(self, chart: str, faces: list[int]) -> str:
        for face in faces:
            if chart == "items":
                entry = self.d.items.lookup(face)
                if entry.item is not None:
                    return entry.item.name
                chart = entry.chart
            else:
                return (self.d.stones if chart == "stones" else self.d.artifacts).lookup(face).name
        return ""

    def bonus(self, kinds: tuple[EffectKind, ...], stat: str | None = None) -> int:
        """Lasting items' bonuses of these kinds (copies add up only if the item stacks)."""
        total = 0
        for name, count in _items(self.s).items():
            item = self.items[name]
            effect = item.alt.effect if item.alt and self.alt(item.alt.ruling) else item.effect
            if item.single_use or effect.kind not in kinds:
                continue
            if effect.kind is EffectKind.ROLL_BONUS and effect.stat is not None \
                    and effect.stat.value != stat:
                continue
            total += effect.amount * (count if item.stacks else 1)
        return total

    def stats(self, name: str, die: int, elite: bool) -> dict[str, Any]:
        borrowed = self.d.undead_borrows.get(name, name)
        m = self.d.monster(self.subst.get(borrowed, borrowed))
        plus = self.d.elite.stat_bonus if elite else 0
        scale = self.d.d6_scale
        if self.alt("DD-28"):
            armour = die * scale.alt_armor_per_pip if self.alt("DD-34") else m.dexterity
            return {"hp": die * scale.hp_per_pip + plus, "armour": armour + plus,
                    "damage": scale.monster_damage, "mind": m.mind + plus, "loot": m.loot,
                    "abilities": m.abilities if scale.monster_abilities else ()}
        damage = m.dexterity if self.alt("DD-05") else m.strength
        return {"hp": m.hp + plus, "armour": m.dexterity + plus, "damage": damage + plus,
                "mind": m.mind + plus, "abilities": m.abilities, "loot": m.loot}

    # -- the character and the map ---------------------------------------------------------

    def _character(self, step: Step, s: dict[str, Any]) -> None:
        spec = self.d.character
        total = sum(step.dice) + spec.dice.plus
        if not step.dice:  # the HP line (DD-02 Faithful: the sum of the attributes)
            assert s["HP"] == sum(s[stat.value] for stat in spec.hp_sum_of)
        elif "rolled again" in step.text:
            assert total <= spec.reroll_if_total_at_most
        else:
            assert total > spec.reroll_if_total_at_most
            assert [s[a.stat.value] for a in spec.attributes] == list(step.dice)

    def _level(self, step: Step, s: dict[str, Any]) -> None:
        self.level = int(step.text.split()[1].rstrip(","))
        self.undead = "undead" in step.text

    def _substitution(self, step: Step, s: dict[str, Any]) -> None:
        name, used = re.fullmatch(r"This dungeon's (.+) are (.+)", step.text).groups()  # type: ignore[union-attr]
        self.subst[name] = used

    def _location(self, step: Step, s: dict[str, Any]) -> None:
        found = re.fullmatch(r"Discover (\(\d+, \d+\)), (.+): location die (\d), (.+)", step.text)
        assert found is not None
        self.pos, where, die, kind = found.groups()
        self.kind = self.d.location_kinds[self.row(int(die)).location]
        assert step.dice == (int(die),) and kind == self.kind.name
        self.distance = 0 if where == "the start" else int(where.split()[0])
        self.loc_dice = [int(die)]

    def _monster(self, step: Step, s: dict[str, Any]) -> None:
        if not step.dice:  # back at a location whose monster lives
            self.met = self.monsters[(self.level, step.text.split(": ")[0][len("Back at "):])]
            return
        dice = iter(step.dice)
        wheels = {w.location: w.alt_reroll if self.alt(w.alt_ruling) else w.reroll
                  for w in self.d.training_wheels} if self.level == 1 else {}
        face = next(dice)
        while face in wheels.get(self.distance + 1, ()):  # DD-29, on the first level only
            face = next(dice)
        elite, base, bonus = self.row(face).elite, face, 0
        if elite and not self.alt("DD-13"):
            base = next(dice)
            while base in self.d.elite.reroll_faces or self.row(base).elite:
                base = next(dice)
        elif elite:
            base = next(r.low for r in self.d.main_level.rows.rows
                        if r.value.monster and not self.d.monster(r.value.monster).swappable)
        if elite:
            bonus = sum(next(dice) for _ in range(self.d.elite.xp_bonus.count))
            bonus += self.d.elite.xp_bonus.plus
        assert list(dice) == []
        name = self.row(base).monster
        shown = name if name in self.d.undead_borrows else self.subst.get(name, name)
        assert step.text.endswith(f": {shown}" + (" (elite)" if elite else ""))
        self.loc_dice += [face]
        self.met = (name, base, elite, bonus, "")
        self.monsters[(self.level, self.pos)] = self.met

    def _treasure(self, step: Step, s: dict[str, Any]) -> None:
        reward = self.row(step.dice[0]).treasure
        gain = reward.gain_for(self.alt(reward.alt_ruling))
        item = gain.item or self.chart(gain.chart, list(step.dice[1:]))
        assert step.text.endswith(item)
        name, base, elite, bonus, _ = self.met
        xp = sum(self.loc_dice) + step.dice[0] + bonus
        self.met = (name, base, elite, xp, item)
        self.monsters[(self.level, self.pos)] = self.met

    def _exits(self, step: Step, s: dict[str, Any]) -> None:
        dice = self.kind.exits_for(self.alt("DD-10"))
        count = sum(step.dice[len(step.dice) - dice.count:]) + dice.plus
        assert step.text.startswith(f"{count} exit")

    def _roaming(self, step: Step, s: dict[str, Any]) -> None:
        roaming = self.d.exploring.roaming
        name = roaming.table.lookup(step.dice[0])
        if not name:
            assert step.text.endswith("no monster") and len(step.dice) == 1
            return
        die, xp = step.dice[0], 0
        if self.alt("DD-21"):  # the monster column, rerolling the high faces
            assert all(f in roaming.alt_reroll for f in step.dice[1:-1])
            die, xp = step.dice[-1], step.dice[0] * roaming.alt_xp_per_pip
            assert die not in roaming.alt_reroll
            name = self.row(die).monster
        shown = name if name in self.d.undead_borrows else self.subst.get(name, name)
        assert step.text.endswith(f": {shown}")
        self.met = (name, die, False, xp, "")

    # -- fights ----------------------------------------------------------------------------

    def _fight(self, step: Step, s: dict[str, Any]) -> None:
        self.foe = self.stats(*self.met[:3])
        assert f"HP {self.foe['hp']}, armour {self.foe['armour']}, damage " \
               f"{self.foe['damage']}" in step.text
        assert (s["monster HP"], s["monster Mind"]) == (self.foe["hp"], self.foe["mind"])
        self.boosts = {}

    def _decision(self, step: Step, s: dict[str, Any]) -> None:
        healed = re.fullmatch(r"Drink the (.+): at HP (-?\d+) the next hit .*", step.text)
        if healed is not None:  # a healing potion, never above the maximum
            amount = self.items[healed.group(1)].effect.amount
            assert s["HP"] == min(s["max HP"], int(healed.group(2)) + amount)
        elif "at HP " not in step.text:  # a class's healing power is the other heal
            assert s["HP"] == self.s["HP"]
        klass = next((c for c in self.d.classes if c.name == s["class"]), None)
        if klass is not None and step.text.startswith(f"{klass.power.name} for this fight"):
            for effect in klass.power.effects:  # Rage: a boost for the fight (DD-27)
                if effect.kind is EffectKind.BOOST and effect.stat is not None:
                    self.boosts[effect.stat.value] = effect.amount

    def _attack(self, step: Step, s: dict[str, Any]) -> None:
        found = re.fullmatch(r"Attack with (\w+): die (\d) ([+-]\d+) = (-?\d+) against armour "
                             r"(-?\d+): (natural \d, a )?(hit|miss)", step.text)
        assert found is not None
        stat, die, mod, total, armour, _, result = found.groups()
        combat = self.d.combat
        own = 0 if self.alt("DD-04") else self.s[stat] + self.boosts.get(stat, 0)
        bleeding = not self.alt("DD-23") and min(self.s[a.value] for a in ATTRIBUTES) <= \
            combat.bleeding_attribute_at
        own += self.bonus((EffectKind.ROLL_BONUS, EffectKind.ATTACK_BONUS), stat)
        own += combat.bleeding_attack_modifier if bleeding else 0
        assert (step.dice, int(mod), int(total), int(armour)) == (
            (int(die),), own, int(die) + own, self.foe["armour"])
        face = int(die)
        hit = face == combat.crit_hit or (face != combat.crit_miss and face + own > int(armour))
        assert result == ("hit" if hit else "miss")
        self.stat = stat

    def _damage(self, step: Step, s: dict[str, Any]) -> None:
        dealt = int(step.text.split()[0])
        plus = self.bonus((EffectKind.DAMAGE_BONUS,))
        if self.alt("DD-28"):
            assert dealt == self.d.d6_scale.player_damage + plus
        else:
            stat = self.stat if self.alt("DD-06") else self.d.combat.damage_stat.value
            assert dealt == self.s[stat] + self.boosts.get(stat, 0) + plus
        assert s["monster HP"] == self.s["monster HP"] - dealt
        assert ("defeated" in step.text) == (s["monster HP"] <= self.d.combat.monster_defeated_at)

    def _regenerate(self, step: Step, s: dict[str, Any]) -> None:
        assert self.s["monster HP"] < s["monster HP"] <= self.foe["hp"]
        assert s["monster Mind"] < self.s["monster Mind"]

    def _hurt(self, step: Step, s: dict[str, Any]) -> None:
        found = re.fullmatch(r"The (.+) hit for (\d+)( \((\d+) Mind paid for its ability\))?"
                             r"(, (\d+) of it taken)?(: you are dead)?", step.text)
        assert found is not None
        damage, paid, taken = found.group(2), found.group(4), found.group(6)
        mind, expected = self.s["monster Mind"], self.foe["damage"]
        for ability in self.foe["abilities"]:  # DD-08: each on-hit bonus it can pay for
            if ability.kind.value == "damage_bonus" and mind >= ability.mind_cost:
                mind, expected = mind - ability.mind_cost, expected + ability.amount
            elif ability.kind.value == "steal_coins" and mind >= ability.mind_cost:
                mind -= ability.mind_cost
        assert (int(damage), s["monster Mind"]) == (expected, mind)
        assert int(paid or 0) == self.s["monster Mind"] - mind
        lost = int(taken) if taken is not None else int(damage)
        assert s["HP"] == self.s["HP"] - lost
        souls = [self.items[n].effect.floor for n in _items(s)
                 if self.items[n].effect.kind is EffectKind.SOUL_STONE]
        floor = souls[0] if souls else self.d.combat.death_at
        assert (found.group(7) is not None) == (s["HP"] <= floor)

    def _absorb(self, step: Step, s: dict[str, Any]) -> None:
        soaked = int(step.text.split()[-1])
        assert s["absorb left"] == self.s["absorb left"] - soaked

    def _loot(self, step: Step, s: dict[str, Any]) -> None:
        if step.ruling == "DD-33":  # the Dragons' Special, a roll on the artifact table
            assert step.text.endswith(self.d.artifacts.lookup(step.dice[-1]).name)
            return
        loot = self.foe["loot"]
        assert s["coins"] == self.s["coins"] + loot.coins + self.rod
        self.rod = 0

    def _take(self, step: Step, s: dict[str, Any]) -> None:
        item = self.met[4]
        assert step.text == f"Take the treasure: {item}"
        effect = self.items[item].effect
        if effect.kind is EffectKind.COINS_NEXT_FIGHT:
            self.rod += effect.amount
        elif effect.kind is EffectKind.RAISE_MAX and effect.stat is not None:
            key = "max HP" if effect.stat is Stat.HP else effect.stat.value
            assert s[key] == self.s[key] + effect.amount
        elif effect.kind is not EffectKind.MIND_TOKEN:
            assert _items(s)[item] == _items(self.s).get(item, 0) + 1

    def _xp(self, step: Step, s: dict[str, Any]) -> None:
        gained = int(step.text.split()[0])
        assert gained == self.met[3] and s["XP"] == self.s["XP"] + gained

    def _level_up(self, step: Step, s: dict[str, Any]) -> None:
        if step.text.startswith("Level "):
            assert s["level"] == self.s["level"] + 1
            assert s["XP"] >= self.d.experience.threshold(s["level"])

    def _class(self, step: Step, s: dict[str, Any]) -> None:
        klass = next(c for c in self.d.classes if c.name == s["class"])
        assert s["max HP"] == self.s["max HP"] + klass.hp

    def _artifact(self, step: Step, s: dict[str, Any]) -> None:
        name = self.d.artifacts.lookup(step.dice[0]).name
        assert step.text.endswith(name) and name in _items(s)

    def _flee(self, step: Step, s: dict[str, Any]) -> None:
        if step.dice:  # the way out, a die of as many faces as the location has doors
            faces = int(step.text.split()[1].removeprefix("d").rstrip(":"))
            assert 1 <= step.dice[0] <= faces

    def _unchanged(self, step: Step, s: dict[str, Any]) -> None:
        assert (s["HP"], s["XP"]) == (self.s["HP"], self.s["XP"])

    def _soul(self, step: Step, s: dict[str, Any]) -> None:
        assert s["XP"] < self.s["XP"]
