"""The content model: typed, validated, immutable views of content/."""
