"""Every ruling of rulings.md 2.3 whose readings differ in play, each reading shown.

Each test builds a small scenario with scripted dice and shows the Faithful reading
(``as-written``) and the Alt reading (the same profile with that one ruling switched)
doing different things.  Rulings with a single reading are shown doing it.
"""

from __future__ import annotations

from generator.engine import playlog
from generator.rulesets.three_dice_dungeon.check import check_level
from generator.rulesets.three_dice_dungeon.combat import (
    Fight,
    Outcome,
    fight,
    hits,
    monster_strike,
    player_damage,
    take_hit,
    to_hit_modifier,
)
from generator.rulesets.three_dice_dungeon.dice import FastRng, Tape
from generator.rulesets.three_dice_dungeon.dungeon import (
    CharacterRoll,
    roll_character,
    roll_substitution,
)
from generator.rulesets.three_dice_dungeon.effects import EffectKind, ItemKind, Stat
from generator.rulesets.three_dice_dungeon.entities import Loot
from generator.rulesets.three_dice_dungeon.explore import LevelState, Move, Step
from generator.rulesets.three_dice_dungeon.family import FAMILY
from generator.rulesets.three_dice_dungeon.game import STUCK, Game, play, roaming_monster, roams
from generator.rulesets.three_dice_dungeon.hero import (
    Hero,
    bleeding,
    gain_item,
    gain_xp,
    use_item,
)
from generator.rulesets.three_dice_dungeon.levels import (
    DEFAULT_GRID,
    Grid,
    generate_level,
    roll_monster,
    roll_treasure,
)
from generator.rulesets.three_dice_dungeon.policy import ReferencePolicy, descent_ready
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules
from generator.rulesets.three_dice_dungeon.simulate import run_streams
from tests.three_dice_dungeon.support import both, data, profile, rules, ruleset

POLICY = ReferencePolicy()


def hero(r: Rules, hp: int = 15, strength: int = 3, dex: int = 4, mind: int = 3) -> Hero:
    roll = CharacterRoll((), (strength, dex, mind), (Stat.STR, Stat.DEX, Stat.MIND), "", hp)
    return Hero(r, roll)


def character(r: Rules, dice: list[int]) -> CharacterRoll:
    return roll_character(
        r, Tape(dice), lambda d: POLICY.assign(r, d), lambda n: POLICY.creation_class(r, n)
    )


def test_dd01_dice_in_order_or_placed_by_the_player() -> None:
    faithful, alt = both("DD-01")
    a = character(faithful, [1, 6, 4])
    b = character(alt, [1, 6, 4])
    assert (a.value(Stat.STR), a.value(Stat.DEX), a.value(Stat.MIND)) == (1, 6, 4)
    assert (b.value(Stat.STR), b.value(Stat.DEX), b.value(Stat.MIND)) == (6, 4, 1)


def test_character_creation_rerolls_low_totals() -> None:
    c = character(rules(), [1, 2, 3, 5, 5, 1])
    assert c.rejected == ((1, 2, 3),)
    assert c.dice == (5, 5, 1)


def test_dd02_hp_is_the_attribute_sum_or_a_class_chosen_at_creation() -> None:
    faithful, alt = both("DD-02")
    assert character(faithful, [1, 6, 4]).hp == 11
    c = character(alt, [1, 6, 4])
    best = max(k.hp for k in alt.classes)
    assert c.klass and c.hp == best
    h = Hero(alt, c)
    assert h.klass is not None and h.cur[Stat.STR] == 1 + h.klass.strength


def test_dd03_damage_leaves_the_attributes_alone() -> None:
    r = rules()
    h = hero(r)
    before = dict(h.cur)
    take_hit(r, h, Fight(r.foe("Goblins", 1, False, {}), (20, 9, 0)), 5, POLICY)
    assert h.cur == before and h.hp == 10


def test_dd04_the_attribute_counts_or_only_the_bare_die() -> None:
    faithful, alt = both("DD-04")
    for r, expected in ((faithful, True), (alt, False)):
        h = hero(r, dex=4)
        modifier = to_hit_modifier(r, h, Stat.DEX, {})
        assert hits(r, 3, modifier, 6) is expected  # a 3 with Dex 4 against Dex 6


def test_dd05_monster_damage_is_its_str_or_its_dex() -> None:
    faithful, alt = both("DD-05")
    assert faithful.foe("Goblins", 1, False, {}).damage == 8
    assert alt.foe("Goblins", 1, False, {}).damage == 6


def test_dd06_player_damage_is_str_or_the_attacking_attribute() -> None:
    faithful, alt = both("DD-06")
    assert player_damage(faithful, hero(faithful, strength=3, dex=5), Stat.DEX, {}) == 3
    assert player_damage(alt, hero(alt, strength=3, dex=5), Stat.DEX, {}) == 5


def test_dd07_a_monster_falls_at_zero_hp() -> None:
    r = rules("d6-scale")
    foe = r.foe("Goblins", 1, False, {})  # 1 HP, armour 1
    assert fight(r, hero(r), foe, Tape([6]), POLICY) is Outcome.WON


def test_dd08_abilities_on_every_hit_or_once() -> None:
    faithful, alt = both("DD-08")
    for r, second in ((faithful, 10), (alt, 8)):
        foe = r.foe("Goblins", 1, False, {})
        first = monster_strike(r, foe, (foe.hp, foe.mind, 0))
        again = monster_strike(r, foe, first.state)
        assert first.hits == (10,)  # 8 + 2 for 1 Mind
        assert again.hits == (second,)


def test_dd09_no_substitution_or_one_from_the_seed() -> None:
    faithful, alt = both("DD-09")
    assert roll_substitution(faithful, FastRng(1)) == {}
    swap = roll_substitution(alt, FastRng(1))
    assert set(swap) == {"Goblins", "Orcs", "Ogres", "Giants"}  # never the Dragons
    assert len(set(swap.values())) == 4
    foe = alt.foe("Goblins", 1, False, {"Goblins": "Snotlings"})
    assert (foe.name, foe.hp) == ("Snotlings", 13)
    skeleton = alt.foe("Skeletons", 1, False, {"Goblins": "Snotlings"})
    assert (skeleton.name, skeleton.hp) == ("Skeletons", 13)  # undead borrow the slot


def test_dd10_corridors_have_two_exits_or_1d2() -> None:
    faithful, alt = both("DD-10")
    assert (faithful.exit_dice["corridor"].minimum, faithful.exit_dice["corridor"].maximum) == (
        2,
        2,
    )
    assert (alt.exit_dice["corridor"].minimum, alt.exit_dice["corridor"].maximum) == (1, 2)


def test_dd11_excess_exits_are_dropped_or_the_count_rerolled() -> None:
    faithful, alt = both("DD-11")
    grid = Grid(2, 1, (0, 0))
    # Start: a large room (3), Goblins (1), a potion (2); exit roll 3 but only east is free.
    dice = [3, 1, 2, 3, 2]
    a = generate_level(faithful, Tape(dice, fill=1), 1, False, {}, grid).cells[0]
    b = generate_level(alt, Tape(dice, fill=1), 1, False, {}, grid).cells[0]
    assert (a.exit_rolls, a.dropped, a.exits) == (((3,),), 1, (1,))
    assert (b.exit_rolls, b.dropped, b.exits) == (((3,), (2,)), 0, (1,))


def test_dd12_a_stuck_level_gets_an_exit_or_is_lost() -> None:
    faithful, alt = both("DD-12")
    grid = Grid(2, 1, (0, 0))
    dice = [2, 1, 2, 1]  # a small room with one exit: the way in; a dead end at once
    a = generate_level(faithful, Tape(dice, fill=1), 1, False, {}, grid)
    b = generate_level(alt, Tape(dice, fill=1), 1, False, {}, grid)
    assert a.cells[0].fallback == (1,) and len(a.cells) == 2
    assert b.cells[0].exits == () and len(b.cells) == 1 and b.stuck


def test_dd13_an_elite_of_a_rerolled_monster_or_of_the_signature() -> None:
    faithful, alt = both("DD-13")
    a = roll_monster(faithful, Tape([6, 6, 2, 4]), False, (), {})
    assert (a.name, a.elite_rolls, a.xp_rolls, a.foe.hp) == ("Orcs", (6, 2), (4,), 24)
    b = roll_monster(alt, Tape([6, 3]), False, (), {})
    assert (b.name, b.elite_rolls, b.xp_rolls, b.foe.hp) == ("Dragons", (), (3,), 25)


def test_dd14_elite_xp_is_the_three_dice_plus_the_bonus_die() -> None:
    r = rules()
    level = generate_level(r, FastRng(3), 1, False, {})
    for cell in level.cells:
        bonus = sum(cell.monster.xp_rolls)
        assert cell.xp == cell.location_die + cell.monster.die + cell.treasure.die + bonus


def test_dd15_special_is_a_map_fragment_or_an_artifact() -> None:
    faithful, alt = both("DD-15")
    assert roll_treasure(faithful, Tape([6, 2]), False).item == "Map Fragment"
    assert roll_treasure(alt, Tape([6, 2]), False).item == "Crystal Pendant"


def test_dd16_undead_special_is_a_map_fragment_or_an_artifact() -> None:
    faithful, alt = both("DD-16")
    assert roll_treasure(faithful, Tape([6, 2]), True).item == "Map Fragment"
    assert roll_treasure(alt, Tape([6, 2]), True).item == "Crystal Pendant"
    assert roll_treasure(alt, Tape([1]), True).item == "Map Fragment"  # the corridor's own


def test_dd17_a_spell_scroll_helps_a_mind_roll_or_gives_mind_at_level_up() -> None:
    faithful, alt = both("DD-17")
    a = hero(faithful)
    gain_item(faithful, a, "Spell Scroll")
    assert POLICY.rescue(faithful, a, Stat.MIND, 3) == "Spell Scroll"
    b = hero(alt, mind=3)
    gain_item(alt, b, "Spell Scroll")
    assert not b.has("Spell Scroll") and b.mind_tokens == 1
    gain_xp(alt, b, 50, POLICY)
    assert b.cur[Stat.MIND] == b.top[Stat.MIND] + 1


def test_dd18_a_tome_restores_mind_or_raises_its_maximum() -> None:
    faithful, alt = both("DD-18")
    a = hero(faithful, mind=3)
    a.cur[Stat.MIND] = 1
    gain_item(faithful, a, "Tome of Enlightenment")
    use_item(faithful, a, "Tome of Enlightenment")
    assert (a.cur[Stat.MIND], a.top[Stat.MIND]) == (2, 3)
    b = hero(alt, mind=3)
    gain_item(alt, b, "Tome of Enlightenment")
    assert (b.cur[Stat.MIND], b.top[Stat.MIND]) == (4, 4)


def test_dd19_level_ups_restore_and_may_raise_an_attribute() -> None:
    faithful, alt = both("DD-19")
    a, b = hero(faithful), hero(alt)
    a.cur[Stat.MIND] = b.cur[Stat.MIND] = 0
    gain_xp(faithful, a, 50, POLICY)
    gain_xp(alt, b, 50, POLICY)
    assert a.cur[Stat.MIND] == a.top[Stat.MIND]  # restored
    assert b.top[Stat.STR] - a.top[Stat.STR] == alt.data.experience.alt_raise_max


def test_dd20_levels_go_on_or_stop_at_eleven() -> None:
    faithful, alt = both("DD-20")
    a, b = hero(faithful), hero(alt)
    gain_xp(faithful, a, 600, POLICY)
    gain_xp(alt, b, 600, POLICY)
    assert (a.level, b.level) == (13, 11)


def test_dd21_roaming_goblins_without_xp_or_a_column_roll_with_xp() -> None:
    faithful, alt = both("DD-21")
    foe, xp = roaming_monster(faithful, Tape([1]), False, {})
    assert foe is not None and (foe.name, foe.elite, xp) == ("Goblins", False, 0)
    foe, xp = roaming_monster(alt, Tape([1, 5, 3]), False, {})
    assert foe is not None and (foe.name, xp) == ("Ogres", 3)
    assert roaming_monster(faithful, Tape([3]), False, {}) == (None, 0)


def test_dd22_every_entry_rolls_or_only_the_end_of_a_move() -> None:
    faithful, alt = both("DD-22")
    through = Step(Move.WALK, (0, 0), last=False)
    end = Step(Move.WALK, (0, 0), last=True)
    assert roams(faithful, through) and not roams(alt, through)
    assert roams(faithful, end) and roams(alt, end)
    assert roams(alt, Step(Move.TEMPLE, (0, 0), last=False))  # a teleport always rolls


def test_dd23_an_empty_attribute_bleeds_or_not() -> None:
    faithful, alt = both("DD-23")
    a, b = hero(faithful, mind=1), hero(alt, mind=1)
    a.cur[Stat.MIND] = b.cur[Stat.MIND] = 0
    assert (bleeding(faithful, a), bleeding(alt, b)) == (-1, 0)


def test_dd24_is_declared_a_multiplayer_point_that_solo_play_never_meets() -> None:
    # Several players' monster dice are never rolled alone: the ruling says so, the engine
    # reads neither reading, and both play the same solo games.
    assert ruleset().ruling("DD-24").scope == "multiplayer"
    assert "DD-24" not in FAMILY.rulings
    games = [list(FAMILY.simulate(data(), profile("d6-scale", alts), 20, "int:3", 3, None))
             for alts in ((), ("DD-24",))]
    assert games[0] == games[1]


def _strong_game(r: Rules) -> Game:
    game = Game(
        rules=r,
        policy=ReferencePolicy(),
        streams=run_streams("int:4", 0),
        depth=3,
        grid=DEFAULT_GRID,
        hero=hero(r, hp=500, strength=6, dex=6, mind=6),
        substitution={},
    )
    game.enter_level(1)
    game.enter_level(2)
    assert game.current == 2 and not game.over()
    return game


def test_dd25_the_town_portal_ends_the_run_or_goes_back_to_the_start() -> None:
    faithful, alt = both("DD-25", "d6-scale")
    killer = Foe("Doom", "Doom", 99, 999, 30, 0, (), False, Loot(1, (), ""), False)
    for r in (faithful, alt):
        game = _strong_game(r)
        gain_item(r, game.hero, "Town Portal")
        game.hero.hp = 5
        game.meet(killer, None)
        if r is faithful:
            assert game.stopped and game.ended is None
        else:
            assert not game.stopped and game.current == 1 and game.pos == DEFAULT_GRID.start


def test_dd26_the_emerald_soaks_once_a_fight_or_every_hit() -> None:
    faithful, alt = both("DD-26")
    for r, taken in ((faithful, 3 + 4), (alt, 3 + 3)):
        h = hero(r)
        gain_item(r, h, "Emerald")
        f = Fight(r.foe("Goblins", 1, False, {}), (20, 9, 0))
        take_hit(r, h, f, 4, POLICY)
        take_hit(r, h, f, 4, POLICY)
        assert h.hp == 15 - taken


def test_dd26_boots_flights_count_per_dungeon_level_or_for_the_game() -> None:
    faithful, alt = both("DD-26", "d6-scale")
    for r, left in ((faithful, 0), (alt, 1)):
        game = _strong_game(r)
        gain_item(r, game.hero, "Boots of Swiftness")
        game.hero.flights = 1
        game.enter_level(3)
        assert game.hero.flights == left


def test_dd27_a_class_at_the_first_level_up_or_none() -> None:
    faithful, alt = both("DD-27")
    a, b = hero(faithful), hero(alt)
    gain_xp(faithful, a, 50, POLICY)
    gain_xp(alt, b, 50, POLICY)
    assert a.klass is not None and a.klass.hp == max(k.hp for k in faithful.classes)
    assert a.max_hp == 15 + a.klass.hp
    assert b.klass is None and b.max_hp == 15


def test_dd28_the_manual_scale_or_the_d6_scale() -> None:
    written, scaled = rules("as-written"), rules("d6-scale")
    a = written.foe("Goblins", 1, False, {})
    b = scaled.foe("Goblins", 1, False, {})
    assert (a.hp, a.damage, a.armour, bool(a.abilities)) == (20, 8, 6, True)
    assert (b.hp, b.damage, b.armour, bool(b.abilities)) == (1, 1, 6, False)
    assert player_damage(scaled, hero(scaled, strength=5), Stat.STR, {}) == 1


def test_dd28_alt_changes_hp_and_damage_and_never_the_armour() -> None:
    # The ruling's d6 scale is HP = the die and 1 damage a hit; the armour an attack must
    # beat stays the manual's Dex (plus an elite's bonus), whatever the die.
    scaled = rules("d6-scale")
    bonus = data().elite.stat_bonus
    for monster in data().monsters:
        for die in range(1, 7):
            for elite in (False, True):
                foe = scaled.foe(monster.name, die, elite, {})
                extra = bonus if elite else 0
                assert foe.armour == monster.dexterity + extra, (monster.name, die, elite)
                assert foe.hp == die * data().d6_scale.hp_per_pip + extra
                assert foe.damage == data().d6_scale.monster_damage


def test_dd29_training_wheels_skip_the_elite_reroll() -> None:
    r = rules()
    m = roll_monster(r, Tape([4, 6, 4, 2]), False, r.wheels[1], {})
    assert m.rolls == (4, 6) and m.elite_rolls == (4,) and m.name == "Giants"


def test_dd31_the_artifact_must_come_from_this_level_or_any() -> None:
    faithful, alt = both("DD-31")
    level = generate_level(faithful, FastRng(1), 1, False, {})
    for r, ready in ((faithful, False), (alt, True)):
        h = hero(r)
        h.artifacts = 1
        state = LevelState(level, FastRng(0), FastRng(1))
        assert descent_ready(r, h, state) is ready


class SaltsFirst(ReferencePolicy):
    """Puts every monster it can to sleep."""

    def use_salts(self, rules: Rules, hero: Hero, fight: Fight) -> bool:
        return True


def test_dd30_a_monster_put_to_sleep_gives_no_xp_even_when_beaten_later() -> None:
    r = rules("d6-scale")
    game = Game(
        rules=r,
        policy=SaltsFirst(),
        streams=run_streams("int:2", 0),
        depth=2,
        grid=DEFAULT_GRID,
        hero=hero(r, hp=50, strength=6, dex=6, mind=6),
        substitution={},
    )
    gain_item(r, game.hero, "Sleeping Salts")
    game.enter_level(1)
    start = DEFAULT_GRID.start
    state = game.state
    assert start in state.asleep and start in state.no_xp and game.hero.xp == 0
    game.arrive(start, roam=True)  # awake again: the fight happens now
    assert start in state.defeated and game.hero.xp == 0  # beaten, but worth no XP


def test_dd12_alt_a_stuck_level_ends_the_game() -> None:
    r = rules("d6-scale", ("DD-12",))
    causes = {play(r, ReferencePolicy(), run_streams(f"int:{s}", 0), 2)[0].death for s in range(40)}
    assert STUCK in causes


def test_dd33_the_dragons_special_is_a_map_fragment_or_an_artifact_roll() -> None:
    faithful, alt = both("DD-33", "d6-scale")
    special = [m for m in data().monsters if m.loot.alt is not None]
    assert [(m.name, m.loot.alt_ruling) for m in special] == [("Dragons", "DD-33")]
    a, b = faithful.loot(special[0]), alt.loot(special[0])
    assert [faithful.effects[i].kind for i in a.items] == [EffectKind.UNEARTH_ARTIFACT]
    assert (a.chart, b.items, b.chart) == ("", (), "artifacts")
    # On a level, the Alt's roll is pre-rolled with the Dragons' location, like a vault's
    # artifact die; the Faithful's loot needs none.
    dragons = 0
    for seed in range(40):
        for r in (faithful, alt):
            level = generate_level(r, FastRng(seed), 1, False, {})
            assert check_level(r, level) == []
            for cell in level.cells:
                rolled = cell.loot is not None
                assert rolled == (r is alt and cell.monster.foe.dragon)
                if rolled:
                    assert cell.loot is not None
                    dragons += 1
                    assert r.items[cell.loot.item].kind is ItemKind.ARTIFACT
                    assert cell.loot.item in cell.gains
    assert dragons > 0


def test_dd33_alt_beating_the_dragons_unearths_an_artifact_in_play() -> None:
    r = rules("d6-scale", ("DD-33",))
    for seed in range(60):
        log: list[playlog.Step] = []
        play(r, ReferencePolicy(log), run_streams(f"int:{seed}", 0), 3, log=log)
        loot = [s for s in log if s.ruling == "DD-33"]
        if loot:
            step = loot[0]
            found = data().artifacts.lookup(step.dice[-1]).name
            assert found in step.text and found in str(dict(step.state)["items"])
            return
    raise AssertionError("no Dragons beaten under DD-33 Alt in 60 games")


def test_dd34_the_d6_scale_armour_is_the_manuals_or_the_die() -> None:
    faithful, alt = both("DD-34", "d6-scale")
    pips = data().d6_scale.alt_armor_per_pip
    for monster in data().monsters:
        for die in range(1, 7):
            assert faithful.foe(monster.name, die, False, {}).armour == monster.dexterity
            assert alt.foe(monster.name, die, False, {}).armour == die * pips
    # As written there is no d6 scale, so its armour reading changes nothing.
    written, written_alt = both("DD-34")
    assert written.foe("Orcs", 2, True, {}) == written_alt.foe("Orcs", 2, True, {})


def test_dd35_the_training_wheels_leave_an_elite_or_reroll_it() -> None:
    faithful, alt = both("DD-35")
    elite = next(r.low for r in data().main_level.rows.rows if r.value.elite)
    plain = next(r.low for r in data().main_level.rows.rows if r.value.monster)
    kept = roll_monster(faithful, Tape([elite, plain, 1]), False, faithful.wheels[1], {})
    rerolled = roll_monster(alt, Tape([elite, plain, 1]), False, alt.wheels[1], {})
    assert kept.elite and kept.rolls == (elite,)
    assert not rerolled.elite and rerolled.rolls == (elite, plain)
    for seed in range(60):
        level = generate_level(alt, FastRng(seed), 1, False, {})
        near = [level.start, *level.neighbours(level.start)]
        assert not any(level.cell(pos).monster.elite for pos in near)
        assert check_level(alt, level) == []
