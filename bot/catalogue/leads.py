"""Interface texts of this feature: key -> {"en": ..., "zh": ...}."""

TEXTS: dict[str, dict[str, str]] = {}
