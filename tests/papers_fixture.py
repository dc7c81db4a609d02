"""A small hand-made paper, saved through the real paper store."""

from bank.grading.terms import SegmentIn
from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_list import PaperSummary
from bank.paper_store import with_key_terms, write_papers
from bank.store import Store


def small_paper(slug: str = "demo", *, exam_only: bool = False, minutes: int = 60) -> Paper:
    return Paper(
        slug=slug, title=f"Demo paper {slug}",
        settings=PaperSettings(time_limit_min=minutes, exam_only=exam_only),
        sections=[
            Section(kind=Kind.single, title="单项选择题", points_each=2, questions=[
                Question(number=1, kind=Kind.single, stem="梯度累积的主要作用是（）",
                         options=["提高模型精度", "减少训练时间", "模拟大批次训练", "降低学习率"],
                         answer="C", explanation="梯度累积可模拟大批次。", points=2),
                Question(number=2, kind=Kind.single, stem="哪个函数用于累积梯度（）",
                         options=["add()", "accumulate()", "backward()", "sum()"], answer="C", points=2),
            ]),
            Section(kind=Kind.multi, title="多项选择题", points_each=2, questions=[
                Question(number=1, kind=Kind.multi, stem="属于梯度累积优点的有（）",
                         options=["减少内存消耗", "提高训练效率", "加速模型收敛", "提升泛化能力"],
                         answer="AB", points=2),
            ]),
            Section(kind=Kind.truefalse, title="判断题", points_each=2, questions=[
                Question(number=1, kind=Kind.truefalse, stem="梯度累积只能在训练开始阶段使用。", answer=False,
                         points=2),
            ]),
            Section(kind=Kind.fill, title="填空题", points_each=1, questions=[
                Question(number=1, kind=Kind.fill, stem="GPU的中文全称是______。", answer=[["图形处理器"]],
                         points=1),
                Question(number=2, kind=Kind.fill, stem="LoRA使用______，QLoRA使用______。",
                         answer=[["低秩近似"], ["量化低秩近似"]], points=1),
            ]),
            Section(kind=Kind.short, title="简答题", points_each=5, questions=[
                Question(number=1, kind=Kind.short, stem="简述梯度累积的原理。",
                         answer="梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将梯度进行累加。",
                         points=5),
                Question(number=2, kind=Kind.short, stem="被截断的题", answer="x", points=5,
                         flags=["truncated"]),
            ]),
        ],
    )


async def save_paper(db: Store, paper: Paper, now: float) -> int:
    """Store one paper as an import does (its key terms found first, then `write_papers` in one
    transaction); its id."""
    [found] = await with_key_terms([paper], segment_in=SegmentIn.THIS_PROCESS)
    [paper_id] = await db.run_write(lambda conn: write_papers(conn, [found], now))
    return paper_id


def summarize(paper: Paper) -> PaperSummary:
    """The summary of a paper loaded whole (`load_paper`), counted from its model: what
    bank.paper_list's one query must agree with."""
    assert paper.id is not None, "a stored paper has an id"
    s = paper.settings
    return PaperSummary(id=paper.id, code=paper.code, slug=paper.slug, title=paper.title, time_limit_min=s.time_limit_min,
                        attempts_allowed=s.attempts_allowed, exam_only=s.exam_only, invite_only=s.invite_only,
                        askable=sum(1 for q in paper.questions() if q.askable), max_score=paper.max_score)
