"""Where the package's own files are: the program, the bundled content and the templates.

The repository keeps ``content/`` and ``templates/`` at its top, where users and the docs
know them; ``pyproject.toml`` maps them into the wheel as ``generator/content/`` and
``generator/templates/``.  An editable install runs the checkout, where they stay beside
the package: setuptools' editable finder cannot map a folder without ``__init__.py`` into a
package (pypa/setuptools#4943).  Standard library only: every layer may import this.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _package() -> Path:
    package = files("generator")
    # The loader, WeasyPrint and fontconfig read real files: an import from a zip cannot
    # render anything, so it fails here, at once, rather than at the first page.
    if not isinstance(package, Path):
        raise ImportError(f"towerpress must be installed as files, not imported from {package}")
    # Real paths, as the loader and the fetcher compare them.
    return package.resolve()


PACKAGE = _package()
# A wheel carries the data inside the package; a checkout has it beside the package.
_DATA = PACKAGE if (PACKAGE / "content").is_dir() else PACKAGE.parent
BUNDLED_CONTENT = _DATA / "content"
TEMPLATES = _DATA / "templates"
