"""Exact odds of 3 Dice Dungeon, as Fractions (style.md: exact, counted, not sampled).

- :func:`hit_chance`: one attack roll (DD-04, crits, DD-23).
- :func:`fight_odds`: a whole fight against one monster from given HP, by dynamic
  programming over (player HP, monster HP, monster Mind, abilities used) with the very
  monster functions the simulator plays (:mod:`.combat`); ``player_hp=None`` gives the
  expected cost of a kill with unlimited HP (the figures of rulings.md 2.2).
- :func:`location_odds`: the location table's distributions (kinds, monsters with
  training wheels and elites, exit rolls, treasures, mean XP).

Self-loops (a round that changes nothing, e.g. a monster out of Mind hitting for 0) are
solved in closed form, so every result is exact.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from generator.rulesets.three_dice_dungeon.combat import (
    MonsterState,
    hit_faces,
    monster_round_start,
    monster_strike,
)
from generator.rulesets.three_dice_dungeon.effects import Dice
from generator.rulesets.three_dice_dungeon.parameters import DIE
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules

ONE = Fraction(1)
ZERO = Fraction(0)


def attack_modifier(rules: Rules, attribute: int, bonus: int, bleeding: bool) -> int:
    """The number added to the die: the attribute (DD-04 Faithful only), bonuses, DD-23."""
    modifier = (attribute if rules.attribute_to_hit else 0) + bonus
    if bleeding and rules.bleeding:
        modifier += rules.data.combat.bleeding_attack_modifier
    return modifier


def hit_chance(
    rules: Rules, attribute: int, bonus: int, armour: int, bleeding: bool = False
) -> Fraction:
    """P(one attack roll hits) = hitting faces / faces (crits included)."""
    return Fraction(
        hit_faces(rules, attack_modifier(rules, attribute, bonus, bleeding), armour), DIE
    )


@dataclass(frozen=True)
class FightOdds:
    """A fight's exact figures: P(win), E[damage taken], E[attack rolls]."""

    win: Fraction
    damage: Fraction
    rounds: Fraction

    @property
    def death(self) -> Fraction:
        return 1 - self.win


Triple = tuple[Fraction, Fraction, Fraction]  # (P(win), E[damage taken], E[attack rolls])
FightState = tuple[int | None, MonsterState]  # (player HP, None if unlimited; the monster)
#: One way a round goes: its probability, the state it leads to (None: the fight is over)
#: and what it adds to the Triple.
Branch = tuple[Fraction, FightState | None, Triple]
#: A branch with the value of the state it leads to (None: the fight is over; LOOP: here).
Valued = tuple[Fraction, Triple | None, Triple]

LOOP: Triple = (Fraction(-1), Fraction(-1), Fraction(-1))  # sentinel: "this same state"


def fight_odds(
    rules: Rules,
    foe: Foe,
    faces: int,
    damage: int,
    player_hp: int | None,
    floor: int | None = None,
) -> FightOdds:
    """Exact odds of fighting ``foe`` to the end without items or powers.

    ``faces`` is how many die faces hit, ``damage`` what a hit does to the monster,
    ``player_hp`` the HP at the start (None: unlimited, so the fight is always won and
    ``damage`` is the expected cost of the kill), ``floor`` the HP at or below which the
    player dies (default: the rules' death threshold).

    Raises:
        ValueError: no face hits and the fight could never end.
    """
    if faces <= 0:
        raise ValueError("no face of the die hits: the fight never ends")
    dead_at = rules.data.combat.death_at if floor is None else floor
    defeated_at = rules.data.combat.monster_defeated_at
    p = Fraction(faces, DIE)
    q = 1 - p
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))

    @cache
    def value(hp: int | None, state: MonsterState) -> Triple:
        here = (hp, state)
        mid = monster_round_start(rules, foe, state)
        hit = _player_hits(p, hp, mid, damage, defeated_at)
        miss = _monster_hits(rules, foe, q, hp, mid, dead_at)
        return _solve([valued(hit, here), valued(miss, here)])

    def valued(branch: Branch, here: FightState) -> Valued:
        prob, nxt, gain = branch
        if nxt is None:
            return (prob, None, gain)
        # A branch back to this very state is marked by a sentinel and solved in closed form.
        return (prob, LOOP if nxt == here else value(*nxt), gain)

    try:
        win, dmg, rounds = value(player_hp, (foe.hp, foe.mind, 0))
    finally:
        sys.setrecursionlimit(limit)
    return FightOdds(win, dmg, rounds)


def _player_hits(
    p: Fraction, hp: int | None, mid: MonsterState, damage: int, defeated_at: int
) -> Branch:
    """The player hits (probability ``p``): the monster is defeated (DD-07) or wounded."""
    after = mid[0] - damage
    if after <= defeated_at:
        return (p, None, (ONE, ZERO, ONE))
    return (p, (hp, (after, mid[1], mid[2])), (ZERO, ZERO, ONE))


def _monster_hits(
    rules: Rules, foe: Foe, q: Fraction, hp: int | None, mid: MonsterState, dead_at: int
) -> Branch:
    """The player misses (probability ``q``): the monster hits, and the player may die."""
    strike = monster_strike(rules, foe, mid)
    taken = sum(strike.hits)
    gain = (ZERO, Fraction(taken), ONE)
    if hp is not None and hp - taken <= dead_at:
        return (q, None, gain)
    return (q, (None if hp is None else hp - taken, strike.state), gain)


def _solve(branches: list[Valued]) -> Triple:
    """V = sum of p_i * (gain_i + V_i), where V_i may be V itself (a self-loop)."""
    loop = ZERO
    total = [ZERO, ZERO, ZERO]
    for prob, nxt, gain in branches:
        for k in range(3):
            total[k] += prob * gain[k]
        if nxt is LOOP:
            loop += prob
        elif nxt is not None:
            for k in range(3):
                total[k] += prob * nxt[k]
    if loop:
        if loop == 1:
            raise ValueError("a fight state that can never change: the fight never ends")
        total = [t / (1 - loop) for t in total]
    return (total[0], total[1], total[2])


# -- the location table -------------------------------------------------------------------


def dice_distribution(dice: Dice) -> dict[int, Fraction]:
    """The exact distribution of ``count d faces + plus``."""
    dist: dict[int, Fraction] = {dice.plus: ONE}
    for _ in range(dice.count):
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        for total, prob in dist.items():
            for face in range(1, dice.faces + 1):
                nxt[total + face] += prob / dice.faces
        dist = dict(nxt)
    return dist


def location_odds(rules: Rules, undead: bool, wheel: int) -> list[tuple[str, Fraction]]:
    """Distributions of one location's roll (``wheel``: its training-wheel number, 0 none).

    Lines: each location kind, each monster (elites by base), each rolled exit count
    (before DD-11 drops), each treasure item, and the mean XP (three dice + elite die).
    """
    table = rules.table(undead)
    faces = range(1, table.rows.faces + 1)
    each = Fraction(1, table.rows.faces)
    out: list[tuple[str, Fraction]] = []
    kinds: dict[str, Fraction] = defaultdict(Fraction)
    exits: dict[int, Fraction] = defaultdict(Fraction)
    for face in faces:
        kind = table.rows.lookup(face).location
        kinds[kind] += each
        for n, prob in dice_distribution(rules.exit_dice[kind]).items():
            exits[n] += each * prob
    for kind, prob in kinds.items():
        out.append((f"location {rules.kinds[kind].name}", prob))
    # The monster die after training-wheel rerolls: uniform over the faces kept.
    reroll = rules.wheels.get(wheel, ())
    kept = [f for f in faces if f not in reroll]
    monsters: dict[str, Fraction] = defaultdict(Fraction)
    elite_chance = ZERO
    mean_die = Fraction(sum(kept), len(kept))
    elite = rules.data.elite
    for face in kept:
        row = table.rows.lookup(face)
        prob = Fraction(1, len(kept))
        if not row.elite:
            monsters[row.monster] += prob
            continue
        elite_chance += prob
        if rules.elite_rerolls_base:  # DD-13: the base from a reroll of the non-elite faces
            bases = [
                f for f in faces if f not in elite.reroll_faces and not table.rows.lookup(f).elite
            ]
            for base in bases:
                monsters["elite " + table.rows.lookup(base).monster] += prob / len(bases)
        else:
            monsters["elite " + table.rows.lookup(rules.signature_face()).monster] += prob
    for name, prob in monsters.items():
        out.append((f"monster {name}", prob))
    for n in sorted(exits):
        out.append((f"exits rolled {n}", exits[n]))
    for item, prob in sorted(treasure_distribution(rules, undead).items()):
        out.append((f"treasure {item}", prob))
    xp_bonus = sum((v * p for v, p in dice_distribution(elite.xp_bonus).items()), ZERO)
    mean_face = Fraction(sum(faces), len(faces))
    out.append(("mean XP", mean_face + mean_die + mean_face + elite_chance * xp_bonus))
    return out


def treasure_distribution(rules: Rules, undead: bool) -> dict[str, Fraction]:
    """P(each item) from the treasure column, following the charts it sends to."""
    table = rules.table(undead)
    dist: dict[str, Fraction] = defaultdict(Fraction)
    for face in range(1, table.rows.faces + 1):
        reward = table.rows.lookup(face).treasure
        gain = reward.gain_for(rules.gain_alt(reward.alt_ruling))
        prob = Fraction(1, table.rows.faces)
        if gain.item:
            dist[gain.item] += prob
        else:
            for item, sub in chart_distribution(rules, gain.chart).items():
                dist[item] += prob * sub
    return dict(dist)


def chart_distribution(rules: Rules, chart: str) -> Mapping[str, Fraction]:
    """P(each item) from one roll on ``chart``, following a chart it sends to."""
    data = rules.data
    dist: dict[str, Fraction] = defaultdict(Fraction)
    if chart == "items":
        for face in range(1, data.items.faces + 1):
            entry = data.items.lookup(face)
            prob = Fraction(1, data.items.faces)
            if entry.item is not None:
                dist[entry.item.name] += prob
            else:
                for item, sub in chart_distribution(rules, entry.chart).items():
                    dist[item] += prob * sub
        return dist
    source = data.stones if chart == "stones" else data.artifacts
    for face in range(1, source.faces + 1):
        dist[source.lookup(face).name] += Fraction(1, source.faces)
    return dist
