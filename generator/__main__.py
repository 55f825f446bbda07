"""``python -m generator`` runs the towerpress command."""

from generator.cli.main import main

main()
