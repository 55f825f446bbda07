"""TowerPress: print-and-play products for three small tabletop RPGs.

House rules of the package:

- Deterministic: the same content, seed, profile and version give byte-identical output.
- Exact: probabilities are ``fractions.Fraction``; floats appear only when printing.
- Immutable: model objects are frozen dataclasses; the engine never mutates content.
- Layered: content -> model -> engine -> render -> CLI; a layer imports only earlier ones.
"""

__version__ = "0.1.0"
