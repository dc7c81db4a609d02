"""Exam callback data: within 64 bytes, round-trips, and refuses anything forged or garbled."""

import pytest

from bot.exam import callbacks as cb


@pytest.mark.parametrize("action,arg", [("answer", 3), ("answer", "t"), ("toggle", 0), ("submit", None),
                                        ("next", None), ("back", None), ("flag", None), ("finish_ask", None),
                                        ("finish_yes", None), ("finish_no", None), ("review", None)])
def test_round_trip(action, arg):
    data = cb.act(999_999_999_999, action, 9999, arg)
    assert len(data.encode()) <= 64
    parsed = cb.parse(data)
    assert parsed == cb.Act(999_999_999_999, action, 9999, None if arg is None else str(arg))


def test_pick_round_trip():
    assert cb.parse(cb.pick(12, "exam", start=False)) == cb.Pick(False, 12, "exam")
    assert cb.parse(cb.pick(None, "practice", start=True)) == cb.Pick(True, None, "practice")


@pytest.mark.parametrize("data", [None, "", "x", "x:", "x:1:z:0", "x:1:a:0", "x:abc:a:0:1", "x:1:a:0:99",
                                  "x:go:5:q", "x:go::e", "x:1:a:0:1;DROP", "x:" + "9" * 70 + ":n:0",
                                  "d:1:2", "\x00\xff", "x:1:m:0"])
def test_garbled_is_refused(data):
    assert cb.parse(data) is None
