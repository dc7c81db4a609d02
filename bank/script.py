"""Show text as written, in Simplified or in Traditional characters (OpenCC)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import opencc

SCRIPTS = ("orig", "hans", "hant")
_CONFIGS = {"hans": "t2s", "hant": "s2tw"}  # s2tw: the 為/裡 forms the seed papers use


@cache
def converter(config: str) -> opencc.OpenCC:
    """The OpenCC converter for `config` ("t2s", "s2t", ...), built once on first use."""
    import opencc  # imported here so that importing bank stays cheap

    return opencc.OpenCC(config)


def to_script(text: str, script: str) -> str:
    """`text` as written ("orig"), in Simplified ("hans") or in Traditional ("hant").

    Raises ValueError for any other script.
    """
    if script == "orig":
        return text
    config = _CONFIGS.get(script)
    if config is None:
        raise ValueError(f"unknown script {script!r}; expected one of {', '.join(SCRIPTS)}")
    if not text:
        return text
    converted: str = converter(config).convert(text)  # OpenCC.convert is not annotated
    return converted


def folded(text: str) -> str:
    """`text` for comparing names a person types (paper titles, topics): in Simplified characters and
    case-folded, so that 试题 finds 試題 (the bundled papers are written in both scripts) and "Lora"
    finds "LoRA"."""
    return to_script(text, "hans").casefold()
