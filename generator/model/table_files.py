"""The parsed ``tables/*.toml`` files of one ruleset, as a family's loader reads them."""

from __future__ import annotations

from generator.model.schema import Findings, Node


class TableFiles:
    """The root tables of ``tables/*.toml``, by file stem; a file no family reader asked
    for is a finding once they are done (:meth:`done`)."""

    def __init__(self, nodes: dict[str, Node], folder: str, findings: Findings):
        self._nodes = nodes
        self._folder = folder
        self._findings = findings
        self._used: set[str] = set()

    def file(self, stem: str) -> Node:
        """The root table of ``tables/<stem>.toml``; a missing file is a finding."""
        self._used.add(stem)
        if stem not in self._nodes:
            path = f"{self._folder}/{stem}.toml"
            self._findings.add(path, "", "missing file (expected a tables file of this name)")
            # The keys of a missing file are not reported one by one: the file is the problem.
            return Node({}, path, "", Findings())
        return self._nodes[stem]

    def done(self) -> None:
        for stem, node in self._nodes.items():
            if stem not in self._used:
                node.error_here(
                    f"unknown tables file (expected one of: {', '.join(sorted(self._used))})"
                )
