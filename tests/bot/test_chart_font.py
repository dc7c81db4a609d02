"""/chart draws the papers' titles in the font PROCTOR_CJK_FONT names (a setting the bot hands to the
chart), and without a CJK font it numbers them and names them in the caption."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

from proctor.teams.charts import cjk_font
from tests.bot.test_leads_flow import ALPHA, LEAD_A, crafted_teams
from tests.harness import BotEnv
from tests.papers_fixture import small_paper

TITLE = "梯度累积试卷"
NO_FONT = "No Chinese font on this server"
# a font file every matplotlib ships: it stands in for a CJK font (which glyphs it has does not matter here)
SHIPPED_FONT = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


class FontEnv(BotEnv):
    def __init__(self, tmp_path, font: Path | None):
        super().__init__(tmp_path, admins=(1,))
        self.font = font

    def settings(self):
        return super().settings().model_copy(update={"cjk_font": self.font})


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # the stand-in has no CJK glyphs
@pytest.mark.parametrize("font", [SHIPPED_FONT, None], ids=["PROCTOR_CJK_FONT", "unset"])
async def test_the_chart_uses_the_font_setting(tmp_path, font):
    env = FontEnv(tmp_path, font)
    await env.seed(small_paper().model_copy(update={"title": TITLE}))
    await env.start()
    try:
        env.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
        await crafted_teams(env)
        await env.api.user(LEAD_A, "Lea").send("/chart week", chat=ALPHA)
        photo = await env.api.wait_for(lambda: next((m for m in env.api.group(ALPHA).chat() if m.photo), None),
                                       timeout=15)
    finally:
        await env.close()
    if font is not None:
        assert NO_FONT not in photo.caption and TITLE not in photo.caption  # drawn, not named
    elif cjk_font() is None:  # no CJK font installed either
        assert NO_FONT in photo.caption and f"= {TITLE}" in photo.caption
