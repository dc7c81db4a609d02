"""Logging that never shows the bot token."""

from __future__ import annotations

import logging


class RedactToken(logging.Filter):
    def __init__(self, token: str):
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token:
            msg = record.getMessage()
            if self.token in msg:
                record.msg = msg.replace(self.token, "<token>")
                record.args = ()
            if record.exc_info and not record.exc_text:
                # formatted once here, redacted; formatters reuse exc_text as it is
                record.exc_text = logging.Formatter().formatException(record.exc_info)
            if record.exc_text and self.token in record.exc_text:
                record.exc_text = record.exc_text.replace(self.token, "<token>")
        return True


def setup_logging(token: str, level: int = logging.INFO) -> None:
    """Log to stderr; the token is redacted everywhere, and httpx's URL lines are quietened."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact = RedactToken(token)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
