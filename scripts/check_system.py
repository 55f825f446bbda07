"""Check WeasyPrint's system libraries before installing; say in one line what is missing."""

import ctypes.util
import sys

REQUIRED = {"pango-1.0": "libpango-1.0-0", "pangoft2-1.0": "libpangoft2-1.0-0"}

missing = [pkg for lib, pkg in REQUIRED.items() if ctypes.util.find_library(lib) is None]
if missing:
    print(
        "towerpress: WeasyPrint needs Pango; install it with: "
        f"sudo apt-get install -y {' '.join(missing)}",
        file=sys.stderr,
    )
    sys.exit(1)
