"""Every ruling of The Inverted Tower whose readings differ in play, shown both ways.

Each test builds a small scenario with scripted dice and shows the as-written profile
doing the Faithful reading and the same profile with that one ruling switched to Alt
doing the other (rulings.md section 1.3).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from fractions import Fraction

import pytest

from generator.rulesets.inverted_tower.entities import EventKind
from generator.rulesets.inverted_tower.game import explore, last_floor, walk_back
from generator.rulesets.inverted_tower.odds import fight_odds, hit_chance
from generator.rulesets.inverted_tower.policy import REFERENCE, Policy, may_descend
from generator.rulesets.inverted_tower.procedures import (
    attack,
    gain_xp,
    hurt,
    level_up,
    shop,
    start_fight,
)
from generator.rulesets.inverted_tower.rooms import NeedMoreDice, record_room, resolve_room
from generator.rulesets.inverted_tower.rules import NEVER, Gain, Rules
from generator.rulesets.inverted_tower.state import (
    ROOM_FIELDS,
    FloorState,
    Hero,
    RoomKind,
    RoomRoll,
    WanderRoll,
)
from tests.inverted_tower.support import both, data, hero, roll, rules, ruleset, tape

FLOOR1 = FloorState(floor=1)

#: Rulings whose two readings play the same (or that have one reading), and why.
SAME_IN_PLAY = {
    "IT-01": "both nestings of the outline give the same procedure",
    "IT-06": "one reading only",
    "IT-14": "one reading only",
    "IT-17": "one roll per monster per round is the same process as one at a time",
    "IT-19": "the example log is illustration only; the player's choices are the policy's",
    "IT-30": "one reading only",
    "IT-31": "one reading only",
    "IT-33": "one reading only",
    "IT-34": "one reading only",
}


def test_every_ruling_is_shown_in_play_or_listed() -> None:
    tested = {name.split("_")[1].upper().replace("IT", "IT-")
              for name in globals() if name.startswith("test_it")}
    ids = {r.id for r in ruleset().rulings}
    assert ids == tested | set(SAME_IN_PLAY), sorted(ids ^ (tested | set(SAME_IN_PLAY)))


def test_room_roll_fields_follow_the_tape_order() -> None:
    assert tuple(f.name for f in fields(RoomRoll))[: len(ROOM_FIELDS)] == ROOM_FIELDS


def test_same_in_play_rulings_change_no_rule() -> None:
    for ruling in ("IT-17", "IT-20", "IT-01", "IT-19"):
        faithful, alt = both(ruling)
        for f in fields(Rules):
            if f.name not in ("profile", "_need"):
                assert getattr(faithful, f.name) == getattr(alt, f.name), (ruling, f.name)


# -- a new room -------------------------------------------------------------------------


def test_it02_repeated_event_becomes_encounter_or_rerolls() -> None:
    faithful, alt = both("IT-02")
    fs = replace(FLOOR1, kinds=frozenset({EventKind.MERCHANT}))
    merchant_again = roll(event_check=5, event_roll=4)
    room = resolve_room(faithful, fs, merchant_again)
    assert (room.kind, room.converted, room.event) == (
        RoomKind.ENCOUNTER, True, EventKind.MERCHANT)
    with pytest.raises(NeedMoreDice):
        resolve_room(alt, fs, merchant_again)
    again = resolve_room(alt, fs, replace(merchant_again, rerolls=(4, 6)))
    assert (again.kind, again.stairs, again.converted) == (RoomKind.STAIRS, True, False)


def test_it03_traps_repeat_only_as_written() -> None:
    faithful, alt = both("IT-03")
    fs = replace(FLOOR1, kinds=frozenset({EventKind.TRAP}))
    trap_again = roll(event_check=6, event_roll=2)
    assert resolve_room(faithful, fs, trap_again).kind is RoomKind.TRAP
    assert resolve_room(alt, fs, trap_again).kind is RoomKind.ENCOUNTER


def test_it04_elite_on_a_dice_check_or_an_epic_check() -> None:
    faithful, alt = both("IT-04")
    five = roll(event_check=1, elite=5, count=1)
    assert resolve_room(faithful, FLOOR1, five).elite
    assert not resolve_room(alt, FLOOR1, five).elite
    assert resolve_room(alt, FLOOR1, replace(five, elite=6)).elite


def test_it20_the_epic_check_for_elites_is_decided_by_it04() -> None:
    """Issue 24, point 3: IT-20 Alt (the Epic Check for elites) is IT-04 Alt, declared so.

    IT-20's own readings resolve to the same rules (``test_same_in_play_...``); the
    readings of IT-04, which decides it, put an elite in a third or a sixth of encounters.
    """
    it20 = next(r for r in ruleset().rulings if r.id == "IT-20")
    assert (it20.decided_by, it20.scope) == ("IT-04", "")
    share = {}
    for r in both("IT-04"):
        elites = sum(resolve_room(r, FLOOR1, roll(elite=die)).elite for die in range(1, 7))
        share[r.profile.id] = Fraction(elites, 6)
    assert share == {"as-written": Fraction(1, 3), "as-written+IT-04": Fraction(1, 6)}


def test_it05_one_elite_or_all() -> None:
    faithful, alt = both("IT-05")
    three = roll(event_check=1, elite=6, count=6)
    assert resolve_room(faithful, FLOOR1, three).foes == ("normal", "normal", "elite")
    assert resolve_room(alt, FLOOR1, three).foes == ("elite",) * 3


def test_it32_first_room_rolled_or_an_encounter() -> None:
    faithful, alt = both("IT-32")
    bonfire = roll(event_check=5, event_roll=5)
    assert resolve_room(faithful, FLOOR1, bonfire).kind is RoomKind.BONFIRE
    assert resolve_room(alt, FLOOR1, bonfire).kind is RoomKind.ENCOUNTER
    assert resolve_room(alt, FLOOR1, bonfire, index=2).kind is RoomKind.BONFIRE


def test_it18_dead_end_holds_the_boss_or_only_ends_the_floor() -> None:
    faithful, alt = both("IT-18")
    fs = replace(FLOOR1, stairs_room=1, kinds=frozenset({EventKind.STAIRS}))
    dead_end = roll(dead_end=5, event_check=1, minions=5, count=1)
    lair = resolve_room(faithful, fs, dead_end, index=3)
    assert (lair.kind, lair.last, lair.foes) == (RoomKind.LAIR, True, ("normal",) * 4 + ("boss",))
    plain = resolve_room(alt, fs, dead_end, index=3)
    assert (plain.kind, plain.last, plain.monsters) == (RoomKind.ENCOUNTER, True, 1)
    # Without the stairs the dead-end die is not read, in either reading.
    assert resolve_room(faithful, FLOOR1, dead_end, index=3).dead_end is None
    # The twelfth room without stairs is the stairs and the boss lair in both.
    forced = resolve_room(alt, FLOOR1, dead_end, index=alt.max_rooms)
    assert (forced.kind, forced.stairs, forced.last) == (RoomKind.LAIR, True, True)
    # With the stairs known and its dead-end check failed, the twelfth room is rolled as
    # usual and ends the floor: that floor has no boss (the rulebook's chapter The floor).
    failed = roll(dead_end=1, event_check=1, count=1)
    twelfth = resolve_room(faithful, fs, failed, index=faithful.max_rooms)
    assert (twelfth.kind, twelfth.last, twelfth.stairs) == (RoomKind.ENCOUNTER, True, False)
    assert "boss" not in twelfth.foes


def test_it15_treasure_after_a_passed_trap_only_as_written() -> None:
    faithful, alt = both("IT-15")
    trap = roll(event_check=5, event_roll=1, treasure=5)
    assert resolve_room(faithful, FLOOR1, trap).treasure == Gain(daggers=1)
    assert resolve_room(alt, FLOOR1, trap).treasure is None
    encounter = replace(trap, event_check=1)
    assert resolve_room(alt, FLOOR1, encounter).treasure == Gain(daggers=1)


def test_it16_trap_check_with_or_without_the_floor() -> None:
    faithful, alt = both("IT-16")
    assert faithful.trap_passes(1, 3)[4] and not alt.trap_passes(1, 3)[4]
    assert faithful.trap_passes(0, 9)[6] and alt.trap_passes(0, 9)[6]  # a six always passes
    assert not faithful.trap_passes(9, 1)[1]  # a one always fails


def test_a_failed_trap_gives_treasure_only_where_the_data_says() -> None:
    """traps.toml's ``[fail] treasure`` is read by the engine (issue 24: it was not)."""
    # A STR trap, failed with a 2 (STR 1), whose treasure die 5 is a dagger.
    trap = (1, 5, 1, 1, 2, 1, 1, 5, 1)
    for r, daggers in ((rules(), 1), (replace(rules(), trap_fail_treasure=True), 2)):
        h = hero(r)
        after, _, cause = explore(r, REFERENCE, h, FLOOR1, tape(*trap))
        assert cause is None and (after.hp, after.daggers) == (h.hp - 1, daggers)
    assert rules().trap_fail_treasure is data().traps.fail_treasure is False


# -- one combat roll ----------------------------------------------------------------------


def _one_roll(r: Rules, h: Hero, foe: str, die: int, floor: int = 1,
              policy: Policy = REFERENCE) -> Hero:
    fight = attack(r, policy, start_fight(r, policy, h, floor, (foe, foe)), die)
    assert not fight.dead
    return fight.hero


def test_it07_elite_subtracts_the_level_or_is_a_plain_check() -> None:
    faithful, alt = both("IT-07")
    h = hero(faithful, daggers=0)
    assert _one_roll(faithful, h, "elite", 5).hp == h.hp - 1  # 5 + 1 - 1 - 1 < 5
    assert _one_roll(alt, h, "elite", 5).hp == h.hp  # a plain 5 passes
    # The worked example: attr 3, floor 2, level 3 needs a natural 6 or daggers.
    assert faithful.daggers_needed(faithful.elite, 3, 2, 3)[1:] == (NEVER, 5, 4, 3, 2, 0)


def test_it08_daggers_reach_the_critical_six_only_under_alt() -> None:
    faithful, alt = both("IT-08")
    assert faithful.daggers_needed(faithful.elite, 0, 2, 1)[5] == 3
    assert alt.daggers_needed(alt.elite, 0, 2, 1)[5] == 1
    assert faithful.daggers_needed(faithful.normal, 0, 3, 1)[5] == 3
    assert alt.daggers_needed(alt.normal, 0, 3, 1)[5] == 1
    assert faithful.daggers_needed(faithful.normal, 9, 1, 1)[1] == NEVER  # natural 1
    # Issue 24: the effective six is a critical hit, but no dagger lifts a natural 1.
    assert alt.daggers_needed(alt.normal, 9, 1, 1)[1] == NEVER
    assert alt.daggers_needed(alt.normal, 4, 1, 1)[1:] == (NEVER, 0, 0, 0, 0, 0)


def test_it09_daggers_spent_or_kept() -> None:
    faithful, alt = both("IT-09")
    h = hero(faithful, daggers=2)  # STR 1 on floor 1: a 3 needs two daggers
    spent = _one_roll(faithful, h, "normal", 3)
    kept = _one_roll(alt, h, "normal", 3)
    assert (spent.hp, spent.daggers, spent.xp) == (h.hp, 0, 1)
    assert (kept.hp, kept.daggers, kept.xp) == (h.hp, 2, 1)
    assert _one_roll(alt, h, "normal", 2).hp == h.hp - 1  # a 2 needs three


def test_it10_daggers_after_the_die_or_declared_before() -> None:
    faithful, alt = both("IT-10")
    h = hero(faithful, hp=1, daggers=1, potions=0)
    assert _one_roll(faithful, h, "normal", 6).daggers == 1  # a six needs none
    assert _one_roll(alt, h, "normal", 6).daggers == 0  # declared before the die
    assert _one_roll(faithful, h, "normal", 4).daggers == 0  # a 4 needs one: spent


def test_it10_potion_mid_fight_or_between_rooms_only() -> None:
    faithful, alt = both("IT-10")
    h = hero(faithful, hp=1, potions=1, daggers=0)
    start = start_fight(faithful, REFERENCE, h, 1, ("normal",))
    drank = attack(faithful, REFERENCE, start, 2)
    assert (drank.dead, drank.hero.hp, drank.hero.potions) == (False, h.max_hp - 1, 0)
    died = attack(alt, REFERENCE, start_fight(alt, REFERENCE, h, 1, ("normal",)), 2)
    assert died.dead and died.hero.potions == 1
    assert REFERENCE.drink_between_rooms(alt, h) and not REFERENCE.drink_between_rooms(
        faithful, h)


def test_it11_death_at_zero_or_a_last_gasp_potion() -> None:
    faithful, alt = both("IT-11")
    h = hero(faithful, hp=1, potions=1)
    assert hurt(faithful, h, 1)[1]
    healed, dead = hurt(alt, h, 1)
    assert not dead and (healed.hp, healed.potions) == (h.max_hp, 0)
    assert hurt(alt, replace(h, potions=0), 1)[1]
    # The reference player never drinks early when the potion saves itself for 0 HP.
    assert REFERENCE.drink_before_roll(faithful, h, 1)
    assert not REFERENCE.drink_before_roll(alt, h, 1)


def test_it28_floor_one_counts_one_or_nothing() -> None:
    faithful, alt = both("IT-28")
    assert (faithful.floor_term(1), alt.floor_term(1)) == (1, 0)
    assert hit_chance(faithful, 1, 1, 1, False, 0) == Fraction(1, 3)
    assert hit_chance(alt, 1, 1, 1, False, 0) == Fraction(1, 2)


@dataclass(frozen=True)
class _LevelUpsToDex(Policy):
    """A player who puts level-up points into DEX (to tell IT-29's readings apart)."""

    def level_up_attribute(self, rules: Rules, hero: Hero) -> int:
        return 1


def test_it29_attribute_chosen_per_roll_or_per_fight() -> None:
    faithful, alt = both("IT-29")
    policy = _LevelUpsToDex()
    h = hero(faithful, attributes=(1, 1, 0), xp=faithful.level_cost(1) - 1, daggers=0)
    for r, hp_lost in ((faithful, 0), (alt, 1)):
        fight = start_fight(r, policy, h, 1, ("normal", "normal"))
        fight = attack(r, policy, fight, 6)  # the kill levels up: DEX becomes 2
        assert fight.hero.attributes == (1, 2, 0)
        fight = attack(r, policy, fight, 4)  # DEX 2 hits a 4; STR 1, fixed for the fight, not
        assert fight.hero.max_hp - fight.hero.hp == hp_lost, r.profile.id


# -- levels -------------------------------------------------------------------------------


def test_it12_level_ladder_fresh_or_running_total() -> None:
    faithful, alt = both("IT-12")
    assert [faithful.level_cost(lv) for lv in (1, 2, 3)] == [11, 12, 13]
    assert [alt.level_cost(lv) for lv in (0, 1, 2)] == [10, 21, 33]
    h = hero(faithful)
    assert h.level == 1 and hero(alt).level == 0
    up = gain_xp(faithful, REFERENCE, h, 11)
    assert (up.level, up.xp) == (2, 0)
    a = hero(alt)
    assert gain_xp(alt, REFERENCE, a, 10).level == 1
    twice = gain_xp(alt, REFERENCE, gain_xp(alt, REFERENCE, a, 10), 11)
    assert (twice.level, twice.xp) == (2, 21)


def test_it13_current_hp_rises_with_max_hp_or_not() -> None:
    faithful, alt = both("IT-13")
    h = hero(faithful, hp=3)
    up, up_alt = level_up(faithful, h, h.best), level_up(alt, h, h.best)
    assert (up.hp, up.max_hp, up_alt.hp, up_alt.max_hp) == (4, 6, 3, 6)
    assert up.attributes == (2, 0, 0)


def test_it25_elite_and_boss_xp_and_lair_treasure() -> None:
    faithful, alt = both("IT-25")
    assert (faithful.elite.xp, faithful.boss.xp, faithful.normal.xp) == (1, 1, 1)
    assert (alt.elite.xp, alt.boss.xp, alt.normal.xp) == (2, 2, 1)
    forced = roll(treasure=6)
    assert resolve_room(faithful, FLOOR1, forced, index=12).treasure is None
    assert resolve_room(alt, FLOOR1, forced, index=12).treasure == Gain(potions=1)
    assert resolve_room(alt, FLOOR1, forced, index=12).loot == Gain(1, 1, 1)


# -- the merchant, moving back, the stairs --------------------------------------------------


def test_it21_merchant_sells_or_only_buys() -> None:
    faithful, alt = both("IT-21")
    h = hero(faithful, gold=11, potions=0, daggers=0)
    bought = shop(faithful, REFERENCE, h)
    assert (bought.gold, bought.potions, bought.daggers) == (1, 2, 0)
    assert shop(alt, REFERENCE, h) == h  # the reference player sells nothing


def _floor(r: Rules, *rolls: RoomRoll) -> FloorState:
    fs = FLOOR1
    for each in rolls:
        fs = record_room(fs, resolve_room(r, fs, each))
    return fs


BONFIRE, FIGHT = roll(event_check=5, event_roll=5), roll(event_check=1)


def test_it22_a_bonfire_heals_again_or_once_per_floor() -> None:
    for r, healed in ((rules(), True), (rules(alts=("IT-22",)), False)):
        fs = replace(_floor(r, BONFIRE, FIGHT), used=frozenset({1}))
        h = hero(r, hp=2)
        after, fs2, cause = walk_back(r, REFERENCE, h, fs, 1, tape(1, 1, 1, 1), None)
        assert cause is None and fs2.position == 1
        assert after.hp == (h.max_hp if healed else 2), r.profile.id
    assert REFERENCE.next_move(rules(), hero(rules(), hp=2), fs).room == 1
    assert REFERENCE.next_move(rules(alts=("IT-22",)), hero(rules(), hp=2), fs).room != 1


def test_it23_one_check_per_move_or_per_room() -> None:
    faithful, alt = both("IT-23")
    for r, checks in ((faithful, 1), (alt, 3)):
        fs = _floor(r, BONFIRE, FIGHT, FIGHT, FIGHT)
        dice = tape(*([1] * 20))
        walk_back(r, REFERENCE, hero(r), fs, 1, dice, None)
        assert dice.pos == 4 * checks, r.profile.id


def test_it24_wandering_encounters_give_treasure_or_not() -> None:
    faithful, alt = both("IT-24")
    for r, potions in ((faithful, 2), (alt, 1)):
        fs = _floor(r, BONFIRE, FIGHT)
        # check 5 passes, elite die 1, one monster, treasure 6 (a potion); then the kill.
        dice = tape(5, 1, 1, 6, 6)
        after, _, cause = walk_back(r, REFERENCE, hero(r), fs, 1, dice, None)
        assert cause is None and after.potions == potions and after.xp == 1, r.profile.id


def test_it26_boss_optional_or_required_before_descending() -> None:
    faithful, alt = both("IT-26")
    stairs = roll(event_check=5, event_roll=6)
    fs = _floor(faithful, FIGHT, stairs)
    assert may_descend(faithful, fs) and not may_descend(alt, fs)
    assert REFERENCE.next_move(alt, hero(alt), fs).kind.value == "explore"
    lair = roll(dead_end=6)
    assert may_descend(alt, _floor(alt, FIGHT, stairs, lair))


def test_it27_endless_tower_or_ten_floors() -> None:
    faithful, alt = both("IT-27")
    assert (last_floor(faithful, 20), last_floor(alt, 20)) == (20, 10)
    assert (last_floor(faithful, 3), last_floor(alt, 3)) == (3, 3)


def test_fight_odds_follow_it17_either_way() -> None:
    faithful, alt = both("IT-17")
    h = hero(faithful)
    assert fight_odds(faithful, REFERENCE, h, 1, ("normal",) * 2) == fight_odds(
        alt, REFERENCE, h, 1, ("normal",) * 2)


def test_wander_roll_reads_its_dice() -> None:
    r = rules()
    from generator.rulesets.inverted_tower.rooms import wander_foes, wander_treasure

    assert wander_foes(r, WanderRoll(4, 6, 6, 1)) == ()
    assert wander_foes(r, WanderRoll(5, 6, 6, 1)) == ("normal", "normal", "elite")
    assert wander_treasure(r, WanderRoll(5, 6, 6, 1)) == Gain(gold=1)
