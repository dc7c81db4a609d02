"""No registered secret (token, webhook secret, ...) reaches a log line, a traceback or stderr."""

import logging
import sys

import pytest

from bot import logging_setup
from bot.logging_setup import RedactSecrets, register_secret, register_token

TOKEN = "123456:SECRET-part-of-the-token-xyz"
HOOK = "hook-secret-0123456789abcdef"


@pytest.fixture(autouse=True)
def secrets(monkeypatch):
    monkeypatch.setattr(logging_setup, "_secrets", {})
    register_token(TOKEN)
    register_secret(HOOK, "webhook secret")


def _logged(emit) -> str:
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(self.format(record))

    handler = Keep(level=logging.DEBUG)
    handler.addFilter(RedactSecrets())
    log = logging.getLogger("redaction-test")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        emit(log)
    finally:
        log.removeHandler(handler)
    return "\n".join(records)


def test_secrets_are_redacted_in_messages_args_tracebacks_and_stacks():
    def emit(log):
        log.debug("POST https://api.telegram.org/bot%s/getMe", TOKEN)
        log.debug("Calling Bot API endpoint `setWebhook` with parameters `%s`", {"secret_token": HOOK})
        log.info("the secret part alone: %s", TOKEN.split(":")[1])
        log.warning("stack", stack_info=True, extra={"x": HOOK})
        try:
            raise RuntimeError(f"failed calling https://api.telegram.org/bot{TOKEN}/setWebhook?secret_token={HOOK}")
        except RuntimeError:
            log.exception("boom")

    text = _logged(emit)
    assert "<token>" in text and "<webhook secret>" in text and "RuntimeError" in text and "Stack" in text
    assert TOKEN not in text and "SECRET-part" not in text and HOOK not in text


def test_uncaught_exceptions_are_redacted(capsys):
    try:
        raise ValueError(f"crashed holding {HOOK} and {TOKEN}")
    except ValueError:
        logging_setup._excepthook(*sys.exc_info())
    err = capsys.readouterr().err
    assert "ValueError: crashed holding <webhook secret> and <token>" in err and HOOK not in err


def test_a_short_secret_is_refused_rather_than_redacted_everywhere():
    with pytest.raises(ValueError):
        register_secret("abc", "desk key")


def test_per_use_secrets_are_redacted_by_where_they_stand():
    from bot.logging_setup import redact

    link = "open https://desk.example/desk/link#AbCdEfGhIjKlMnOpQrStUvWxYz012345 within 10 minutes"
    invite = "https://t.me/proctor_bot?start=inv_AbCdEfGhIjKlMnOpQrStUv and inv_ZyXwVuTsRqPoNmLkJiHgFe alone"
    cookie = "Cookie: proctor_desk=s3ss10n-1d_AbCdEfGhIjKlMnOp; csrf=AbCdEfGhIjKlMnOpQrSt"
    assert redact(link) == "open https://desk.example/desk/link#<desk link> within 10 minutes"
    assert redact(invite) == "https://t.me/proctor_bot?start=<invite> and <invite> alone"
    assert redact(cookie) == "Cookie: proctor_desk=<desk session>; csrf=<csrf>"
    assert redact("inv_short and /desk/link#abc stay") == "inv_short and /desk/link#abc stay"
