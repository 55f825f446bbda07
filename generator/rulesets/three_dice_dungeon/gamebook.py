"""A pre-rolled 3 Dice Dungeon as a gamebook: Mode A levels as numbered sections, and
the tapes that replace the dice (design.md section 6, rulings.md 2.4).

Sections (``kind``):
  - ``start`` (section 1): the character's dice and what they gave (DD-01, DD-02), how
    to map the grid, how to read the tapes; it leads to the first level's start.
  - ``location``: one for every location of every level's fixed grid, with its dice,
    what they decided, and a way on through each door ("North") leading to the
    neighbour's section, whose door leads back (invariant 2.5.3).  A vault leads to its
    ``artifact`` section; a Great Hall offers "Take the stairs down" to the next level's
    start, and from the last level to the victory.
  - ``artifact``: what a vault's pre-rolled artifact die unearths for a map fragment, in
    a section of its own, so that the reader learns it only by spending the fragment.
  - ``victory`` and ``death``, the endings; every location leads to the death, since a
    fight can be lost in any of them.

Tapes: per level a combat tape (every attack roll, and the door a Boots flight takes) and
a roaming tape (Returning to Danger, DD-21), each from a stream of its own
(design.md section 4).  Each tape's bound (invariant 2.5.11) is worked out by
:func:`tapes.tape_bounds`, whose docstring says how; a tape is printed as long as its
bound up to a page's worth, and past that carries the fallback rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.engine.gamebook import Draft, Gamebook, Key, numbered, numbering
from generator.rulesets.three_dice_dungeon.document import (
    cell_dice,
    cell_key,
    dungeon_json,
    label,
)
from generator.rulesets.three_dice_dungeon.dungeon import Dungeon
from generator.rulesets.three_dice_dungeon.levels import Cell, Level, step
from generator.rulesets.three_dice_dungeon.rules import RULESET, Foe, Rules
from generator.rulesets.three_dice_dungeon.tapes import level_tapes
from generator.words import listed, plural

START: Key = ("start",)
VICTORY: Key = ("victory",)
DEATH: Key = ("death",)
PLUS = "\u00a0+\u00a0"  # a sum of dice stays on one line



def artifact_key(level: int, cell: Cell) -> Key:
    return ("artifact", level, cell.pos[0], cell.pos[1])


def gamebook(rules: Rules, dungeon: Dungeon, seed: str,
             renumbered: Sequence[int] = ()) -> Gamebook:
    """``dungeon`` as sections, tapes and the JSON of its dungeon keys."""
    tapes = level_tapes(rules, dungeon, seed)
    drafts = drafts_of(rules, dungeon, any(t.fallback for t in tapes))
    numbers = numbering(drafts, START, seed, RULESET, renumbered)
    return Gamebook(numbered(drafts, numbers), tapes, dungeon_json(rules, dungeon, numbers))


def drafts_of(rules: Rules, dungeon: Dungeon, fallback: bool) -> list[Draft]:
    drafts = [start_draft(rules, dungeon, fallback)]
    for level in dungeon.levels:
        roaming = return_text(rules, level)
        for cell in level.cells:
            drafts.append(cell_draft(rules, dungeon, level, cell, roaming))
            if cell.artifact_die is not None:
                drafts.append(artifact_draft(rules, level, cell))
    return [*drafts, victory_draft(dungeon), death_draft()]


# -- words ----------------------------------------------------------------------------------


def item_text(rules: Rules, name: str) -> str:
    """What an item does, as the profile reads it (DD-17, DD-18, DD-26)."""
    item = rules.items[name]
    if item.alt is not None and rules.profile.alt(item.alt.ruling):
        return item.alt.text
    return item.text


def foe_numbers(rules: Rules, foe: Foe) -> str:
    """"HP 20, armour 6, damage 7, Mind 4; +4 damage for each Mind spent"; a monster
    with no abilities to pay for shows no Mind."""
    numbers = f"HP {foe.hp}, armour {foe.armour}, damage {foe.damage}"
    if foe.abilities:  # Mind pays for them (DD-08); none on the d6 scale (DD-28)
        note = rules.manual(foe.base).note.rstrip(".")
        numbers += f", Mind {foe.mind}; {note[:1].lower()}{note[1:]}"
    return numbers


def _tape_name(kind: str, level: Level) -> str:
    return f"the level {level.number} {kind} tape"


# -- section 1: the way in --------------------------------------------------------------------


def start_draft(rules: Rules, dungeon: Dungeon, fallback: bool) -> Draft:
    c = dungeon.character
    return Draft(
        START, "start", "Before you go down",
        (character_text(rules, dungeon), map_text(dungeon), tapes_text(rules, fallback),
         fight_text(rules), leaving_text(rules)),
        dice={"character": list(c.dice), "rejected": [list(t) for t in c.rejected]},
        ways=(("Climb down into the dungeon", cell_key(1, dungeon.levels[0].start)),),
    )


def character_text(rules: Rules, dungeon: Dungeon) -> str:
    """The creation dice and the character they give (DD-01, DD-02)."""
    spec = rules.data.character
    c = dungeon.character
    text = f"Your hero's dice came up {listed(c.dice)}."
    if c.rejected:  # said once for all of them: a reader wants the dice that count
        totals = "; ".join(f"{', '.join(map(str, t))} ({sum(t) + spec.dice.plus})"
                           for t in c.rejected)
        were = "was" if len(c.rejected) == 1 else "were"
        text += (f" Before them, {plural(len(c.rejected), 'roll')} came to "
                 f"{spec.reroll_if_total_at_most} or less, and so {were} rolled again: "
                 f"{totals}.")
    attributes = listed([f"{a.name} {c.value(a.stat)}" for a in spec.attributes])
    text += f" In the order rolled (DD-01) they give {attributes}."
    if rules.free_assignment:
        text += " You may place them among the three as you like before you go down."
    if c.klass:
        text += f" As a {c.klass} from the start, you have {c.hp} hit points (DD-02)."
    else:
        summed = " + ".join(s.value for s in spec.hp_sum_of)
        text += f" Your hit points are {summed} = {c.hp} (DD-02), your maximum too."
    return text + (f" You start at level {spec.start_level} with {spec.start_xp} XP and "
                   f"{plural(spec.start_coins, 'coin')}.")


def map_text(dungeon: Dungeon) -> str:
    first = dungeon.levels[0]
    grid = first.grid
    last = label((grid.width - 1, grid.height - 1))
    one = len(dungeon.levels) == 1
    whose, each = ("its", "") if one else ("each level's", "each ")
    where = f"{whose} stairs from above end on square {label(grid.start)}"
    if any(lv.grid != grid for lv in dungeon.levels):
        where = "where each level's stairs from above end, its section says"
    return (f"The dungeon has {plural(len(dungeon.levels), 'level')}, {each}on a grid of "
            f"{grid.width} by {grid.height} squares: columns A to {last[0]} from west to "
            f"east, rows 1 to {last[1:]} from north to south; {where}. Draw each location on "
            "your map of its level as you find it, with its doors and its section number. A "
            "temple's teleport, a Scroll of Teleportation or a run in the Boots of "
            "Swiftness takes you to a location you have mapped: turn to the number you "
            "wrote there.")


def tapes_text(rules: Rules, fallback: bool) -> str:
    text = ("You need no dice: each level has two tapes of numbers instead. Its combat tape "
            "gives every attack roll, its roaming tape the roaming die each time you come "
            "back into a location you have cleared; what that die brings is printed under "
            "your map of the level. Always take a tape's first entry not yet crossed off, "
            "and cross it off as you use it.")
    if rules.roaming_alt:
        text += (" A roaming entry holds two numbers: the roaming die, and the monster die "
                 "it brings if a monster comes (already rolled again where the rules say "
                 "so, DD-21).")
    text += (" If you run from a fight in the Boots of Swiftness, cross off the next combat "
             "entry and count that many doors round the location, clockwise from north and "
             "round again if need be: you run through that door.")
    if fallback:
        text += " Should a tape run out, the rule printed under it says what to do."
    return text


def fight_text(rules: Rules) -> str:
    """How every fight of the booklet goes, said once (DD-04, DD-05, DD-06): a player
    playing from the booklet alone meets its first monster in the next section."""
    combat = rules.data.combat
    adds = "that attribute and your bonuses" if rules.attribute_to_hit else "your bonuses"
    damage = ("the attribute you attacked with" if rules.damage_from_attack_stat
              else "your STR")
    return ("A fight goes one attack at a time until one of you falls. Pick an attribute and "
            "take the next entry of the level's combat tape as your die: you hit when the "
            f"die plus {adds} is more than the monster's armour (DD-04), and take {damage} "
            "off its HP (DD-06); otherwise it hits you for its damage (DD-05). A natural "
            f"{combat.crit_hit} always hits and a natural {combat.crit_miss} always misses.")


def leaving_text(rules: Rules) -> str:
    if rules.portal_to_start:
        return ("Reading a Town Portal takes you back to where you first came down, at the "
                "start of level 1 (DD-25): each location offers the way.")
    return ("Reading a Town Portal takes you out of the dungeon: your delve ends there, "
            "with your score kept (DD-25). Write it down.")


# -- a location -------------------------------------------------------------------------------


def cell_draft(rules: Rules, dungeon: Dungeon, level: Level, cell: Cell, returning: str
               ) -> Draft:
    """A location's section; ``returning`` is the level's :func:`return_text`."""
    text = [place_text(rules, level, cell), monster_text(rules, level, cell),
            reward_text(rules, level, cell)]
    feature = feature_text(rules, dungeon, level, cell)
    if feature:
        text.append(feature)
    text.append(returning)
    return Draft(cell_key(level.number, cell.pos), "location",
                 f"Level {level.number}, square {label(cell.pos)}", tuple(text),
                 cell_dice(cell), cell_ways(rules, dungeon, level, cell))


def cell_ways(rules: Rules, dungeon: Dungeon, level: Level, cell: Cell
              ) -> tuple[tuple[str, Key], ...]:
    """A way through each door (invariant 2.5.3: the door on the other side leads back),
    then the vault's fragment, the stairs, a Town Portal (DD-25 Alt) and a lost fight."""
    n = level.number
    ways = [(rules.data.sides[s].capitalize(), cell_key(n, step(cell.pos, s)))
            for s in cell.exits]
    kind = rules.kinds[cell.kind]
    if kind.is_vault:
        ways.append(("Spend a map fragment here", artifact_key(n, cell)))
    if kind.allows_descent:  # 2.5.10: descent only from a Great Hall
        below = cell_key(n + 1, dungeon.levels[n].start) if n < len(dungeon.levels) else VICTORY
        ways.append(("Take the stairs down", below))
    if rules.portal_to_start:
        ways.append(("If you read a Town Portal", cell_key(1, dungeon.levels[0].start)))
    ways.append(("If you fall in a fight", DEATH))
    return tuple(ways)


def place_text(rules: Rules, level: Level, cell: Cell) -> str:
    kind = rules.kinds[cell.kind]
    text = ""
    if cell.entrance_above:
        above = "the world above" if level.number == 1 else f"level {level.number - 1}"
        text = f"The stairs from {above} end here. "
    text += f"{kind.name} (location die {cell.location_die})."
    if not (kind.is_vault or kind.is_temple or kind.allows_descent):
        text += f" {kind.text}"
    return f"{text} {exits_text(rules, cell)}"


def exits_text(rules: Rules, cell: Cell) -> str:
    """The exit roll and the doors it gave (DD-10, DD-11, DD-12; invariant 2.5.2)."""
    dice = rules.exit_dice[cell.kind]
    if dice.count == 0:
        text = f"It has {cell.exit_count} exits (DD-10)"
    else:
        rolls = [listed(roll) for roll in cell.exit_rolls]
        again = " (rolled again until it fits, DD-11)" if len(rolls) > 1 else ""
        text = f"Its exit roll ({dice}) came up {listed(rolls, 'then')}{again}: " \
               f"{plural(cell.exit_count, 'exit')}"
    notes = []
    if cell.entrance_above:
        notes.append("the stairs you came down by count as one")
    if cell.dropped:
        notes.append(f"{cell.dropped} dropped for want of a free side (DD-11)")
    if cell.forced:
        notes.append(f"{len(cell.forced)} more for doors that lead in")
    if cell.fallback:
        notes.append(f"{len(cell.fallback)} added, as the level had no way on (DD-12)")
    if notes:
        text += f", {listed(notes)}"
    sides = [rules.data.sides[s] for s in cell.exits]
    if not sides:
        return f"{text}. No door leads on from here."
    doors = f"Doors lead {listed(sides)}" if len(sides) > 1 else f"A door leads {sides[0]}"
    return f"{text}. {doors}."


def monster_text(rules: Rules, level: Level, cell: Cell) -> str:
    m = cell.monster
    foe = m.foe
    parts = [f"monster die {m.die}"]
    if len(m.rolls) > 1:
        parts = [f"monster die {listed(m.rolls, 'then')}, rolled again by the training "
                 "wheels, DD-29"]
    if foe.elite:
        base = (f"base die {listed(m.elite_rolls, 'then')}" if m.elite_rolls
                else "the dungeon's signature monster")
        parts.append(f"{base}; bonus XP die {listed(m.xp_rolls)}; DD-13")
    elite = ", an elite" if foe.elite else ""
    text = f"Its monster: {foe.name}{elite} ({'; '.join(parts)}). " \
           f"{foe_numbers(rules, foe)}.{_monster_source(rules, level, m.base_face, foe)}"
    # How a tape is read is said once, in section 1: here only which tape.
    return f"{text} Fight it when you first come in, on {_tape_name('combat', level)}."


def _monster_source(rules: Rules, level: Level, face: int, foe: Foe) -> str:
    """Where the monster's numbers come from: the substitution and the undead (DD-09)."""
    name = rules.row(level.undead, face).monster
    borrowed = rules.data.undead_borrows.get(name, name)
    used = dict(level.substitution).get(borrowed)
    swapped = used not in (None, borrowed)
    if name != borrowed:  # an undead monster borrows its slot's numbers
        instead = f", which this dungeon has in place of {borrowed}" if swapped else ""
        return f" These are the numbers of {foe.base}{instead} (DD-09)."
    return f" This dungeon has {used} in place of {borrowed} (DD-09)." if swapped else ""


def reward_text(rules: Rules, level: Level, cell: Cell) -> str:
    t = cell.treasure
    reward = rules.row(level.undead, t.die).treasure
    named = f"{reward.label.lower()} " if reward.label else ""
    charts = "".join(f", {chart} die {face}" for chart, face in t.chart_rolls)
    text = (f"Once it is beaten, take its {named}treasure (treasure die {t.die}{charts}): "
            f"{t.item}. {item_text(rules, t.item)}{loot_text(cell)}")
    m = cell.monster
    plus = rules.data.elite.xp_bonus.plus
    bonus = (f" and the elite's bonus die {listed(m.xp_rolls)}{f'{PLUS}{plus}' if plus else ''}"
             if m.xp_rolls else "")
    dice = PLUS.join(map(str, (cell.location_die, m.die, t.die)))
    return f"{text} Score {cell.xp} XP, its dice {dice}{bonus} (DD-14; none if it slept, DD-30)."


def loot_text(cell: Cell) -> str:
    loot = cell.monster.foe.loot
    parts = [plural(loot.coins, "coin")] if loot.coins else []
    parts += list(loot.items)
    if cell.loot is not None:  # DD-33 Alt: a roll on a chart when it falls
        charts = ", ".join(f"{chart} die {face}" for chart, face in cell.loot.chart_rolls)
        parts.append(f"{charts}: {cell.loot.item} (DD-33)")
    if not parts:
        return ""
    named = f" ({loot.label})" if loot.label else ""
    return f" Its loot{named}: {listed(parts)}."


def feature_text(rules: Rules, dungeon: Dungeon, level: Level, cell: Cell) -> str:
    """What the location lets you do: a vault's artifact, a temple's teleport, the stairs."""
    kind = rules.kinds[cell.kind]
    exploring = rules.data.exploring
    if kind.is_vault:
        return f"{kind.text} It gives one artifact, once."
    if kind.is_temple:
        when = "Once its monster is beaten, you" if exploring.teleport_requires_cleared else "You"
        arrive = ("arriving counts as coming back" if exploring.teleport_roaming_check
                  else "arriving, cross off no roaming entry")
        return (f"{when} may teleport to any other temple on your map of this level: turn to "
                f"its number; {arrive}.")
    if kind.allows_descent:
        need = plural(exploring.descent_artifacts_required, "artifact")
        found = "in the dungeon" if rules.artifacts_any_level else "on this level"
        last = (" They are the dungeon's last: going down them wins your delve."
                if level.number == len(dungeon.levels) else "")
        return (f"The stairs down are here: take them once you have found {need} {found} "
                f"(DD-31).{last}")
    return ""


def return_text(rules: Rules, level: Level) -> str:
    """Coming back into a known location (DD-21, DD-22), in one sentence: what the
    roaming die brings is printed once, under the player's map of the level (the
    template's ``grids``, from the JSON's ``levels[].roaming``), not in every section.
    A monster still there is one you ran from or put to sleep: the Sleeping Salts' own
    text says it wakes, and the score's sentence cites DD-30 (no XP)."""
    n = level.number
    stop = " and you stop here rather than pass through (DD-22)" if rules.roam_destination_only \
        else ""
    return (f"Coming back here: if its monster is still here, fight it again at full strength; "
            f"if not{stop}, take the next entry of {_tape_name('roaming', level)}: your level "
            f"{n} map says what comes (DD-21).")


# -- a vault's artifact, and the endings --------------------------------------------------------


def artifact_draft(rules: Rules, level: Level, cell: Cell) -> Draft:
    assert cell.artifact_die is not None
    kind = rules.kinds[cell.kind].name.lower()
    item = rules.data.artifacts.lookup(cell.artifact_die).name
    return Draft(
        artifact_key(level.number, cell), "artifact",
        f"Level {level.number}, square {label(cell.pos)}, the {kind}",
        (f"You spend the map fragment: cross it off your sheet. The {kind} gives up what it "
         f"hid (artifact die {cell.artifact_die}): {item}. {item_text(rules, item)}",
         f"It counts as an artifact found on level {level.number} (DD-31). The {kind} has "
         "nothing more to give."),
        dice={"artifact": cell.artifact_die},
        ways=((f"Go back into the {kind} (you never left it: no roaming entry)",
               cell_key(level.number, cell.pos)),),
    )


def victory_draft(dungeon: Dungeon) -> Draft:
    deepest = len(dungeon.levels)
    return Draft(
        VICTORY, "victory", f"Below level {deepest}",
        (f"You go down the stairs of level {deepest}, the deepest of this dungeon, and out "
         "of its reach: your delve is won.",
         "Write your score: your XP, your level and your coins."),
        ending="victory",
    )


def death_draft() -> Draft:
    return Draft(
        DEATH, "death", "The end of your delve",
        ("Your delve ends here: the dungeon keeps you.",
         "Write your score: your XP, your level, your coins and the deepest level you "
         "reached."),
        ending="death",
    )
