"""Reading and writing papers and questions in SQLite."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
from collections.abc import Sequence

from bank.errors import ComposedSlug, NotFound, SameTitle
from bank.grading.terms import SegmentIn, terms_for
from bank.import_notes import note, notes_from_json, notes_json
from bank.kinds import SUBJECTIVE, Kind, fingerprint
from bank.models import Note, Paper, PaperSettings, Question, Section
from bank.question_checks import refresh_paper
from bank.question_rows import QUESTION_SELECT as _QUESTION_SELECT
from bank.question_rows import question_from_row
from bank.store import Store, one_row

CODE = re.compile(r"P[1-9][0-9]{0,8}")  # a paper's code as migration 029 gives it


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


async def with_key_terms(papers: list[Paper], *, segment_in: SegmentIn) -> list[Paper]:
    """The papers with every subjective question's key terms found, jieba running where `segment_in`
    says (raises TermsUnavailable); do it before opening the transaction that writes them with
    `write_papers`."""
    return await asyncio.to_thread(_with_key_terms, papers, segment_in)  # jieba or its child: off the loop


def write_papers(conn: sqlite3.Connection, papers: list[Paper], now: float, *,
                 same_title: bool = False) -> list[int]:
    """Insert or update the papers inside a transaction the caller holds (so it commits more with it,
    e.g. an audit row); returns their ids. Find their key terms first (`with_key_terms`).

    A paper is identified by its slug. Questions are matched by fingerprint, so a re-import updates
    them in place and the answers already given stay attached; questions the new text no longer has
    are retired, not deleted. Unless `same_title`, a paper whose title another paper (another slug,
    already stored or earlier in `papers`) has is refused: raises SameTitle, so a renamed or truncated
    copy of a file does not become a second paper."""
    ids = []
    for paper in papers:
        if not same_title:
            refuse_same_title(conn, paper.title, paper.slug)
        ids.append(_write_paper(conn, paper, now))
    return ids


def refuse_composed_slug(conn: sqlite3.Connection, papers: list[Paper]) -> None:
    """Raises ComposedSlug if a file's paper has the slug of a composed paper: written by its slug, it
    would land on it (its title replaced, its own questions written out of sight: a composed paper
    shows the questions it drew). Inside the importing transaction."""
    for paper in papers:
        row = conn.execute("SELECT code, title FROM papers WHERE slug=? AND blueprint IS NOT NULL",
                           (paper.slug,)).fetchone()
        if row is not None:
            raise ComposedSlug(paper.slug, row[0] or "", row[1])


def refuse_same_title(conn: sqlite3.Connection, title: str, slug: str) -> None:
    """Raises SameTitle if a paper other than `slug` is titled `title` (inside the writing transaction)."""
    cur = conn.execute("SELECT id, slug, source_file FROM papers WHERE title=? AND slug<>? ORDER BY id LIMIT 1",
                       (title, slug))
    row = cur.fetchone()
    if row is not None:
        raise SameTitle(slug, title, row[0], row[1], row[2])


def slug_for(path_stem: str, title: str) -> str:
    """A stable ASCII slug: the file's name when it is ASCII, else a hash of the title."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", path_stem.lower()).strip("-")
    if len(slug) >= 3 and path_stem.isascii():
        return slug
    return "paper-" + hashlib.sha1(title.encode()).hexdigest()[:10]


def free_slug(conn: sqlite3.Connection, base: str) -> str:
    """`base`, or `base-2`, `base-3`, ...: the first slug no paper has (inside the writing transaction)."""
    slug, n = base, 1
    while conn.execute("SELECT 1 FROM papers WHERE slug=?", (slug,)).fetchone():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _reference(q: Question) -> str:
    return q.answer if isinstance(q.answer, str) else ""


def _with_key_terms(papers: list[Paper], segment_in: SegmentIn) -> list[Paper]:
    """The papers with every subjective question's key terms filled in (copies; inputs unchanged)."""
    wanted = [q for p in papers for q in p.questions() if q.kind in SUBJECTIVE and q.key_terms is None]
    if not wanted:
        return papers
    references = [_reference(q) for q in wanted]
    found = dict(zip((id(q) for q in wanted), terms_for(references, segment_in=segment_in), strict=True))

    def fill(q: Question) -> Question:
        return q.model_copy(update={"key_terms": found[id(q)]}) if id(q) in found else q

    return [p.model_copy(update={"sections": [
        s.model_copy(update={"questions": [fill(q) for q in s.questions]}) for s in p.sections]})
        for p in papers]


async def fill_key_terms(db: Store, question_ids: Sequence[int] | None = None, *,
                         segment_in: SegmentIn) -> int:
    """Find and store the key terms of subjective questions that have none (banks imported before
    key terms were stored; a reference answer just edited: `question_ids`, only those), jieba
    running where `segment_in` says; returns how many. Raises TermsUnavailable."""
    kinds = ",".join(f"'{k.value}'" for k in sorted(SUBJECTIVE))
    only = "" if question_ids is None else f" AND id IN ({','.join('?' * len(question_ids))})"
    rows = await db.fetchall(
        f"SELECT id, answer FROM questions WHERE key_terms IS NULL AND kind IN ({kinds}){only}",
        list(question_ids or ()))
    if not rows:
        return 0
    references = [a if isinstance(a := json.loads(r["answer"]), str) else "" for r in rows]
    terms = await asyncio.to_thread(terms_for, references, segment_in=segment_in)

    def transaction(conn: sqlite3.Connection) -> int:
        conn.executemany("UPDATE questions SET key_terms=? WHERE id=? AND key_terms IS NULL",
                         [(_dumps(t), r["id"]) for t, r in zip(terms, rows, strict=True)])
        return len(rows)

    return await db.run_write(transaction)


def _write_paper(conn: sqlite3.Connection, paper: Paper, now: float) -> int:
    """Insert the paper with every setting, its subject and its code (the file's, when it is a code and
    no other paper holds it; else the trigger of migration 029/037 gives one), or update a stored one:
    its title, file and notes, and its subject when the file names one. A stored paper's settings and
    code stay as they are (`proctor bank set` changes settings)."""
    s = paper.settings
    code = paper.code if CODE.fullmatch(paper.code) and not conn.execute(
        "SELECT 1 FROM papers WHERE code=? AND slug<>?", (paper.code, paper.slug)).fetchone() else None
    columns: dict[str, object] = {
        "slug": paper.slug, "title": paper.title, "source_file": paper.source_file,
        "time_limit_min": s.time_limit_min, "attempts_allowed": s.attempts_allowed,
        "grading_method": s.grading_method, "multi_policy": s.multi_policy.value,
        "exam_only": int(s.exam_only or s.invite_only), "shuffle_options": int(s.shuffle_options),
        "notes": notes_json(paper.notes), "imported_at": now}
    # the columns later migrations added, named when the paper's value is not the column's default
    for name, value, default in (
            ("subject", paper.subject, ""), ("code", code, None), ("invite_only", int(s.invite_only), 0),
            ("review", s.review, None), ("pass_percent", s.pass_percent, None), ("signals", int(s.signals), 1),
            ("signal_similar", s.signal_similar, 90.0), ("signal_fast", s.signal_fast, 3),
            ("signal_late", s.signal_late, 3), ("signal_quick", s.signal_quick, 33.0)):
        if value != default:
            columns[name] = value
    subject = ("subject=CASE WHEN excluded.subject<>'' THEN excluded.subject ELSE papers.subject END, "
               if "subject" in columns else "")
    cur = conn.execute(
        f"""INSERT INTO papers ({", ".join(columns)}) VALUES ({",".join("?" * len(columns))})
           ON CONFLICT(slug) DO UPDATE SET title=excluded.title, {subject}
               source_file=excluded.source_file, notes=excluded.notes, imported_at=excluded.imported_at
           RETURNING id""",
        list(columns.values()),
    )
    paper_id: int = one_row(cur.fetchone())[0]
    edit_notes = _edited_notes(conn, paper)
    kept: list[str] = []
    for pos, section in enumerate(paper.sections, start=1):
        cur = conn.execute(
            """INSERT INTO sections (paper_id, position, kind, title, points_each, declared_count)
               VALUES (?,?,?,?,?,?)
               ON CONFLICT(paper_id, position) DO UPDATE SET kind=excluded.kind,
                   title=excluded.title, points_each=excluded.points_each,
                   declared_count=excluded.declared_count
               RETURNING id""",
            (paper_id, pos, section.kind.value, section.title, section.points_each,
             section.declared_count),
        )
        section_id = one_row(cur.fetchone())[0]
        rows = []
        for q in section.questions:
            fp = fingerprint(paper.slug, pos, q.number)
            kept.append(fp)
            rows.append((fp, paper_id, section_id, q.number, q.kind.value, q.stem,
                         _dumps(q.options), _dumps(q.answer), q.explanation, q.points,
                         _dumps(q.flags), q.topic, q.name, _dumps(q.weights), _dumps(q.feedback),
                         q.difficulty, None if q.key_terms is None else _dumps(q.key_terms),
                         q.seq, paper_id))
        # one call per section: aiosqlite hops to its thread once per call, not once per row. A new
        # question keeps the n its file gives it when no other question of the paper has it; else (and
        # without one) migration 035's trigger gives it the next. A stored question keeps its own.
        conn.executemany(
            """INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem,
                   options, answer, explanation, points, flags, topic, name, weights, feedback,
                   difficulty, key_terms, retired, seq)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,
                       (SELECT n FROM (SELECT CAST(? AS INTEGER) AS n) AS given WHERE NOT EXISTS (
                            SELECT 1 FROM questions WHERE paper_id=? AND seq=n)))
               ON CONFLICT(fingerprint) DO UPDATE SET paper_id=excluded.paper_id,
                   section_id=excluded.section_id, number=excluded.number,
                   points=excluded.points, flags=excluded.flags, topic=excluded.topic,
                   name=excluded.name, difficulty=excluded.difficulty, """ + _KEEP_EDITED,
            rows,
        )
    marks = ",".join("?" * len(kept)) or "''"
    conn.execute(
        f"UPDATE questions SET retired=1 WHERE paper_id=? AND fingerprint NOT IN ({marks})",
        (paper_id, *kept),
    )
    conn.execute(
        "DELETE FROM sections WHERE paper_id=? AND position>? "
        "AND NOT EXISTS (SELECT 1 FROM questions q WHERE q.section_id=sections.id)",
        (paper_id, len(paper.sections)),
    )
    if edit_notes:
        conn.execute("UPDATE papers SET notes=? WHERE id=?", (notes_json(paper.notes + edit_notes), paper_id))
    refresh_paper(conn, paper_id)  # pinned options, letter references, doubts: found at import
    return paper_id


# A question a lead edited (/editq, /keyfix: key_version > 1) keeps its text and key when its paper is
# imported again: the file is the old text, the edit is the newer one. The import says so in a note.
_EDITED = ("kind", "stem", "options", "answer", "explanation", "weights", "feedback", "key_terms")
_KEEP_EDITED = ", ".join(f"{c}=CASE WHEN questions.key_version>1 THEN questions.{c} ELSE excluded.{c} END"
                         for c in _EDITED)


def _edited_notes(conn: sqlite3.Connection, paper: Paper) -> list[Note]:
    """A note per question of `paper` that a lead edited and whose text or key in the file differs."""
    incoming = {fingerprint(paper.slug, pos, q.number): q for pos, s in enumerate(paper.sections, start=1)
                for q in s.questions}
    if not incoming:
        return []
    marks = ",".join("?" * len(incoming))
    cur = conn.execute(
        f"SELECT id, fingerprint, key_version, kind, stem, options, answer, explanation, seq, "
        f"(SELECT code FROM papers p WHERE p.id = questions.paper_id) AS code FROM questions "
        f"WHERE key_version>1 AND fingerprint IN ({marks})", list(incoming))
    notes = []
    for r in cur.fetchall():
        q = incoming[r["fingerprint"]]
        if (r["kind"], r["stem"], json.loads(r["options"]), json.loads(r["answer"]), r["explanation"]) != (
                q.kind.value, q.stem, q.options, q.answer, q.explanation):
            notes.append(note("kept_edit", ref_code=r["code"], ref_n=r["seq"], version=r["key_version"]))
    return notes




async def get_question(db: Store, question_id: int) -> Question:
    """Raises NotFound."""
    row = await db.fetchone(f"{_QUESTION_SELECT} WHERE q.id = ?", (question_id,))
    if row is None:
        raise NotFound(f"no question {question_id}")
    return question_from_row(row)


async def get_questions(db: Store, ids: list[int]) -> dict[int, Question]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = await db.fetchall(f"{_QUESTION_SELECT} WHERE q.id IN ({marks})", ids)
    return {r["id"]: question_from_row(r) for r in rows}


def _settings_from_row(row: sqlite3.Row) -> PaperSettings:
    return PaperSettings(
        time_limit_min=row["time_limit_min"],
        attempts_allowed=row["attempts_allowed"],
        grading_method=row["grading_method"],
        multi_policy=row["multi_policy"],
        exam_only=bool(row["exam_only"]),
        shuffle_options=bool(row["shuffle_options"]),
        invite_only=bool(row["invite_only"]),
        review=row["review"],
        pass_percent=row["pass_percent"],
        signals=bool(row["signals"]),
        signal_similar=row["signal_similar"],
        signal_fast=row["signal_fast"],
        signal_late=row["signal_late"],
        signal_quick=row["signal_quick"],
    )


async def load_paper(db: Store, key: int | str, *, include_retired: bool = False) -> Paper:
    """A whole paper by id or slug, in one round trip. Raises NotFound."""
    return await db.run(lambda conn: load_paper_in(conn, key, include_retired=include_retired))


def load_paper_in(conn: sqlite3.Connection, key: int | str, *, include_retired: bool = False) -> Paper:
    """`load_paper` on the database thread (inside a transaction that writes it back, say). Raises NotFound."""
    col = "id" if isinstance(key, int) else "slug"
    prow = conn.execute(f"SELECT * FROM papers WHERE {col} = ?", (key,)).fetchone()
    if prow is None:
        raise NotFound(f"no paper {key!r}")
    if prow["blueprint"] is not None:
        return _composed(conn, prow, include_retired)
    srows = conn.execute("SELECT * FROM sections WHERE paper_id=? ORDER BY position", (prow["id"],)).fetchall()
    qrows = conn.execute(f"{_QUESTION_SELECT} WHERE q.paper_id=? ORDER BY s.position, q.number", (prow["id"],)).fetchall()
    by_section: dict[int, list[Question]] = {}
    for r in qrows:
        q = question_from_row(r)
        if q.retired and not include_retired:
            continue
        by_section.setdefault(r["section_id"], []).append(q)
    sections = [
        Section(kind=Kind(s["kind"]), title=s["title"], points_each=s["points_each"],
                declared_count=s["declared_count"], questions=by_section.get(s["id"], []))
        for s in srows
    ]
    return Paper(id=prow["id"], slug=prow["slug"], title=prow["title"], subject=prow["subject"],
                 source_file=prow["source_file"], sections=sections,
                 settings=_settings_from_row(prow), notes=notes_from_json(prow["notes"]), code=prow["code"])


def _composed(conn: sqlite3.Connection, prow: sqlite3.Row, include_retired: bool) -> Paper:
    """A composed paper: its drawn questions (other papers'), a section per title, points as drawn.
    A question is numbered by its place in the paper (its home paper's number is in its `source`):
    two drawn questions may share a number at home, and a file names a question by its number
    (bank/formats/ref.py), so an exported composed paper imports back onto itself."""
    rows = conn.execute(
        f"SELECT i.section AS drawn_section, i.points AS drawn_points, i.pos AS drawn_pos, x.* FROM composed_items i "
        f"JOIN ({_QUESTION_SELECT}) x ON x.id = i.question_id WHERE i.paper_id=? ORDER BY i.pos", (prow["id"],)).fetchall()
    sections: dict[str, Section] = {}
    for r in rows:
        q = question_from_row(r).model_copy(update={"points": r["drawn_points"], "number": r["drawn_pos"] + 1})
        if q.retired and not include_retired:
            continue
        sections.setdefault(r["drawn_section"], Section(kind=q.kind, title=r["drawn_section"])).questions.append(q)
    return Paper(id=prow["id"], slug=prow["slug"], title=prow["title"], subject=prow["subject"],
                 source_file=prow["source_file"], sections=list(sections.values()), settings=_settings_from_row(prow),
                 notes=notes_from_json(prow["notes"]), blueprint=prow["blueprint"],
                 per_candidate=bool(prow["per_candidate"]), code=prow["code"])


async def list_papers(db: Store, *, composed: bool = False, include_retired: bool = False) -> list[Paper]:
    """Every paper, whole, in import order; composed papers (/newpaper) too if `composed` (they hold
    other papers' questions: lint and statistics leave them out; exports hold them)."""
    rows = await db.fetchall("SELECT id FROM papers WHERE ? = 1 OR blueprint IS NULL ORDER BY id", (int(composed),))
    return [await load_paper(db, r["id"], include_retired=include_retired) for r in rows]


async def paper_titles(db: Store) -> list[tuple[str, str]]:
    """(code, title) of every paper, in import order, without loading the papers."""
    return [(r[0], r[1] or r[0]) for r in await db.fetchall("SELECT code, title FROM papers ORDER BY id")]


async def paper_count(db: Store) -> int:
    count: int = await db.scalar("SELECT COUNT(*) FROM papers")
    return count
