"""Card decks: ``content/<ruleset>/decks/<id>.toml`` says which entities become cards.

A deck file never retypes the text of an entity; it names what to print::

    title = "Monsters"          # the deck's name, on the back and on its cards' band
    order = 1                   # decks print in this order (then by id)
    back = "skills"             # optional: share another deck's back (cards shuffled in)
    back_motif = "cards"        # optional: the drawing in the back's middle (BACK_MOTIFS)

    [[cards]]                   # a group of cards, one per entity of a source
    source = "monster-manual"   # a printable table (one card per row) or a family source
    only = ["Goblins"]          # optional: these entities only, by name, in this order
    skip = ["Stone"]            # optional: leave these out
    stats = ["HP", "Mind"]      # fields shown as boxed numbers
    fields = ["Loot"]           # fields shown as text (default: every other field)
    copies = 1                  # prints of each card
    write_in = "New skill"      # optional: a labelled line to write on
    band = "Treasures"          # optional: these cards' band, instead of the deck's title
    icon = "monster"            # optional: the kind drawn on these cards (ICON_KINDS)
    calls = ["main-level"]      # optional: dice tables whose rolls name these entities

    [[cards]]                   # a reference card: whole tables of the model
    tables = ["events", "treasure"]
    title = "Events and treasure"   # optional; the first table's title by default

Names in ``source``, ``tables``, ``only``, ``skip``, ``stats`` and ``fields`` are checked
against the model (``check_ref``) when the ruleset's data loaded without errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.model.common import Profile
from generator.model.deck_sources import Source
from generator.model.schema import Node, check_ref, check_unique
from generator.model.views import TableView

#: The kinds of card an entity card may show the icon of (``icon`` in a deck file): the
#: cards product draws each (generator.products.cards.icons).
ICON_KINDS = ("monster", "item", "treasure", "artifact", "stone", "class", "skill", "ability",
              "challenge", "dagger", "potion")


#: The drawings a deck's back can carry in its middle (products/cards/back.py): a die face
#: for a dice game, a fan of cards for a card game; either tells a ruleset's decks apart
#: by how many pips or cards it shows.
BACK_MOTIFS = ("dice", "cards")


@dataclass(frozen=True)
class CardGroup:
    """One ``[[cards]]`` entry of a deck file."""

    source: str  # "" for a reference card
    tables: tuple[str, ...]  # the tables of a reference card
    title: str
    only: tuple[str, ...]
    skip: tuple[str, ...]
    stats: tuple[str, ...]
    fields: tuple[str, ...]
    copies: int
    write_in: str
    band: str = ""  # the label on these cards' band, when not the deck's title
    icon: str = ""  # the kind drawn on these cards, one of ICON_KINDS ("": none)
    calls: tuple[str, ...] = ()  # dice tables whose rows name these entities


@dataclass(frozen=True)
class Card:
    """One card face, all of its text from the model."""

    key: str  # unique in its deck: "<deck>/<name>"
    deck: str
    deck_title: str  # on the card's band: its group's band, or the deck's title
    title: str
    stats: tuple[tuple[str, str], ...] = ()
    fields: tuple[tuple[str, str], ...] = ()
    tables: tuple[TableView, ...] = ()
    write_in: str = ""
    roll: str = ""  # die faces, for a card from a row of a dice table
    part: int = 0  # which of ``parts`` cards a reference card too long for its size was
    parts: int = 0  # cut into (generator.products.cards.split); 0 for a whole card
    icon: str = ""  # the kind drawn on an entity's card (ICON_KINDS), "" for none
    # The rolls that bring the entity into play, each (what is rolled, the die faces):
    # its own row's roll, then the rows of the group's ``calls`` tables that name it.
    calls: tuple[tuple[str, str], ...] = ()
    # A part's tables whole, as the card it was cut from held them: every part sets its
    # columns as wide as the whole's (generator.products.cards.columns).
    whole: tuple[TableView, ...] = ()


@dataclass(frozen=True)
class Deck:
    id: str
    title: str
    order: int
    groups: tuple[CardGroup, ...]
    back: str  # the deck whose back these cards share (its own id by default)
    back_motif: str = "dice"  # what its back shows: a die face, or a fan of cards

    def cards(self, sources: Mapping[str, Source], tables: Mapping[str, TableView],
              profile: Profile | None = None) -> tuple[Card, ...]:
        """Every card of the deck, copies included, in print order.

        A card is played by one profile: ``sources`` and ``tables`` are printed for it
        (its readings only, marked with their ruling IDs; the rulebook gives both), as
        :meth:`generator.model.loader.Ruleset.cards` builds them.
        """
        cards: list[Card] = []
        for group in self.groups:
            cards.extend(self._group_cards(group, sources, tables, profile))
        return tuple(cards)

    def _group_cards(
        self,
        group: CardGroup,
        found: Mapping[str, Source],
        tables: Mapping[str, TableView],
        profile: Profile | None,
    ) -> list[Card]:
        if not group.source:
            views = tuple(tables[name] for name in group.tables)
            title = group.title or views[0].title
            card = Card(f"{self.id}/{title}", self.id, group.band or self.title, title,
                        tables=views)
            return [card] * group.copies
        source = found[group.source]
        entities = {e.name: e for e in source.entities(profile)}
        names = list(group.only or entities)
        out: list[Card] = []
        for name in names:
            if name in group.skip:
                continue
            entity = entities[name]
            stats = tuple((label, entity.field(label)) for label in group.stats
                          if entity.field(label))
            wanted = group.fields or tuple(
                label for label, _ in entity.fields if label not in group.stats
            )
            fields = tuple((label, entity.field(label)) for label in wanted
                           if entity.field(label))
            # A card's key names its layout: the same entity under two bands is two cards.
            key = f"{self.id}/{group.band}/{name}" if group.band else f"{self.id}/{name}"
            own = ((short_title(source.title), entity.roll),) if entity.roll else ()
            card = Card(key, self.id, group.band or self.title, name, stats, fields,
                        write_in=group.write_in, roll=entity.roll, icon=group.icon,
                        calls=own + calls_of(name, [tables[t] for t in group.calls]))
            out.extend([card] * group.copies)
        return out


def short_title(title: str) -> str:
    """A table's title up to a colon or a bracket: "Dungeon level" of "Dungeon level:
    location, monster and treasure", "Stones" of "Stones (all permanent)"."""
    return title.split(":", 1)[0].split(" (", 1)[0].strip()


def calls_of(name: str, tables: Sequence[TableView]) -> tuple[tuple[str, str], ...]:
    """Each roll of ``tables`` whose row names ``name`` in a cell: (the table, the faces)."""
    return tuple((short_title(table.title), row[0]) for table in tables if table.roll_column
                 for row in table.rows if name in row[1:])


def _group(node: Node, known: Mapping[str, Source] | None, tables: set[str] | None) -> CardGroup:
    has_source, has_tables = node.has("source"), node.has("tables")
    if has_source == has_tables:
        node.error_here("expected exactly one of source (one card per entity) or tables "
                        "(one reference card)")
    source = node.str("source", "") if has_source else ""
    names = node.str_list("tables", ())
    if has_tables and not names:
        node.error("tables", "expected at least one table name")
    group = CardGroup(
        source=source,
        tables=names,
        title=node.str("title", ""),
        only=node.str_list("only", ()),
        skip=node.str_list("skip", ()),
        stats=node.str_list("stats", ()),
        fields=node.str_list("fields", ()),
        copies=node.int("copies", 1, min=1, max=100),
        write_in=node.str("write_in", ""),
        band=node.str("band", ""),
        icon=node.choice("icon", ICON_KINDS, ""),
        calls=node.str_list("calls", ()),
    )
    if has_tables and (group.only or group.skip or group.stats or group.fields or group.icon
                       or group.calls):
        node.error_here("only, skip, stats, fields, icon and calls go with source, not with "
                        "tables")
    node.done()
    if known is None or tables is None:
        return group  # the data had errors: syntax only
    for key in ("tables", "calls"):
        for i, name in enumerate(getattr(group, key)):
            check_ref(node, f"{key}[{i}]", name, tables, "table")
    if source and check_ref(node, "source", source, known, "card source"):
        src = known[source]
        for key in ("only", "skip"):
            for i, name in enumerate(getattr(group, key)):
                check_ref(node, f"{key}[{i}]", name, src.names, f"{src.title} entry")
        for key in ("stats", "fields"):
            for i, label in enumerate(getattr(group, key)):
                check_ref(node, f"{key}[{i}]", label, src.labels, f"{src.title} field")
        check_unique(node, "only", group.only)
    return group


def load_decks(nodes: Mapping[str, Node], known: Mapping[str, Source] | None,
               tables: set[str] | None) -> Mapping[str, Deck]:
    """Typed decks by deck id, from the ``decks/*.toml`` nodes (by file stem), checked
    against the family's sources and table names.

    ``known`` and ``tables`` are None when the ruleset's tables had errors: then only the
    syntax is checked.
    """
    decks: dict[str, Deck] = {}
    for stem, node in nodes.items():
        groups = tuple(_group(g, known, tables) for g in node.tables("cards", min_items=1))
        deck = Deck(stem, node.str("title"), node.int("order", 100, min=0), groups,
                    node.str("back", stem), node.choice("back_motif", BACK_MOTIFS, "dice"))
        node.done()
        decks[stem] = deck
    for stem, deck in decks.items():
        check_ref(nodes[stem], "back", deck.back, decks, "deck")
    return dict(sorted(decks.items(), key=lambda kv: (kv[1].order, kv[0])))
