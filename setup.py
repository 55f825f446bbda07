"""The wheel's packages: every package under generator/, as found, and the bundled content
and templates as the data packages generator.content and generator.templates.

content/ and templates/ stay at the top of the repository, where users and the docs know
them, so they are mapped by package_dir; setuptools' packages.find cannot be given both, so
the list is made here.  A fourth ruleset's package is found with the others.
"""

from setuptools import find_packages, setup

DATA = {"generator.content": "content", "generator.templates": "templates"}

setup(
    packages=[*find_packages(include=["generator", "generator.*"]), *DATA],
    package_dir=DATA,
)
