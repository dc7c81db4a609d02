"""The token never reaches a log line, not even inside a traceback."""

import logging

from bot.logging_setup import RedactToken

TOKEN = "123456:SECRET-part-of-the-token-xyz"


def test_token_is_redacted_in_messages_args_and_tracebacks():
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(self.format(record))

    handler = Keep()
    handler.addFilter(RedactToken(TOKEN))
    log = logging.getLogger("redaction-test")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("POST https://api.telegram.org/bot%s/getMe", TOKEN)
        try:
            raise RuntimeError(f"failed calling https://api.telegram.org/bot{TOKEN}/sendMessage")
        except RuntimeError:
            log.exception("boom")
    finally:
        log.removeHandler(handler)
    text = "\n".join(records)
    assert "<token>" in text and "RuntimeError" in text
    assert TOKEN not in text and "SECRET-part" not in text
