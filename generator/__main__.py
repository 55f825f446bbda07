"""``python -m generator`` runs the towerpress command."""

from generator.cli import main

main()
