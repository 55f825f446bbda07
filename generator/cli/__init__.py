"""The ``towerpress`` command line (:mod:`generator.cli.main`)."""
