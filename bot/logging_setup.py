"""Logging that never shows a secret: the bot token, the webhook secret, a URL's password, any key
registered here.

Secrets are registered when the process learns them (the settings' at start-up, by the settings' own
rule: `Settings.secret_values`; a random webhook secret when it is chosen); from then on every log
record that reaches a handler of the root logger, at any level and from any logger (PTB, httpx,
APScheduler, tornado, ours), has them replaced by `<label>` in its message, its traceback and its
stack. Uncaught exceptions are redacted too.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import traceback

from bot.settings import RecordSettings, mask_url_passwords

MIN_SECRET = 8  # shorter strings would be replaced wherever they occur: refuse them instead

_secrets: dict[str, str] = {}  # value -> label
# Secrets made per use (one-time desk links, invite tokens, desk session ids and CSRF tokens) are
# too many to register one by one: they are recognised by where they stand.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<=/desk/link#)[A-Za-z0-9_-]{16,}"), "desk link"),
    (re.compile(r"(?<=start=)inv_[A-Za-z0-9_-]{16,}|\binv_[A-Za-z0-9_-]{22}\b"), "invite"),
    (re.compile(r"(?<=proctor_desk=)[A-Za-z0-9_-]{16,}"), "desk session"),
    (re.compile(r"(?<=csrf=)[A-Za-z0-9_-]{16,}"), "csrf"),
)


def register_secret(value: str | None, label: str) -> None:
    """From now on `value` is shown as `<label>` in every log line. None is ignored.

    Raises ValueError for a value shorter than MIN_SECRET characters.
    """
    if value is None:
        return
    if len(value) < MIN_SECRET:
        raise ValueError(f"a {label} must be at least {MIN_SECRET} characters")
    _secrets[value] = label


def register_settings(settings: RecordSettings) -> None:
    """Every secret the settings hold, as `Settings.secret_values` finds them (the rule their repr masks
    by). A URL's password shorter than MIN_SECRET is redacted only inside a URL (see `redact`)."""
    for secret in settings.secret_values():
        if len(secret.value) >= MIN_SECRET:
            register_secret(secret.value, secret.label)


def redact(text: str) -> str:
    """`text` with every registered secret replaced by its label (longest secrets first), and every
    per-use secret (desk links and sessions, invite tokens) and URL's password too."""
    for value in sorted(_secrets, key=len, reverse=True):
        if value in text:
            text = text.replace(value, f"<{_secrets[value]}>")
    for pattern, label in _PATTERNS:
        text = pattern.sub(f"<{label}>", text)
    return mask_url_passwords(text, "<password>")  # however short: known by where it stands


class RedactSecrets(logging.Filter):
    """Rewrites a record so that no registered secret reaches the output."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            msg = record.getMessage()
        except Exception:  # a malformed call: let the handler report it, redacted below
            msg = f"{record.msg} {record.args}"
        clean = redact(msg)
        if clean != msg or record.args:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            # formatted once here, redacted; formatters reuse exc_text as it is
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def _excepthook(exc_type, exc, tb) -> None:
    sys.stderr.write(redact("".join(traceback.format_exception(exc_type, exc, tb))))


def _thread_excepthook(args) -> None:
    if args.exc_type is SystemExit:
        return
    _excepthook(args.exc_type, args.exc_value, args.exc_traceback)


LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def setup_logging(level: str | int = logging.INFO,
                  fmt: str = "%(asctime)s %(levelname)s %(name)s: %(message)s") -> None:
    """Log to stderr at `level`, every secret redacted. httpx's per-request lines and APScheduler's
    per-run lines are kept for DEBUG; at other levels they show from WARNING up."""
    level = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    logging.basicConfig(level=level, format=fmt)
    redacting = RedactSecrets()
    for handler in logging.getLogger().handlers:
        handler.addFilter(redacting)
    quiet = level if level <= logging.DEBUG else max(level, logging.WARNING)
    logging.getLogger("httpx").setLevel(quiet)
    logging.getLogger("apscheduler").setLevel(quiet)
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook
