"""The rules engines: seeded, exact, pure (no file I/O, no PDF)."""
