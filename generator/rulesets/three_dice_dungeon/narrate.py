"""What a played game of 3 Dice Dungeon shows of the dice it finds (``towerpress play``).

Each function turns a pre-rolled record (the character's dice, a location's dice) or a
roaming roll into lines of the log: (what, text, dice, ruling), the dice in the order
they were rolled, the text saying what each decided.  The game adds the character's state
to each line (:func:`.hero.record`).  Only a played game calls them: a simulated one keeps
no log, so none of this costs it anything.
"""

from __future__ import annotations

from generator.rulesets.three_dice_dungeon.dungeon import CharacterRoll
from generator.rulesets.three_dice_dungeon.levels import Cell, Level, LootRoll
from generator.rulesets.three_dice_dungeon.policy import ASSIGN_REASON, CLASS_REASON
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules

Line = tuple[str, str, tuple[int, ...], str]  # what, text, dice, ruling


def _listed(values: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in values)


def character_lines(rules: Rules, character: CharacterRoll) -> list[Line]:
    """The creation dice: the triples rolled again, the kept one, the attributes and HP."""
    spec = rules.data.character
    limit = spec.reroll_if_total_at_most
    lines: list[Line] = [
        ("character", f"Creation dice {_listed(t)}: total {sum(t) + spec.dice.plus} is at "
         f"most {limit}, so all are rolled again", t, "")
        for t in character.rejected
    ]
    placed = ", ".join(f"{stat.value} {die}"
                       for stat, die in zip(character.assignment, character.dice, strict=True))
    how = f"placed: {ASSIGN_REASON}" if rules.free_assignment else "in the order rolled"
    lines.append(("character", f"Creation dice {_listed(character.dice)}: {placed} ({how})",
                  character.dice, "DD-01"))
    if character.klass:
        lines.append(("decision", f"Take the {character.klass} class at creation: "
                      f"{CLASS_REASON}; its HP is the starting HP", (), "DD-02"))
    else:
        summed = " + ".join(s.value for s in spec.hp_sum_of)
        lines.append(("character", f"HP {character.hp} = {summed}", (), "DD-02"))
    return lines


def location_lines(rules: Rules, level: Level, cell: Cell) -> list[Line]:
    """A location as it is discovered: its kind, monster, treasure and doors, each with
    the dice that decided it."""
    kind = rules.kinds[cell.kind].name
    where = "the start" if cell.distance == 0 else (
        f"{cell.distance} door{'s' if cell.distance > 1 else ''} from the start")
    return [
        ("location", f"Discover {cell.pos}, {where}: location die {cell.location_die}, {kind}",
         (cell.location_die,), ""),
        _monster_line(rules, level, cell),
        _treasure_line(rules, level, cell),
        _exits_line(rules, cell),
    ]


def _monster_line(rules: Rules, level: Level, cell: Cell) -> Line:
    m = cell.monster
    dice = (*m.rolls, *m.elite_rolls, *m.xp_rolls)
    parts = []
    ruling = ""
    if len(m.rolls) > 1:  # DD-29: only on the first level, at the start and next to it
        parts.append(f"{_listed(m.rolls[:-1])} rerolled by the training wheels of location "
                     f"{cell.distance + 1}")
        ruling = "DD-29"
    parts.append(f"{m.die}" + (": an elite" if m.elite else ""))
    if m.elite:
        if m.elite_rolls:
            rerolled = f"{_listed(m.elite_rolls[:-1])} rerolled, " if len(m.elite_rolls) > 1 else ""
            parts.append(f"its base die {rerolled}{m.elite_rolls[-1]}")
        else:
            parts.append("the signature monster")
        parts.append(f"bonus XP die {_listed(m.xp_rolls)}")
        ruling = ruling or "DD-13"
    if dict(level.substitution).get(rules.row(level.undead, m.base_face).monster):
        ruling = ruling or "DD-09"
    elite = " (elite)" if m.elite else ""
    return ("monster", f"Monster die {'; '.join(parts)}: {m.name}{elite}", dice, ruling)


def _treasure_line(rules: Rules, level: Level, cell: Cell) -> Line:
    t = cell.treasure
    reward = rules.row(level.undead, t.die).treasure
    label = f"{reward.label}, " if reward.label else ""
    charts = "".join(f", {chart} die {face}" for chart, face in t.chart_rolls)
    dice = (t.die, *(face for _, face in t.chart_rolls))
    return ("treasure", f"Treasure die {t.die}{charts}: {label}{t.item}", dice,
            reward.alt_ruling)


def _exits_line(rules: Rules, cell: Cell) -> Line:
    sides = ", ".join(rules.data.sides[s] for s in cell.exits) or "none"
    dice = tuple(d for roll in cell.exit_rolls for d in roll)
    notes = []
    ruling = "DD-10" if rules.kinds[cell.kind].exits_alt is not None else ""
    if cell.entrance_above:
        notes.append("the way in from above counts")
    if len(cell.exit_rolls) > 1:
        notes.append("rolled again until it fits")
        ruling = "DD-11"
    if cell.dropped:
        notes.append(f"{cell.dropped} dropped, no free side")
        ruling = "DD-11"
    if cell.forced:
        notes.append(f"{len(cell.forced)} more for the doors that lead in")
    if cell.fallback:
        notes.append(f"{len(cell.fallback)} added, the level was stuck")
        ruling = "DD-12"
    note = f" ({'; '.join(notes)})" if notes else ""
    exits = f"{cell.exit_count} exit{'s' if cell.exit_count != 1 else ''}"
    return ("exits", f"{exits}{note}: doors {sides}", dice, ruling)


def loot_line(foe: Foe, roll: LootRoll) -> Line:
    """A monster's loot rolled on a chart when it falls (DD-33 Alt)."""
    charts = ", ".join(f"{chart} die {face}" for chart, face in roll.chart_rolls)
    dice = tuple(face for _, face in roll.chart_rolls)
    return ("loot", f"The {foe.name}' {foe.loot.label or 'loot'}: {charts}, {roll.item}", dice,
            "DD-33")


def roaming_line(rules: Rules, dice: tuple[int, ...], foe: Foe | None) -> Line:
    """Returning to danger (DD-21): the roaming die, and (Alt) the monster column's rolls."""
    if foe is None:
        return ("roaming", f"Roaming die {dice[0]}: no monster", dice, "DD-21")
    column = f", monster die {_listed(dice[1:])}" if len(dice) > 1 else ""
    return ("roaming", f"Roaming die {dice[0]}{column}: {foe.name}", dice, "DD-21")
