"""The desk's audit log in words: each action one sentence in the reader's language, with people's
first names, paper and team titles instead of ids, times in the team's zone; an action without words
reads as "actor: action · key value", never as raw JSON. And every action the code writes has words."""

import ast
import re
import string
from pathlib import Path

import pytest

from bank.models import PaperSettings
from bot.i18n import CATALOGUE
from proctor import hiring
from proctor.audit import AuditAction
from proctor.exams.held import REGRADE, change_detail
from proctor.teams import audit, roster
from proctor.teams.curation import write_settings
from proctor.teams.digest import set_schedule
from tests.bot.test_leads_flow import ALPHA, ANN, BOB, LEAD_A, crafted_teams
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.harness import T0
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import paper_id
from tests.stored import shown_ref

ADMIN = 1
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def env(tmp_path, db_location):
    e = DeskEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    e.api.user(LEAD_A, "Lea")
    e.api.user(ADMIN, "Boss")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


async def test_the_audit_log_reads_as_sentences_with_names_and_local_times_in_both_languages(env):
    await Crafted(env.db).group(ALPHA, "Alpha", tz="Asia/Shanghai")  # before crafted_teams: the zone stays
    await crafted_teams(env)
    await Crafted(env.db).user(ADMIN, "Boss")
    pid = await paper_id(env.db, "demo")
    title = small_paper().title
    await roster.remove(env.db, ALPHA, BOB, lead=LEAD_A, now=T0)  # 16:00 in Shanghai
    await hiring.verify(env.db, ALPHA, [pid], actor=ADMIN, now=T0 + 60)
    await set_schedule(env.db, ALPHA, enabled=True, weekday=4, at_time="18:30", lead=LEAD_A, now=T0 + 120)
    await write_settings(env.db, pid, actor=LEAD_A, chat_id=ALPHA, now=T0 + 180, signal_similar=80, exam_only=True,
                         review="sections", multi_policy="partial", attempts_allowed=None, pass_percent=None)
    await audit.log(env.db, at=T0 + 240, actor=LEAD_A, chat_id=ALPHA, action=REGRADE, target="attempt:7",
                    target_user=ANN, **change_detail(question=3, old=4.0, new=5.0, answer_old=0.0, answer_new=1.0,
                                                     from_version=1, to_version=2))
    await audit.log(env.db, at=T0 + 270, actor=LEAD_A, chat_id=ALPHA, action="report", target="week", rows=1)
    await audit.log(env.db, at=T0 + 300, actor=LEAD_A, chat_id=ALPHA, action="mystery", target="thing:1",
                    rows=3, who={"a": 1})
    lea = DeskClient(env)
    try:
        await lea.login(LEAD_A)
        status, html, _ = await lea.get("/desk/audit", team=str(ALPHA))
        assert status == 200
        rows = {r[3]: r for r in table_rows(html, "audit")}  # the Action column says the action in words
        assert rows["removed from the roster"] == ["2027-01-15 16:00 CST", "Lea", "Alpha", "removed from the roster",
                                                   "Lea removed Bob from the roster of Alpha"]
        assert rows["team verified for hiring"][0] == "2027-01-15 16:01 CST"
        assert rows["team verified for hiring"][4] == (
            f"Boss let Alpha invite to hiring papers and see their answers: {title}")
        assert rows["weekly digest set"][4] == "Lea set the weekly digest of Alpha: Friday 18:30"
        assert rows["paper settings changed"][4] == (
            f"Lea changed the settings of {title}: similar-answer threshold (%): 80, exam only: on, "
            "what candidates see afterwards: the total and the score by section, multiple-choice scoring: part marks, "
            "attempts allowed: unlimited, pass mark (%): off")
        assert rows["attempt regraded"][4] == (
            f"Lea regraded Ann&#39;s attempt #7 on {await shown_ref(env.db, 3)}: answer 0 → 1, total 4 → 5")
        assert rows["report downloaded"][4] == "Lea downloaded the report of Alpha for this week (1 row)"
        assert rows["mystery"][4] == "Lea: mystery thing:1 · rows 3 · who a 1"  # an action without words
        assert "{" not in html.split('id="audit"')[1]  # no JSON anywhere in the table
        assert '<option value="roster_consent">agreed to join the roster</option>' in html  # the filter, in words
        zh = DeskClient(env)
        await zh.login(LEAD_A, lang="zh")
        _, html, _ = await zh.get("/desk/audit", team=str(ALPHA))
        rows = {r[3]: r for r in table_rows(html, "audit")}
        assert rows["移出名单"][4] == "Lea 把 Bob 移出了 Alpha 的名单"
        assert rows["设置每周摘要"][4] == "Lea 设置了 Alpha 的每周摘要：周五 18:30"
        assert rows["授予招聘权限"][4] == f"Boss 允许 Alpha 邀请候选人参加招聘试卷并查看作答：{title}"
        assert rows["重新评分"][4].startswith("Lea 重新评分了 Ann 的作答 #7")
        assert rows["下载报表"][4] == "Lea 下载了 Alpha 的报表（本周，1 行）"
        assert rows["修改试卷设置"][4] == (
            f"Lea 修改了 {title} 的设置：相似作答阈值（%）：80，仅限考试：开，交卷后考生可见内容：总分及各部分得分，"
            "多选题计分：部分得分，可作答次数：不限，及格线（%）：关")
        await zh.close()
        # the CSV: the sentence beside the raw detail
        _, body, _ = await lea.get("/desk/audit.csv", team=str(ALPHA))
        assert "Lea removed Bob from the roster of Alpha" in body and '""was"": ""member""' in body
    finally:
        await lea.close()


_WRITERS = {"record_audit", "_audit", "_delete"}


def _is_writer(call: ast.Call) -> bool:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id in _WRITERS
    return isinstance(f, ast.Attribute) and (f.attr in _WRITERS or (
        f.attr in ("record", "log") and isinstance(f.value, ast.Name) and f.value.id == "audit"))


def written_actions() -> set[str]:
    """Every action the code hands to the audit log's writers, read from the source."""
    found: set[str] = set()
    for path in [p for d in ("bank", "proctor", "bot", "desk") for p in (ROOT / d).rglob("*.py")]:
        tree = ast.parse(path.read_text())
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _is_writer(n)):
            value = next((k.value for k in call.keywords if k.arg == "action"), None)
            if value is None and isinstance(call.func, ast.Name) and call.func.id == "_audit" and len(call.args) > 2:
                value = call.args[2]
            found |= _actions(path, value)
    return found


def _actions(path: Path, value: ast.expr | None) -> set[str]:
    match value:
        case ast.Constant(value=str(action)):
            return {action}
        case None | ast.Name(id="action"):
            return set()  # no action, or a writer passing on its caller's (found at the caller)
        case ast.Attribute(value=ast.Name(id="AuditAction"), attr=name):
            return {AuditAction[name].value}
        case ast.Name(id=name) | ast.Attribute(attr=name):
            return {_constant(path, name)}
        case ast.IfExp(body=a, orelse=b):
            return _actions(path, a) | _actions(path, b)
    raise AssertionError(f"{path}: an action this sweep cannot read: {ast.unparse(value)}")


def _constant(path: Path, name: str) -> str:
    """A module-level string constant named `name` (REGRADE, VERIFY), wherever the code defines it."""
    for p in (ROOT / "proctor").rglob("*.py"):
        m = re.search(rf"^(?:\w+, )*{name}(?:, \w+)* = (.+?)(?:  #.*)?$", p.read_text(), re.M)
        if m:
            names = re.match(r"^(.*?) = ", m.group(0)).group(1).split(", ")
            values = _value(m.group(1))
            return values[names.index(name)] if isinstance(values, tuple) else values
    raise AssertionError(f"{path}: action constant {name} not found")


def _value(source: str) -> str | tuple[str, ...]:
    """A constant's value: a string, an AuditAction member, or a tuple of them."""
    values = [AuditAction[m.group(1)].value if (m := re.fullmatch(r"AuditAction\.(\w+)", v.strip())) else
              ast.literal_eval(v.strip()) for v in source.split(",")]
    return values[0] if len(values) == 1 else tuple(values)


def test_every_action_the_code_writes_has_a_sentence_in_both_languages():
    actions = written_actions()
    assert {"roster_consent", "team_verify", "team_unverify", "regrade", "paper_settings", "report", "chart",
            "dispute_upheld", "roster_reject", "bank_upload"} <= actions  # the sweep reads them all
    fields = string.Formatter()
    for action in sorted(actions):
        texts = CATALOGUE.get(f"audit_{action}")
        assert texts is not None, f"audit action {action!r} has no sentence (bot/catalogue/audit.py)"
        en, zh = ({f for _, f, _, _ in fields.parse(texts[lang]) if f} for lang in ("en", "zh"))
        assert en == zh, action
    for setting in PaperSettings.model_fields:  # a paper_settings entry names each setting it changed
        assert f"audit_setting_{setting}" in CATALOGUE, setting
    for action in AuditAction:  # and the log's Action column and filter name each action in words
        assert {"en", "zh"} <= set(CATALOGUE[f"audit_action_{action.value}"]), action
