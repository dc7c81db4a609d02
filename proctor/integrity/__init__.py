"""Integrity signals: things in a finished attempt for a human to look at (docs/integrity-signals.md)."""
