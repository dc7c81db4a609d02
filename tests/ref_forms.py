"""The forms a question may not be named by on any screen, file or command (issue 35's one reference):
a bare `#83` (a bank id only in its labelled form, `bank id #83`), `第 #83 题`, a bare `Q9` or `第9题`, a
section-local `q3` or "question 3". Used by the catalogue's sweep and the CLI's."""

from __future__ import annotations

import re

# `#n` that names something other than a question: an invite, a dispute, an attempt, a rank, a streak
OTHER_HASH = re.compile(r"(?:invite|Invite|邀请|邀請|dispute|Dispute|异议|異議|申诉|申訴|attempt|作答|Uphold|Dismiss|采纳|採納|驳回|駁回|"
                         r"You:|你：|of|• [^\n]*:|→|：|: ) ?#\d+$")
FORMS = {
    "a bank id outside its labelled form": re.compile(r"(?<!bank id )(?<!题库编号 )(?<!題庫編號 )#\s?\d+"),
    "第 #n 题": re.compile(r"第\s?#"),
    "a # before a reference": re.compile(r"#⟨ref⟩"),
    "a bare Q9": re.compile(r"(?<![A-Za-z])Q\s?\d+"),
    "a bare 第9题": re.compile(r"第\s?\d+\s?[题題]"),
    "a section-local q3": re.compile(r"(?<![A-Za-z])q\d+"),
    "question 3": re.compile(r"(?i:question)\s+#?\d+"),
}
# a reference as rendered, and as a command's example types it (`/retire P3 Q43`)
REF_TEXT = re.compile(r"P\d+ · (?:Q\d+|第\d+[题題])|new paper · Q\d+|新[试試]卷 · 第\d+[题題]|P\d+ Q\d+")

def forms(text: str) -> list[str]:
    """The forbidden forms found in `text`, once the references themselves are taken out."""
    text = REF_TEXT.sub("⟨ref⟩", text)
    found = []
    for what, pattern in FORMS.items():
        for m in pattern.finditer(text):
            if what.startswith("a bank id") and OTHER_HASH.search(text[max(0, m.start() - 40):m.end()]):
                continue
            found.append(f"{what}: {text[max(0, m.start() - 20):m.end() + 10]!r}")
    return found
