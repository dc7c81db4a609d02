"""Importing the transport spares aiohttp's `ssl=False` context the system's CA store (~50 ms of every
cold start), and nothing else: the context the bot's session verifies with still holds it, and no
other context is touched (bot/aiohttp_request.py). In a fresh process, as `proctor run` imports it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import certifi

REPO = Path(__file__).resolve().parents[2]

_PROBE = """
import json, ssl, sys
import bot.app  # the start-up path: the transport is the first to import aiohttp
import aiohttp.connector as c
after = ssl.create_default_context()
print(json.dumps({
    "verified": [c._SSL_CONTEXT_VERIFIED.verify_mode == ssl.CERT_REQUIRED,
                 c._SSL_CONTEXT_VERIFIED.cert_store_stats()["x509_ca"]],
    "unverified": [c._SSL_CONTEXT_UNVERIFIED.verify_mode == ssl.CERT_NONE,
                   c._SSL_CONTEXT_UNVERIFIED.check_hostname,
                   c._SSL_CONTEXT_UNVERIFIED.cert_store_stats()["x509_ca"]],
    "later": after.cert_store_stats()["x509_ca"],
    "restored": "set_default_verify_paths" not in vars(ssl.SSLContext),
}))
"""


def test_only_the_context_that_verifies_nothing_goes_without_the_ca_store():
    # a CA store on any machine: OpenSSL's default paths read SSL_CERT_FILE first
    env = os.environ | {"SSL_CERT_FILE": certifi.where()}
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=REPO, env=env, capture_output=True, text=True,
                         check=True)
    got = json.loads(out.stdout)
    system_store = got["later"]
    assert system_store > 0  # there is a store to load (else the test could not tell)
    assert got["verified"] == [True, system_store]
    assert got["unverified"] == [True, False, 0]
    assert got["restored"]
