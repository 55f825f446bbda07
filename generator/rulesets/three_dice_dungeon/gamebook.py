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
:func:`tape_bounds`, whose docstring says how; a tape is printed as long as its bound up
to a page's worth, and past that carries the fallback rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil

from generator.engine.gamebook import Draft, Gamebook, Key, numbered, numbering
from generator.engine.rng import SplitMix64, stream_seed
from generator.engine.tapes import Tape, roll_tape
from generator.rulesets.three_dice_dungeon.document import (
    cell_dice,
    cell_key,
    dungeon_json,
    label,
    roaming_foes,
)
from generator.rulesets.three_dice_dungeon.dungeon import Dungeon
from generator.rulesets.three_dice_dungeon.effects import EffectKind, Stat
from generator.rulesets.three_dice_dungeon.entities import AbilityKind
from generator.rulesets.three_dice_dungeon.levels import Cell, Level, step
from generator.rulesets.three_dice_dungeon.rules import RULESET, Foe, Rules
from generator.words import plural

START: Key = ("start",)
VICTORY: Key = ("victory",)
DEATH: Key = ("death",)

#: The longest tapes printed, in entries: about a page of numbers for a level's fights,
#: a third of one for its returns (a layout choice; a longer worst case gets the
#: fallback rule).
COMBAT_PAGE = 600
ROAMING_PAGE = 200


def artifact_key(level: int, cell: Cell) -> Key:
    return ("artifact", level, cell.pos[0], cell.pos[1])


def gamebook(rules: Rules, dungeon: Dungeon, seed: str) -> Gamebook:
    """``dungeon`` as sections, tapes and the JSON of its dungeon keys."""
    tapes = level_tapes(rules, dungeon, seed)
    drafts = drafts_of(rules, dungeon, any(t.fallback for t in tapes))
    numbers = numbering(drafts, START, seed, RULESET)
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


def listed(values: Sequence[object], last: str = "and") -> str:
    """``4``, ``4 and 3``, ``4, 3 and 5``."""
    text = [str(v) for v in values]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} {last} {text[-1]}"


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
         leaving_text(rules)),
        dice={"character": list(c.dice), "rejected": [list(t) for t in c.rejected]},
        ways=(("Climb down into the dungeon", cell_key(1, dungeon.levels[0].start)),),
    )


def character_text(rules: Rules, dungeon: Dungeon) -> str:
    """The creation dice and the character they give (DD-01, DD-02)."""
    spec = rules.data.character
    c = dungeon.character
    text = f"Your hero's dice came up {listed(c.dice)}."
    for triple in c.rejected:
        text += (f" Before them {listed(triple)} came up, {sum(triple) + spec.dice.plus} in "
                 f"all, at most {spec.reroll_if_total_at_most}, so all were rolled again.")
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
            "your map sheet as you find it, with its doors and its section number. A "
            "temple's teleport, a Scroll of Teleportation or a run in the Boots of "
            "Swiftness takes you to a location you have mapped: turn to the number you "
            "wrote there.")


def tapes_text(rules: Rules, fallback: bool) -> str:
    text = ("You need no dice: each level has two tapes of numbers instead. Its combat tape "
            "gives every attack roll, its roaming tape the roaming die each time you come "
            "back into a location you have cleared. Always take a tape's first entry not "
            "yet crossed off, and cross it off as you use it.")
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
    return (f"{text} You must fight it the first time you come in: cross off one entry of "
            f"{_tape_name('combat', level)} for each attack roll.")


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
    bonus = (f" and the elite's bonus die {listed(m.xp_rolls)}"
             f"{f' + {rules.data.elite.xp_bonus.plus}' if rules.data.elite.xp_bonus.plus else ''}"
             if m.xp_rolls else "")
    return (f"{text} Score {cell.xp} XP (DD-14; none if it ever slept, DD-30): the "
            "location's dice "
            f"{cell.location_die} + {m.die} + {t.die}{bonus}.")


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
        arrive = ("you come back into it as into any location you have cleared"
                  if exploring.teleport_roaming_check else "cross off no roaming entry there")
        return (f"{when} may teleport from here to any other temple you have mapped on this "
                f"level: turn to its section; {arrive}.")
    if kind.allows_descent:
        need = plural(exploring.descent_artifacts_required, "artifact")
        found = "in the dungeon" if rules.artifacts_any_level else "on this level"
        last = (" They are the last of this dungeon: going down them wins your delve."
                if level.number == len(dungeon.levels) else "")
        return (f"The stairs down are here: you may take them once you have found {need} "
                f"{found} (DD-31).{last}")
    return ""


def return_text(rules: Rules, level: Level) -> str:
    """Returning to Danger (DD-21, DD-22, DD-30)."""
    stay = (", if you mean to stop here rather than pass through (DD-22), cross off"
            if rules.roam_destination_only else " cross off")
    return ("When you come back here: if its monster is still here (you ran from it, or it "
            f"slept), it fights you again at full strength and awake. Otherwise{stay} the "
            f"next entry of {_tape_name('roaming', level)}: {roaming_text(rules, level)}")


def roaming_text(rules: Rules, level: Level) -> str:
    roaming = rules.data.exploring.roaming
    rows, column = roaming_foes(rules, level)
    comes = [f for f in range(1, roaming.table.faces + 1) if roaming.table.lookup(f)]
    quiet = [f for f in range(1, roaming.table.faces + 1) if f not in comes]
    nothing = f"on {_faces(quiet)}, nothing comes" if quiet else ""
    if not rules.roaming_alt:
        met = [f"on a {face}, {foe.name} ({foe_numbers(rules, foe)})"
               for face, foe in sorted(rows.items())]
        return (f"{'; '.join([*met, nothing] if nothing else met)}. A roaming monster "
                "brings its loot but no XP (DD-21).")
    named = "; ".join(f"{face}, {foe.name} ({foe_numbers(rules, foe)})"
                      for face, foe in sorted(column.items()))
    return (f"{f'{nothing}; ' if nothing else ''}on {_faces(comes)}, a monster comes, and "
            f"the entry's second number is its monster die: {named}. A roaming monster is "
            f"worth the roaming die times {roaming.alt_xp_per_pip} XP (DD-21).")


def _faces(faces: Sequence[int]) -> str:
    """``1``, ``1 or 2``, ``3 to 6``."""
    if len(faces) > 2 and list(faces) == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]} to {faces[-1]}"
    return listed(faces, "or")


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


# -- tapes --------------------------------------------------------------------------------------


def level_tapes(rules: Rules, dungeon: Dungeon, seed: str) -> tuple[Tape, ...]:
    """Each level's combat and roaming tapes, from streams of their own (rulings.md 4)."""
    tapes: list[Tape] = []
    for level, bound in zip(dungeon.levels, tape_bounds(rules, dungeon, seed), strict=True):
        place = f"level {level.number}"
        entries = roll_tape(seed, RULESET, ("level", level.number), "combat tape", ("die",),
                            min(bound.combat, COMBAT_PAGE))
        tapes.append(_tape("combat", place, ("die",), entries, bound.combat))
        parts = ("die", "monster") if rules.roaming_alt else ("die",)
        tapes.append(_tape("roaming", place, parts, bound.roaming_tape, bound.roaming))
    return tuple(tapes)


def _tape(name: str, place: str, parts: tuple[str, ...],
          entries: tuple[tuple[int, ...], ...], bound: int) -> Tape:
    fallback = ""
    if len(entries) < bound:
        fallback = (f"This tape holds {len(entries)} entries, fewer than the {bound} the "
                    "worst case could take. If you cross off its last entry, start again "
                    "from its first, crossing each off a second time.")
    return Tape(name, place, parts, entries, 1, 6, bound, fallback)


def roaming_entries(rules: Rules, seed: str, level: int, length: int
                    ) -> tuple[tuple[int, ...], ...]:
    """The roaming tape: one roaming die an entry; under DD-21 Alt each with the monster
    die it brings, already rolled again on the faces the rules reroll."""
    if not rules.roaming_alt:
        return roll_tape(seed, RULESET, ("level", level), "roaming tape", ("die",), length)
    reroll = rules.data.exploring.roaming.alt_reroll
    rng = SplitMix64(stream_seed(seed, RULESET, "level", level, purpose="roaming tape"))
    entries = []
    for _ in range(length):
        die, face = rng.die(), rng.die()
        while face in reroll:
            face = rng.die()
        entries.append((die, face))
    return tuple(entries)


@dataclass(frozen=True)
class Bounds:
    """The most entries a level's tapes can be asked for (:func:`tape_bounds`), and the
    roaming tape printed for its bound."""

    roaming: int
    combat: int
    roaming_tape: tuple[tuple[int, ...], ...]


def tape_bounds(rules: Rules, dungeon: Dungeon, seed: str) -> list[Bounds]:
    """Invariant 2.5.11: an upper bound on each level's tape entries.

    Roaming (DD-21, DD-22): an entry for each return into a cleared location.  The
    rules let a reader wander without end, so the bound is for a reader with a purpose:
    one who explores the level depth first (on into a new location while the one they
    are in has a door to one, else back the way they came: at most n - 1 returns for n
    locations), then walks the shortest way to a vault and to a Great Hall (at most n - 1
    returns each): 3(n - 1).  A temple's teleport or the Scroll of Teleportation only
    ever replaces a walk that costs at least one return.  Each Boots flight adds its
    landing (the way back leads into the location whose monster is still there: a
    fight, not a roaming entry); the flights are the Boots' allowance at the highest
    character level the dungeon's XP can give (DD-26).  Under DD-25 Alt each Town
    Portal of the dungeon can send the reader round once more.

    Combat: every attack roll hits or misses.  Hits: for each fight, the monster's HP
    and all it could regenerate (DD-08) over the least damage a hit does (DD-06,
    DD-28).  The fights are the level's locations; the roaming monsters that the
    roaming tape's entries within its bound bring (the tape is known: these are
    exactly the ones a reader can meet); and a fight again for every flight, Sleeping
    Salts and Town Portal, against the toughest.  Misses: each lets the monster hit for
    at least 1, so they are at most the hit points the hero could ever have to lose:
    the highest maximum (every raise found up to here, the best class), down to the
    Soul Stone's floor, every healing potion and all the Mind a Cleric could turn into
    HP, plus every hit a Shielding Charm or an Emerald takes (one a fight, DD-26).  Each
    flight also takes one entry for its door.  What is found counts over the locations
    up to this level (all of them under DD-25 Alt) and the roaming monsters' loot.
    """
    gains = _gains(rules, dungeon.levels)
    passes = 1 + _count(rules, gains, EffectKind.LEAVE_DUNGEON) if rules.portal_to_start else 1
    roaming: list[int] = []
    tapes: list[tuple[tuple[int, ...], ...]] = []
    met: list[list[Foe]] = []
    for k, level in enumerate(dungeon.levels, 1):
        worst = _Worst(rules, dungeon, dungeon.levels if passes > 1 else dungeon.levels[:k],
                       passes, [])
        roaming.append(worst.walk(level) + worst.flights())
        tapes.append(roaming_entries(rules, seed, level.number, min(roaming[-1], ROAMING_PAGE)))
        met.append(roamers_met(rules, level, tapes[-1], roaming[-1]))
    out = []
    for k, level in enumerate(dungeon.levels, 1):
        upto = len(dungeon.levels) if passes > 1 else k
        worst = _Worst(rules, dungeon, dungeon.levels[:upto], passes,
                       [foe for foes in met[:upto] for foe in foes])
        out.append(Bounds(roaming[k - 1], worst.combat(level, met[k - 1]), tapes[k - 1]))
    return out


def roamers_met(rules: Rules, level: Level, tape: Sequence[tuple[int, ...]], entries: int
                ) -> list[Foe]:
    """The roaming monsters the first ``entries`` entries of the level's roaming ``tape``
    bring (read round again past its end, as its fallback says)."""
    rows, column = roaming_foes(rules, level)
    table = rules.data.exploring.roaming.table
    met = []
    for i in range(entries if tape else 0):
        entry = tape[i % len(tape)]
        if table.lookup(entry[0]):
            met.append(column[entry[1]] if rules.roaming_alt else rows[entry[0]])
    return met


def _gains(rules: Rules, levels: Sequence[Level]) -> list[str]:
    """Every item the locations of ``levels`` give: treasure, loot, and vault artifacts."""
    found: list[str] = []
    for level in levels:
        for cell in level.cells:
            found += cell.gains
            if cell.artifact_die is not None:
                found.append(rules.data.artifacts.lookup(cell.artifact_die).name)
    return found


def _count(rules: Rules, names: Sequence[str], kind: EffectKind) -> int:
    return sum(1 for n in names if rules.effects[n].kind is kind)


def _total(rules: Rules, names: Sequence[str], kind: EffectKind, stat: Stat | None = None
           ) -> int:
    """The summed amounts (an Emerald: its capacity) of the effects of ``kind``."""
    return sum(rules.effects[n].capacity if kind is EffectKind.ABSORB else rules.effects[n].amount
               for n in names
               if rules.effects[n].kind is kind and stat in (None, rules.effects[n].stat))


class _Worst:
    """The worst case over the levels ``upto``, whose roaming monsters are ``met`` (the
    terms of :func:`tape_bounds`)."""

    def __init__(self, rules: Rules, dungeon: Dungeon, upto: Sequence[Level], passes: int,
                 met: Sequence[Foe]):
        self.rules = rules
        self.dungeon = dungeon
        self.upto = upto
        self.passes = passes
        self.gains = [*_gains(rules, upto), *(item for foe in met for item in foe.loot.items)]

    def walk(self, level: Level) -> int:
        return 3 * (len(level.cells) - 1) * self.passes

    def xp(self, levels: Sequence[Level]) -> int:
        """The most XP ``levels`` can give: every location, and under DD-21 Alt every
        roaming entry of the walk bringing the best roaming monster."""
        rules = self.rules
        roaming = rules.data.exploring.roaming
        xp = sum(c.xp for lv in levels for c in lv.cells)
        if rules.roaming_alt:  # DD-21 Alt: a roaming monster is worth its die's pips
            most = max(f for f in range(1, roaming.table.faces + 1) if roaming.table.lookup(f))
            xp += most * roaming.alt_xp_per_pip * sum(self.walk(lv) for lv in levels)
        return xp

    def top_level(self) -> int:
        """The highest character level the XP of ``upto`` can give (DD-19, DD-20)."""
        rules = self.rules
        xp = rules.data.character.start_xp + self.xp(self.upto)
        return rules.data.experience.level_for(xp, rules.level_cap)

    def flights(self) -> int:
        """Boots flights on a level (DD-26), on every pass (DD-25 Alt)."""
        boots = [self.rules.effects[n].amount for n in self.gains
                 if self.rules.effects[n].kind is EffectKind.FLEE]
        return max(boots) * self.top_level() * self.passes if boots else 0

    def hits(self, foe: Foe) -> int:
        """Hits that could be needed to beat ``foe`` (DD-07, DD-08)."""
        rules = self.rules
        regen = sum(ab.amount * (1 if rules.abilities_once else foe.mind // ab.mind_cost)
                    for ab in foe.abilities if ab.kind is AbilityKind.REGEN)
        return max(0, ceil((foe.hp + regen - rules.data.combat.monster_defeated_at)
                           / self.least_damage()))

    def least_damage(self) -> int:
        """The least damage one hit does: the d6 scale's (DD-28), the Str die (DD-06
        Faithful: Str never drops), or 1 (Alt: an attack with an attribute above 0)."""
        rules = self.rules
        if rules.scale is not None:
            return rules.scale.player_damage
        if rules.damage_from_attack_stat:
            return 1
        return max(1, self.dungeon.character.value(Stat(rules.data.combat.damage_stat)))

    def combat(self, level: Level, met: Sequence[Foe]) -> int:
        foes = [c.monster.foe for c in level.cells]
        again = (self.flights() + _count(self.rules, self.gains, EffectKind.SLEEP_MONSTER)
                 + self.passes - 1)
        hits = (sum(self.hits(f) for f in [*foes, *met])
                + again * max(self.hits(f) for f in [*foes, *met]))
        return hits + self.misses(level, len(foes) + len(met) + again) + self.flights()

    def misses(self, level: Level, fights: int) -> int:
        """Misses that could be survived: every HP to lose, and every hit a Shielding
        Charm or an Emerald takes (per fight, DD-26: at most one a fight)."""
        rules, gains = self.rules, self.gains
        most_hp = (self.dungeon.character.hp + _total(rules, gains, EffectKind.RAISE_MAX, Stat.HP)
                   + max((c.hp for c in rules.classes), default=0))
        souls = [rules.effects[n].floor for n in gains
                 if rules.effects[n].kind is EffectKind.SOUL_STONE]
        below = rules.data.combat.death_at - min(souls, default=rules.data.combat.death_at)
        absorbers = [rules.effects[n] for n in gains if rules.effects[n].kind is EffectKind.ABSORB]
        absorbed = _total(rules, gains, EffectKind.ABSORB)
        if all(e.per == "fight" for e in absorbers):
            absorbed = min(absorbed, fights)
        return (most_hp + below + _total(rules, gains, EffectKind.HEAL) + self.prayers(level)
                + _total(rules, gains, EffectKind.IGNORE_HIT) + absorbed)

    def prayers(self, level: Level) -> int:
        """The HP a healing class power (the Cleric's, DD-27) could give on ``level``: its
        highest Mind at every refill (coming down, each level-up the level's XP can
        bring, each elite killed there) plus what the tomes and scrolls give back."""
        rules, gains = self.rules, self.gains
        healers = [c.power for c in rules.classes
                   if any(e.kind is EffectKind.HEAL for e in c.power.effects)]
        if not healers:
            return 0
        levels = self.top_level() - 1
        top_mind = (self.dungeon.character.value(Stat.MIND)
                    + _total(rules, gains, EffectKind.RAISE_MAX, Stat.MIND)
                    + max(c.mind for c in rules.classes)
                    + (rules.data.experience.alt_raise_max * levels
                       if rules.raise_max_per_level else 0))
        recovery = rules.data.mind_recovery
        here = self.upto if self.passes > 1 else [level]
        elites = sum(c.monster.elite for lv in here for c in lv.cells)
        ups = min(levels, self.xp(here) // rules.data.experience.step + 1)
        refills = 1 + (ups if recovery.level_up else 0) + (elites if recovery.elite_kill else 0)
        mind = (top_mind * refills + _total(rules, gains, EffectKind.RESTORE, Stat.MIND)
                + _total(rules, gains, EffectKind.MIND_TOKEN))
        return max(sum(e.amount for e in p.effects if e.kind is EffectKind.HEAL) * mind
                   // p.mind_cost for p in healers)
