"""Card decks."""
