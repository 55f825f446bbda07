"""The checker of pre-rolled 3 Dice Dungeon content: every invariant of rulings.md 2.5.

:func:`check_level` and :func:`check_dungeon` recompute what they can from the raw dice
and return *all* violations (never stopping at the first), each with a stable code:

=====================  ==========  ===================================================
code                   invariant   what is wrong
=====================  ==========  ===================================================
dice-range             2.5.1       a raw die is not a face of its die
character-reroll       2.5.1       a kept triple should have been rerolled, or a
                                   rejected one kept
character-derived      2.5.1       HP or the attribute assignment does not recompute
derived                2.5.1       a location's kind, monster, treasure or stats do
                                   not follow from its dice
exit-count             2.5.2       doors != roll - dropped + forced + fallback, or the
                                   roll is outside the kind's exit dice
exit-off-grid          2.5.3       a door leads off the grid
exit-asymmetric        2.5.3       a door with no matching door on the other side
cell-position          2.5.3       a location off the grid or two on one square
unreachable            2.5.4       a location no path of doors reaches from the start
incompletable          2.5.5       no reachable great hall, or no artifact source
training-wheels        2.5.6       a monster die the training wheels should have
                                   rerolled, or a reroll that was not needed (any
                                   reroll beyond the first level, DD-29)
unknown-monster        2.5.7       a monster neither in the manual nor borrowed
dragon-substituted     2.5.7       the substitution swaps out an unswappable monster
dragon-missing         2.5.7       no dragon-type monster anywhere in the dungeon
elite-base             2.5.8       an elite's base roll, stats or XP die is wrong
xp-sum                 2.5.9       a location's XP is not its dice (+ elite die)
ladder                 2.5.9       a printed XP threshold is not step * (level - 1)
temple-list            2.5.10      the teleport list is not exactly the temples
descent-list           2.5.10      descent is marked outside the great halls
=====================  ==========  ===================================================
"""

from __future__ import annotations

from collections import deque

from generator.findings import Finding
from generator.rulesets.three_dice_dungeon.dungeon import (
    CharacterRoll,
    Dungeon,
    derive_hp,
    has_dragon,
)
from generator.rulesets.three_dice_dungeon.levels import (
    Cell,
    Level,
    Pos,
    completable,
    location_xp,
    step,
)
from generator.rulesets.three_dice_dungeon.parameters import DIE
from generator.rulesets.three_dice_dungeon.rules import Rules, opposite

#: Each code and the invariant of rulings.md 2.5 it checks (the table above).
INVARIANT = {
    "dice-range": "2.5.1",
    "character-reroll": "2.5.1",
    "character-derived": "2.5.1",
    "derived": "2.5.1",
    "exit-count": "2.5.2",
    "exit-off-grid": "2.5.3",
    "exit-asymmetric": "2.5.3",
    "cell-position": "2.5.3",
    "unreachable": "2.5.4",
    "incompletable": "2.5.5",
    "training-wheels": "2.5.6",
    "unknown-monster": "2.5.7",
    "dragon-substituted": "2.5.7",
    "dragon-missing": "2.5.7",
    "elite-base": "2.5.8",
    "xp-sum": "2.5.9",
    "ladder": "2.5.9",
    "temple-list": "2.5.10",
    "descent-list": "2.5.10",
}


def _die_ok(value: int, faces: int = DIE) -> bool:
    return 1 <= value <= faces


def check_character(rules: Rules, character: CharacterRoll) -> list[Finding]:
    """Invariant 2.5.1 for the creation dice (DD-01, DD-02)."""
    out: list[Finding] = []
    spec = rules.data.character
    where = "character"

    def bad(code: str, message: str) -> None:
        out.append(Finding(code, where, message))

    for triple in (*character.rejected, character.dice):
        if not all(_die_ok(d, spec.dice.faces) for d in triple) or len(triple) != spec.dice.count:
            bad("dice-range", f"{triple} is not {spec.dice}")
    for triple in character.rejected:
        if sum(triple) + spec.dice.plus > spec.reroll_if_total_at_most:
            bad("character-reroll", f"{triple} totals more than {spec.reroll_if_total_at_most}")
    if sum(character.dice) + spec.dice.plus <= spec.reroll_if_total_at_most:
        bad("character-reroll", f"{character.dice} should have been rerolled")
    if sorted(character.assignment) != sorted(a.stat for a in spec.attributes):
        bad("character-derived", f"{character.assignment} is not one die per attribute")
    elif not rules.free_assignment and character.assignment != tuple(
        a.stat for a in spec.attributes
    ):
        bad("character-derived", "DD-01 Faithful reads the dice in the order rolled")
    elif character.hp != derive_hp(rules, character.dice, character.assignment, character.klass):
        bad("character-derived", f"HP {character.hp} does not recompute")
    return out


def check_level(rules: Rules, level: Level) -> list[Finding]:
    """Invariants 2.5.1-2.5.10 for one level; ``[]`` means valid.

    The findings come invariant by invariant, in the order of the checks below.
    """
    # A square taken twice (reported by _check_cells) keeps its last location here.
    cells = {cell.pos: cell for cell in level.cells}
    distance = _distances(level, cells)
    reachable = [c for c in level.cells if c.pos in distance]
    return [
        *_check_cells(rules, level),
        *_check_doors(rules, level, cells),
        *_check_reachable(level, cells, distance),
        *_check_completable(rules, level, reachable),
        *_check_wheels(rules, level, reachable, distance),
        *_check_lists(rules, level, cells),
        *_check_substitution(rules, level),
    ]


def _where(level: Level, cell: Cell) -> str:
    return f"level {level.number} / cell {cell.pos}"


def _check_cells(rules: Rules, level: Level) -> list[Finding]:
    """2.5.3 (each location on its own square of the grid) and 2.5.1 (its dice), by cell."""
    out: list[Finding] = []
    taken: set[Pos] = set()
    for cell in level.cells:
        where = _where(level, cell)
        if not level.grid.inside(cell.pos) or cell.pos in taken:
            out.append(Finding("cell-position", where, "off the grid or on a taken square"))
        taken.add(cell.pos)
        out += _check_cell(rules, level, cell, where)
    return out


def _check_doors(rules: Rules, level: Level, cells: dict[Pos, Cell]) -> list[Finding]:
    """2.5.3: every door stays on the grid and meets a door on the other side."""
    out: list[Finding] = []
    for cell in level.cells:
        where = _where(level, cell)
        for side in cell.exits:
            other = step(cell.pos, side)
            if not level.grid.inside(other):
                message = f"door {rules.data.sides[side]} leaves the grid"
                out.append(Finding("exit-off-grid", where, message))
            elif other not in cells or opposite(side) not in cells[other].exits:
                message = f"door {rules.data.sides[side]} has no matching door at {other}"
                out.append(Finding("exit-asymmetric", where, message))
    return out


def _check_reachable(
    level: Level, cells: dict[Pos, Cell], distance: dict[Pos, int]
) -> list[Finding]:
    """2.5.4: a path of doors from the start reaches every location."""
    out = [
        Finding("unreachable", _where(level, cell), "no path of doors from the start")
        for cell in level.cells
        if cell.pos not in distance
    ]
    if level.grid.start not in cells:
        out.append(Finding("unreachable", f"level {level.number}", "no location at the start"))
    return out


def _check_completable(rules: Rules, level: Level, reachable: list[Cell]) -> list[Finding]:
    """2.5.5: the reachable locations offer a way down and an artifact source."""
    if completable(rules, reachable):
        return []
    return [
        Finding(
            "incompletable",
            f"level {level.number}",
            "no reachable great hall, or no vault and map fragment (or artifact)",
        )
    ]


def _check_wheels(
    rules: Rules, level: Level, reachable: list[Cell], distance: dict[Pos, int]
) -> list[Finding]:
    """2.5.6 (Mode A): on the first level, the wheel of location k covers the squares
    k - 1 doors away; on any other level no monster die is rerolled (DD-29: the first and
    second locations discovered are the first level's)."""
    out: list[Finding] = []
    wheels = rules.wheels if level.number == 1 else {}
    for cell in reachable:
        wheel = wheels.get(distance[cell.pos] + 1, ())
        rolls = cell.monster.rolls
        if rolls[-1] in wheel or any(r not in wheel for r in rolls[:-1]):
            out.append(
                Finding(
                    "training-wheels",
                    _where(level, cell),
                    f"monster rolls {rolls} break the wheel {wheel} "
                    f"at distance {distance[cell.pos]}",
                )
            )
    return out


def _check_lists(rules: Rules, level: Level, cells: dict[Pos, Cell]) -> list[Finding]:
    """2.5.10: the teleport list is exactly the temples; descent only from great halls."""
    out: list[Finding] = []
    where = f"level {level.number}"
    temples = tuple(c.pos for c in level.cells if _is(rules, c.kind, "is_temple"))
    if sorted(level.temples) != sorted(temples):
        out.append(
            Finding(
                "temple-list", where, f"teleport list {level.temples} is not the temples {temples}"
            )
        )
    for pos in level.descents:
        if pos not in cells or not _is(rules, cells[pos].kind, "allows_descent"):
            message = f"descent marked at {pos}, which is not a great hall"
            out.append(Finding("descent-list", where, message))
    return out


def _check_substitution(rules: Rules, level: Level) -> list[Finding]:
    """2.5.7: the substitution names manual monsters and keeps the unswappable ones."""
    out: list[Finding] = []
    where = f"level {level.number}"
    for name, used in level.substitution:
        try:
            swappable = rules.manual(name).swappable
            rules.manual(used)
        except KeyError:
            out.append(
                Finding(
                    "unknown-monster",
                    where,
                    f"substitution {name!r} -> {used!r} names no manual monster",
                )
            )
            continue
        if not swappable and used != name:
            out.append(Finding("dragon-substituted", where, f"{name} may not be swapped out"))
    return out


def _is(rules: Rules, kind: str, flag: str) -> bool:
    """A location kind's flag; an unknown kind (reported elsewhere) has none."""
    found = rules.kinds.get(kind)
    return found is not None and bool(getattr(found, flag))


def _distances(level: Level, cells: dict[Pos, Cell]) -> dict[Pos, int]:
    """Door distances from the start, following only doors that are there."""
    start = level.grid.start
    if start not in cells:
        return {}
    distance = {start: 0}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for side in cells[pos].exits:
            nxt = step(pos, side)
            if nxt in cells and nxt not in distance:
                distance[nxt] = distance[pos] + 1
                queue.append(nxt)
    return distance


def _check_cell(rules: Rules, level: Level, cell: Cell, where: str) -> list[Finding]:
    out: list[Finding] = []
    m = cell.monster
    dice = [cell.location_die, *m.rolls, *m.elite_rolls, cell.treasure.die]
    dice += [face for _, face in cell.treasure.chart_rolls]
    if cell.loot is not None:
        dice += [face for _, face in cell.loot.chart_rolls]
    if cell.artifact_die is not None:
        dice.append(cell.artifact_die)
    if not all(_die_ok(d) for d in dice) or not all(
        _die_ok(d, rules.data.elite.xp_bonus.faces) for d in m.xp_rolls
    ):
        out.append(Finding("dice-range", where, f"a die outside 1..{DIE}"))
        return out
    # 2.5.1: the kind, monster and treasure follow from the dice.
    if rules.row(level.undead, cell.location_die).location != cell.kind:
        out.append(Finding("derived", where, f"kind {cell.kind} does not follow"))
    if cell.kind in rules.kinds:
        if rules.kinds[cell.kind].is_vault != (cell.artifact_die is not None):
            out.append(Finding("derived", where, "a vault needs its artifact die"))
        out += _check_exits(rules, cell, where)
    out += _check_monster(rules, level, cell, where)
    item = _treasure_item(rules, level, cell)
    if item != cell.treasure.item:
        out.append(
            Finding(
                "derived",
                where,
                f"treasure {cell.treasure.item!r} does not follow (expected {item!r})",
            )
        )
    out += _check_loot(rules, cell, where)
    if cell.xp != location_xp(rules, cell.location_die, m, cell.treasure.die):
        out.append(Finding("xp-sum", where, f"XP {cell.xp} is not the dice's sum"))
    return out


def _check_exits(rules: Rules, cell: Cell, where: str) -> list[Finding]:
    dice = rules.exit_dice[cell.kind]
    out: list[Finding] = []
    for raw in cell.exit_rolls:
        if len(raw) != dice.count or not all(_die_ok(r, dice.faces) for r in raw):
            out.append(Finding("dice-range", where, f"exit roll {raw} is not {dice}"))
    last = sum(cell.exit_rolls[-1]) + dice.plus if cell.exit_rolls else dice.plus
    if cell.exit_count != last or not dice.minimum <= cell.exit_count <= dice.maximum:
        out.append(
            Finding(
                "exit-count",
                where,
                f"exit count {cell.exit_count} does not follow from {dice}",
            )
        )
    doors = len(cell.exits) + (1 if cell.entrance_above else 0)
    expected = cell.exit_count - cell.dropped + len(cell.forced) + len(cell.fallback)
    if doors != expected:
        out.append(
            Finding("exit-count", where, f"{doors} doors, but the roll gives {expected}")
        )
    if not set(cell.forced) | set(cell.fallback) <= set(cell.exits):
        out.append(Finding("exit-count", where, "an added door is not among the exits"))
    return out


def _check_monster(rules: Rules, level: Level, cell: Cell, where: str) -> list[Finding]:
    out: list[Finding] = []
    m = cell.monster
    row = rules.row(level.undead, m.die)
    subst = dict(level.substitution)
    if row.elite:
        elite = rules.data.elite
        if rules.elite_rerolls_base:
            bad_base = (
                not m.elite_rolls
                or m.elite_rolls[-1] in elite.reroll_faces
                or rules.row(level.undead, m.elite_rolls[-1]).elite
                or any(
                    r not in elite.reroll_faces and not rules.row(level.undead, r).elite
                    for r in m.elite_rolls[:-1]
                )
                or m.base_face != m.elite_rolls[-1]
            )
        else:
            bad_base = bool(m.elite_rolls) or m.base_face != rules.signature_face()
        if bad_base or len(m.xp_rolls) != elite.xp_bonus.count:
            out.append(
                Finding(
                    "elite-base", where, f"elite base rolls {m.elite_rolls} are wrong"
                )
            )
    elif m.elite_rolls or m.xp_rolls or m.base_face != m.die:
        out.append(Finding("derived", where, "a plain monster with elite dice"))
    name = rules.row(level.undead, m.base_face).monster
    try:
        expected = rules.foe(name, m.base_face, row.elite, subst)
    except KeyError:
        return [
            *out,
            Finding("unknown-monster", where, f"{name!r} is not in the manual"),
        ]
    if m.foe != expected or m.name != expected.name:
        code = "elite-base" if row.elite else "derived"
        out.append(
            Finding(code, where, f"monster {m.name} stats do not follow from its dice")
        )
    return out


def _check_loot(rules: Rules, cell: Cell, where: str) -> list[Finding]:
    """2.5.1: a loot roll is there exactly when the monster's loot calls for one (DD-33
    Alt), and its item follows from its dice."""
    chart = cell.monster.foe.loot.chart
    if cell.loot is None:
        ok = not chart
    else:
        ok = bool(chart) and _chart_item(rules, chart, cell.loot.chart_rolls) == cell.loot.item
    if ok:
        return []
    return [Finding("derived", where, f"the loot roll {cell.loot} does not follow the loot")]


def _treasure_item(rules: Rules, level: Level, cell: Cell) -> str:
    reward = rules.row(level.undead, cell.treasure.die).treasure
    gain = reward.gain_for(rules.gain_alt(reward.alt_ruling))
    if gain.item:
        return gain.item if not cell.treasure.chart_rolls else ""
    return _chart_item(rules, gain.chart, cell.treasure.chart_rolls)


def _chart_item(rules: Rules, chart: str, rolls: tuple[tuple[str, int], ...]) -> str:
    """The item rolls on ``chart`` (and the charts it sends to) give; "" if they are wrong
    (a roll on another chart, a roll too many or too few)."""
    for i, (rolled_chart, face) in enumerate(rolls):
        if rolled_chart != chart:
            return ""
        name = ""
        if chart == "items":
            entry = rules.data.items.lookup(face)
            if entry.item is not None:
                name = entry.item.name
            chart = entry.chart
        elif chart == "stones":
            name = rules.data.stones.lookup(face).name
        else:
            name = rules.data.artifacts.lookup(face).name
        if name:
            return name if i == len(rolls) - 1 else ""
    return ""


def check_dungeon(rules: Rules, dungeon: Dungeon) -> list[Finding]:
    """Every invariant for a whole dungeon: the character, each level, the dragon, the ladder."""
    out = check_character(rules, dungeon.character)
    for level in dungeon.levels:
        out += check_level(rules, level)
    if dungeon.levels and not any(has_dragon(level) for level in dungeon.levels):
        out.append(
            Finding(
                "dragon-missing", "dungeon", "no dragon-type monster on any level (DD-09)"
            )
        )
    for level_no, xp in dungeon.ladder:
        if xp != rules.data.experience.step * (level_no - 1):
            out.append(
                Finding(
                    "ladder",
                    f"ladder level {level_no}",
                    f"{xp} XP is not {rules.data.experience.step} x {level_no - 1}",
                )
            )
    return out
