"""Reading the files of a content tree: only inside it, every failure a finding.

Content may come from a stranger (``--content DIR``): a link that leads out of the tree
is refused, never read (design.md section 8), and a file that cannot be read or parsed
is one finding that names it, so that the loader can go on and report everything.
"""

from __future__ import annotations

import codecs
import os
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.limits import FILE_KB, PARSE_MB, memory_bound
from generator.model.schema import Findings
from generator.model.shape import long_array, long_markdown_table, toml_shape_problem


@dataclass
class Reader:
    """Reads the files under ``root``; names them relative to ``base`` in findings."""

    root: Path
    base: Path
    findings: Findings
    read: int = 0  # the bytes of every file read so far
    # What each file read held (parsed TOML, or Markdown text): the checks that follow
    # the loader's (the fonts' coverage) read it here, never the file a second time.
    sources: dict[Path, Any] = field(default_factory=dict)

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
        """The parsed TOML file, or None with a finding. Its shape is bounded before it is
        parsed (:mod:`generator.model.shape`), and the parse runs under a memory bound
        that turns any blow-up left into a finding."""
        text = self._decoded(path)
        if text is None:
            return None
        shown = self.shown(path)
        problem = toml_shape_problem(text)
        if problem is not None:
            self.findings.add(shown, "", f"refused: {problem}")
            return None
        try:
            with memory_bound(PARSE_MB.value):
                raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            self.findings.add(shown, "", f"malformed TOML: {exc}")
            return None
        except RecursionError:  # tomllib reads nested arrays and tables by recursion
            self.findings.add(shown, "", "malformed TOML: arrays or tables nested too deeply")
            return None
        except ValueError:  # int() refuses more than 4,300 digits
            self.findings.add(shown, "", "malformed TOML: a number of thousands of digits "
                              "(a TOML integer has at most 19)")
            return None
        except MemoryError:
            self.findings.add(shown, "", f"refused: reading it took {PARSE_MB.passed()}")
            return None
        long = long_array(raw)
        if long is not None:
            self.findings.add(shown, long[0], f"refused: {long[1]}")
            return None
        self.sources[path] = raw
        return raw

    def text(self, path: Path) -> str | None:
        """The UTF-8 text of a Markdown file, or None with a finding; a table of more rows
        than a render is bounded to is refused."""
        text = self._decoded(path)
        problem = None if text is None else long_markdown_table(text)
        if problem is not None:
            self.findings.add(self.shown(path), "", f"refused: {problem}")
            return None
        if text is not None:
            self.sources[path] = text
        return text

    def _decoded(self, path: Path) -> str | None:
        """The file's text (a UTF-8 byte-order mark dropped), or None with a finding."""
        data = self._bytes(path)
        if data is None:
            return None
        try:
            return data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
        except UnicodeDecodeError as exc:
            self.findings.add(self.shown(path), "",
                              f"not UTF-8 text (byte {exc.start:,} is {data[exc.start]:#04x})")
        return None

    def _bytes(self, path: Path) -> bytes | None:
        """The bytes of a regular file inside ``root`` of at most :data:`FILE_KB`, or None
        with a finding. A pipe would hang the read and a device (``/dev/zero``) never end
        it: only regular files are opened, and a file swapped for one between the look
        and the open is caught by looking again at what was opened."""
        if self.outside(path):
            return None
        shown = self.shown(path)
        limit = FILE_KB.value * 1024
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                self.findings.add(shown, "", _NOT_REGULAR)
                return None
            handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            with os.fdopen(handle, "rb") as file:
                if not stat.S_ISREG(os.fstat(handle).st_mode):
                    self.findings.add(shown, "", _NOT_REGULAR)
                    return None
                data = file.read(limit + 1)
        except OSError as exc:
            self.findings.add(shown, "", f"cannot be read: {exc.strerror}")
            return None
        if len(data) > limit:
            size = max(os.path.getsize(path), len(data))
            self.findings.add(shown, "", f"refused: {FILE_KB.exceeded(f'{size / 1024:,.0f}')}")
            return None
        self.read += len(data)
        return data


_NOT_REGULAR = "refused: it is not a regular file (a pipe, a device or a socket); expected a file"
