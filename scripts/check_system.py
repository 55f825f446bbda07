"""Check WeasyPrint's system libraries before installing; say in one line what is missing."""

import ctypes.util
import sys

REQUIRED = {"pango-1.0": "libpango-1.0-0", "pangoft2-1.0": "libpangoft2-1.0-0"}
# Optional: without HarfBuzz's subsetter WeasyPrint falls back to fontTools, which works
# but makes writing each PDF several times slower.
FASTER = {"harfbuzz-subset": "libharfbuzz-subset0"}

missing = [pkg for lib, pkg in REQUIRED.items() if ctypes.util.find_library(lib) is None]
if missing:
    print(
        "towerpress: WeasyPrint needs Pango; install it with: "
        f"sudo apt-get install -y {' '.join(missing)}",
        file=sys.stderr,
    )
    sys.exit(1)
slow = [pkg for lib, pkg in FASTER.items() if ctypes.util.find_library(lib) is None]
if slow:
    print(
        "towerpress: note: PDFs are written several times faster with: "
        f"sudo apt-get install -y {' '.join(slow)}",
        file=sys.stderr,
    )
