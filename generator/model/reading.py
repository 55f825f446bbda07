"""Reading the files of a content tree: only inside it, every failure a finding.

Content may come from a stranger (``--content DIR``): a link that leads out of the tree
is refused, never read (design.md section 8), and a file that cannot be read or parsed
is one finding that names it, so that the loader can go on and report everything.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.model.schema import Findings


@dataclass
class Reader:
    """Reads the files under ``root``; names them relative to ``base`` in findings."""

    root: Path
    base: Path
    findings: Findings

    def shown(self, path: Path) -> str:
        """``path`` as a finding names it."""
        try:
            return str(path.relative_to(self.base))
        except ValueError:
            return str(path)

    def outside(self, path: Path) -> bool:
        """Whether ``path`` is a link that leads out of ``root`` (a finding if so)."""
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError):  # links that lead to each other (3.11 raises RuntimeError)
            self.findings.add(self.shown(path), "", "cannot be read: a loop of symbolic links")
            return True
        if resolved.is_relative_to(self.root):
            return False
        self.findings.add(self.shown(path), "",
                          f"refused: it links to {str(resolved)!r}, outside the content folder "
                          "(expected something inside it)")
        return True

    def listed(self, folder: Path, pattern: str) -> list[Path] | None:
        """The files of ``folder`` matching ``pattern``, sorted; a folder that is there but
        cannot be listed is a finding (glob would quietly find nothing in it), and None.
        So is a link to a folder outside ``root``: even its file names stay unread."""
        if folder.is_symlink() and self.outside(folder):
            return None
        if folder.is_dir() and not os.access(folder, os.R_OK | os.X_OK):
            self.findings.add(self.shown(folder), "", "cannot be read: permission denied")
            return None
        return sorted(folder.glob(pattern))

    def toml(self, path: Path) -> dict[str, Any] | None:
        """The parsed TOML file, or None with a finding."""
        shown = self.shown(path)
        if self.outside(path):
            return None
        try:
            with path.open("rb") as handle:
                return tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            self.findings.add(shown, "", f"malformed TOML: {exc}")
        except RecursionError:  # tomllib reads nested arrays and tables by recursion
            self.findings.add(shown, "", "malformed TOML: arrays or tables nested too deeply")
        except UnicodeDecodeError:
            self.findings.add(shown, "", "not UTF-8 text")
        except OSError as exc:
            self.findings.add(shown, "", f"cannot be read: {exc.strerror}")
        return None

    def text(self, path: Path) -> str | None:
        """The UTF-8 text of the file, or None with a finding."""
        if self.outside(path):
            return None
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            self.findings.add(self.shown(path), "", "not UTF-8 text")
        except OSError as exc:
            self.findings.add(self.shown(path), "", f"cannot be read: {exc.strerror}")
        return None
