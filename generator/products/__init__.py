"""The products: rulebook, cards, sheets."""
