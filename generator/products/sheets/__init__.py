"""Sheets and logs."""
