"""Decisions moved out of the daily handlers into the domain: /daily on's schedule, a 403's reason."""

import dataclasses

from proctor.daily.subscriptions import Subscription, off_reason, on_request

DEFAULTS = {"default_time": "09:00", "default_tz": "Asia/Shanghai", "default_questions": 5}


def _sub(**kw) -> Subscription:
    base = dict(chat_id=-1, chat_type="supergroup", enabled=True, at_time="07:30", timezone="Europe/Berlin", questions=3,
                close_after_min=90, changed_by=1, changed_at=0.0, disabled_reason=None)
    fields = {f.name for f in dataclasses.fields(Subscription)}
    return Subscription(**{k: v for k, v in {**base, **kw}.items() if k in fields})


def test_a_first_daily_on_takes_the_defaults_or_the_chats_last_zone():
    assert dataclasses.astuple(on_request(None, None, at=None, tz=None, close=None, **DEFAULTS)) == ("09:00", "Asia/Shanghai", 5, None)
    assert dataclasses.astuple(on_request(None, "Europe/Paris", at="18:00", tz=None, close=30, **DEFAULTS)) == \
        ("18:00", "Europe/Paris", 5, 30)


def test_a_daily_on_again_keeps_what_it_does_not_name():
    old = _sub()
    assert dataclasses.astuple(on_request(old, "Europe/Paris", at=None, tz=None, close=None, **DEFAULTS)) == \
        ("07:30", "Europe/Berlin", 3, 90)
    assert dataclasses.astuple(on_request(old, None, at="08:00", tz="UTC", close=0, **DEFAULTS)) == ("08:00", "UTC", 3, 0)


def test_a_403_in_a_private_chat_is_a_block_in_a_group_a_kick():
    assert off_reason(42) == "blocked" and off_reason(-100123) == "kicked"
