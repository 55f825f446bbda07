"""Character sheets and logs as a product: options, their files in a build, writing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from generator.model.loader import Content, Ruleset
from generator.model.paper import PAPERS
from generator.products.base import Job, Product
from generator.products.sheets.render import write_sheet
from generator.words import plural

Kind = Literal["sheet", "log"]
KINDS: tuple[Kind, ...] = ("sheet", "log")


@dataclass(frozen=True)
class SheetOptions:
    kind: Kind = "sheet"
    paper: str = "a4"
    floors: int | None = None  # a log's floors (levels, trial pages); None: the log's own


class Sheets(Product[SheetOptions]):
    """A ruleset's character sheet and its log, fillable on screen."""

    name = "sheets"

    def plan(self, content: Content, out_dir: Path) -> list[Job[SheetOptions]]:
        """One job per ruleset, kind (that the ruleset defines) and paper."""
        return [self.job(ruleset_id, out_dir / f"{ruleset_id}-{kind}-{paper}.pdf",
                         SheetOptions(kind, paper))
                for ruleset_id, ruleset in content.rulesets.items()
                for kind in KINDS
                if any(s.kind == kind for s in ruleset.sheets.values())
                for paper in PAPERS]

    def write(self, ruleset: Ruleset, options: SheetOptions, out: Path) -> str:
        pages = write_sheet(ruleset, options.kind, out, paper=options.paper,
                            floors=options.floors)
        return f"wrote {out} ({plural(pages, 'page')})"


def default_output(ruleset_id: str, options: SheetOptions) -> Path:
    return Path("build") / f"{ruleset_id}-{options.kind}-{options.paper}.pdf"


SHEETS = Sheets()
