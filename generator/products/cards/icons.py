"""One icon per kind of card (a monster, an item, a stone...), drawn by the project in SVG
(design.md section 7: no font glyphs), for the picture panel of an entity's card.

A deck names its cards' kind (``icon = "monster"`` in ``decks/*.toml``); the face shows
the icon in the room its text leaves, so that a player tells a monster from a treasure
across the table.  Each is line art in a 100 x 100 box, dark strokes over a light fill,
which prints on any black-and-white printer.
"""

from __future__ import annotations

from functools import cache

from generator.render.svg import data_url

INK = "#2b2b2b"
FILL = "#ebe8e0"  # the light tone of the drawings: paper-friendly on a laser printer
STROKE = 2.6

_MONSTER = (
    # A horned head: horns, skull, brows, eyes, a fanged jaw.
    '<path d="M27 38C16 30 13 17 17 6C22 18 30 23 38 25Z" class="f"/>'
    '<path d="M73 38C84 30 87 17 83 6C78 18 70 23 62 25Z" class="f"/>'
    '<path d="M50 18C30 18 20 32 20 50C20 64 26 74 34 80L36 92H64L66 80C74 74 80 64 80 '
    '50C80 32 70 18 50 18Z" class="f"/>'
    '<path d="M30 44L45 50M70 44L55 50" />'
    '<path d="M33 50Q39 58 45 52Z M67 50Q61 58 55 52Z" class="k"/>'
    '<path d="M50 56L46 66H54Z" class="k"/>'
    '<path d="M34 72Q50 80 66 72M40 73L42 80L45 74M60 73L58 80L55 74" />'
)
_ITEM = (
    # A pouch tied at the neck, its strap and a buckle.
    '<path d="M38 30C20 42 16 62 22 78C26 88 36 92 50 92C64 92 74 88 78 78C84 62 80 42 62 '
    '30Z" class="f"/>'
    '<path d="M36 30C40 24 36 16 30 12C38 14 44 20 50 20C56 20 62 14 70 12C64 16 60 24 64 '
    '30Z" class="f"/>'
    '<path d="M36 30H64" /><rect x="44" y="26" width="12" height="8" rx="2" class="w"/>'
    '<path d="M30 56Q50 64 70 56" /><rect x="45" y="56" width="10" height="10" rx="2" '
    'class="w"/>'
)
_TREASURE = (
    # A chest with a domed lid, bands and a lock.
    '<path d="M14 46V86H86V46Z" class="f"/>'
    '<path d="M14 46C14 26 26 18 50 18C74 18 86 26 86 46Z" class="f"/>'
    '<path d="M28 21V86M72 21V86M14 58H86" />'
    '<rect x="42" y="40" width="16" height="22" rx="3" class="w"/>'
    '<circle cx="50" cy="49" r="3" class="k"/><path d="M50 51V56" />'
)
_ARTIFACT = (
    # An amulet: a chain, a setting, a cut gem at its heart.
    '<path d="M26 10C28 30 36 40 44 46M74 10C72 30 64 40 56 46" />'
    '<circle cx="50" cy="62" r="28" class="f"/>'
    '<circle cx="50" cy="62" r="19" class="w"/>'
    '<path d="M50 46L62 56L58 74H42L38 56Z" class="f"/>'
    '<path d="M50 46V56M38 56H62M50 56L42 74M50 56L58 74" />'
    '<path d="M22 62H28M72 62H78M50 34V40M50 84V90" />'
)
_STONE = (
    # A faceted stone, its crown and its pavilion.
    '<path d="M30 22H70L90 42L50 92L10 42Z" class="f"/>'
    '<path d="M10 42H90M30 22L38 42L50 22L62 42L70 22M38 42L50 92L62 42" />'
    '<path d="M74 10L78 4M84 16L91 13M80 26L86 28" />'
)
_CLASS = (
    # A shield with a chevron and a boss: a hero's calling.
    '<path d="M50 8L84 18V46C84 68 70 84 50 94C30 84 16 68 16 46V18Z" class="f"/>'
    '<path d="M50 18L74 25V46C74 62 64 74 50 82C36 74 26 62 26 46V25Z" class="w"/>'
    '<path d="M30 58L50 42L70 58" /><path d="M30 70L50 54L70 70" />'
)
_SKILL = (
    # Three cards in a fan, the front one starred: a skill of the deck.
    '<rect x="14" y="22" width="36" height="54" rx="4" transform="rotate(-16 32 49)" '
    'class="f"/>'
    '<rect x="50" y="22" width="36" height="54" rx="4" transform="rotate(16 68 49)" '
    'class="f"/>'
    '<rect x="32" y="16" width="36" height="56" rx="4" class="w"/>'
    '<path d="M50 28L54 40H66L56 47L60 59L50 52L40 59L44 47L34 40H46Z" class="k"/>'
    '<path d="M24 90H76" />'
)
_ABILITY = (
    # A bolt in a ring: a power of one's own.
    '<circle cx="50" cy="50" r="40" class="f"/><circle cx="50" cy="50" r="31" class="w"/>'
    '<path d="M56 18L32 54H48L42 82L68 44H52Z" class="k"/>'
)
_CHALLENGE = (
    # Two swords crossed: a card that fights back.
    '<path d="M20 14L66 60L60 66L14 20Z" class="f"/>'
    '<path d="M80 14L34 60L40 66L86 20Z" class="f"/>'
    '<path d="M58 54L72 68M42 54L28 68" />'
    '<path d="M70 64L82 76L76 82L64 70Z M30 64L18 76L24 82L36 70Z" class="k"/>'
    '<circle cx="85" cy="85" r="5" class="f"/><circle cx="15" cy="85" r="5" class="f"/>'
)
_DAGGER = (
    # A dagger, point down.
    '<path d="M44 36H56L54 82L50 94L46 82Z" class="f"/>'
    '<path d="M50 40V84" />'
    '<rect x="28" y="30" width="44" height="8" rx="3" class="k"/>'
    '<rect x="45" y="10" width="10" height="20" rx="3" class="f"/>'
    '<circle cx="50" cy="8" r="5" class="f"/>'
)
_POTION = (
    # A round flask, a cork and the draught inside.
    '<path d="M42 12H58V34C74 40 84 52 84 66C84 82 70 94 50 94C30 94 16 82 16 66C16 52 26 '
    '40 42 34Z" class="w"/>'
    '<path d="M19 62C30 56 40 68 50 62C60 56 70 68 81 62C84 80 70 92 50 92C30 92 16 80 19 '
    '62Z" class="f"/>'
    '<rect x="39" y="6" width="22" height="9" rx="2" class="k"/>'
    '<circle cx="40" cy="74" r="3" class="w"/><circle cx="58" cy="80" r="2" class="w"/>'
)

#: The kinds a deck may name, and their drawings.
ICONS: dict[str, str] = {
    "monster": _MONSTER,
    "item": _ITEM,
    "treasure": _TREASURE,
    "artifact": _ARTIFACT,
    "stone": _STONE,
    "class": _CLASS,
    "skill": _SKILL,
    "ability": _ABILITY,
    "challenge": _CHALLENGE,
    "dagger": _DAGGER,
    "potion": _POTION,
}


def icon_svg(kind: str) -> str:
    """The icon of ``kind`` as an SVG document, its classes styled in it: ``f`` filled
    light, ``w`` filled white, ``k`` filled with ink; every shape stroked with ink."""
    style = (f"path,rect,circle{{fill:none;stroke:{INK};stroke-width:{STROKE};"
             "stroke-linejoin:round;stroke-linecap:round}"
             f".f{{fill:{FILL}}}.w{{fill:#fff}}.k{{fill:{INK}}}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-4 -4 108 108" '
            f'width="108" height="108"><style>{style}</style>{ICONS[kind]}</svg>')


@cache
def icon_url(kind: str) -> str:
    """The icon of ``kind`` as a ``data:`` URL (one per kind: WeasyPrint parses each
    distinct URL once per document, however many cards show it)."""
    return data_url(icon_svg(kind))
