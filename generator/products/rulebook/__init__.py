"""The rulebook."""
