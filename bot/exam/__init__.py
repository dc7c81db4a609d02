"""Feature package: `register(app)` adds its handlers; `on_startup(app)` re-arms its jobs."""

from telegram.ext import Application

COMMANDS: list[tuple[str, str, str]] = []  # (command, English description, Chinese description)


def register(app: Application) -> None:
    """Add this feature's handlers."""


async def on_startup(app: Application) -> None:
    """Rebuild this feature's jobs from the database."""
