"""No secret the settings hold (token, webhook secret, a URL's password) or registered later reaches a log
line, a traceback or stderr."""

import logging
import sys

import pytest

from bot import logging_setup
from bot.logging_setup import RedactSecrets, redact, register_secret, register_settings
from bot.settings import Settings

TOKEN = "123456:SECRET-part-of-the-token-xyz"
HOOK = "hook-secret-0123456789abcdef"
PROXY_PASSWORD = "proxy-pass-0123"


@pytest.fixture(autouse=True)
def secrets(monkeypatch, tmp_path):
    monkeypatch.setattr(logging_setup, "_secrets", {})
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    register_settings(Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_WEBHOOK_SECRET=HOOK,
                               PROCTOR_BOT_API_PROXY=f"http://ann:{PROXY_PASSWORD}@proxy.example:3128"))


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
    link = "open https://desk.example/desk/link#AbCdEfGhIjKlMnOpQrStUvWxYz012345 within 10 minutes"
    invite = "https://t.me/proctor_bot?start=inv_AbCdEfGhIjKlMnOpQrStUv and inv_ZyXwVuTsRqPoNmLkJiHgFe alone"
    cookie = "Cookie: proctor_desk=s3ss10n-1d_AbCdEfGhIjKlMnOp; csrf=AbCdEfGhIjKlMnOpQrSt"
    assert redact(link) == "open https://desk.example/desk/link#<desk link> within 10 minutes"
    assert redact(invite) == "https://t.me/proctor_bot?start=<invite> and <invite> alone"
    assert redact(cookie) == "Cookie: proctor_desk=<desk session>; csrf=<csrf>"
    assert redact("inv_short and /desk/link#abc stay") == "inv_short and /desk/link#abc stay"


def test_a_urls_password_is_redacted_in_the_url_and_alone_however_short():
    """The settings' rule (Settings.secret_values): a URL setting's password is a secret; inside any URL a
    password is known by where it stands, so a short one (too short to register) is redacted there too."""
    assert redact(f"via http://ann:{PROXY_PASSWORD}@proxy.example:3128 and {PROXY_PASSWORD} alone") == \
        "via http://ann:<password>@proxy.example:3128 and <password> alone"
    assert redact("GET https://bob:pw@api.example/bot and redis://:x@h") == \
        "GET https://bob:<password>@api.example/bot and redis://:<password>@h"
    assert redact("http://host:8080/path and user:pw@host and at 10:30@home") == \
        "http://host:8080/path and user:pw@host and at 10:30@home"  # no URL, no password


def test_a_lower_case_token_in_the_environment_is_read_and_redacted(monkeypatch, tmp_path):
    """pydantic-settings' rule, case-insensitive names: the bot runs on `telegram_bot_token`, and the
    redaction takes the token from the settings, whatever its name's case."""
    monkeypatch.setattr(logging_setup, "_secrets", {})
    other = "654321:ANOTHER-token-from-the-environment"
    for name in ("TELEGRAM_BOT_TOKEN", "PROCTOR_WEBHOOK_SECRET", "PROCTOR_BOT_API_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("telegram_bot_token", other)
    register_settings(Settings())
    assert redact(f"POST /bot{other}/getMe") == "POST /bot<token>/getMe"
    assert redact(other.split(":")[1]) == "<token>"
