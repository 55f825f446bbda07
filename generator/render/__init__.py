"""Rendering: Jinja templates, Markdown, the safe URL fetcher, PDF writing.

Every module that imports WeasyPrint is in this package, so this runs first.  WeasyPrint's
fonts come from fontconfig, which would add the host's fonts to the project's own: a
character the project's fonts lack would then be drawn from a file outside the project,
and the PDF would change with the host (design.md sections 8 and 9).  So fontconfig is
given a configuration with no fonts of its own (fonts.conf), read when WeasyPrint loads.
"""

import os
import warnings
from pathlib import Path

os.environ["FONTCONFIG_FILE"] = str(Path(__file__).with_name("fonts.conf"))
# WeasyPrint warns when fontconfig has no fonts: here that is the point, and the
# stylesheets' @font-face rules bring the fonts.
warnings.filterwarnings("ignore", message="No fonts configured in FontConfig",
                        category=UserWarning)
# Pillow warns of a picture of more pixels than it expects, yet decodes it; one it will not
# decode is refused with a line naming it (pictures.py).
warnings.filterwarnings("ignore", message="Image size .* exceeds limit", module="PIL")
