"""Showing question text as written, in Simplified or in Traditional."""

import pytest

from bank.script import to_script


@pytest.mark.parametrize(
    "text, script, shown",
    [
        ("數據並行的核心思想", "orig", "數據並行的核心思想"),
        ("數據並行的核心思想", "hans", "数据并行的核心思想"),
        ("数据并行的核心思想", "hant", "數據並行的核心思想"),
        ("圖形處理器（GPU）", "hans", "图形处理器（GPU）"),
        ("图形处理器", "hant", "圖形處理器"),
        ("消息傳遞接口", "hant", "消息傳遞接口"),
        ("$f(x)=max(0,x)$", "hans", "$f(x)=max(0,x)$"),
        ("", "hant", ""),
    ],
)
def test_to_script(text, script, shown):
    assert to_script(text, script) == shown


def test_unknown_script_raises():
    with pytest.raises(ValueError):
        to_script("梯度", "latin")
