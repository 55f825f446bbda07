"""Rendering: Jinja templates, Markdown, the safe URL fetcher, PDF writing."""
