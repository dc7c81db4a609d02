"""Hiring invites: one link per candidate, for one paper, inside a window.

The link is Telegram's deep link `https://t.me/<bot>?start=inv_<token>` (links.py); the token has 128
random bits and is stored only as its SHA-256, and is never logged. An invite moves through
InviteStatus by the named moves of states.py, which refuse illegal ones; `expired` is not stored but
read from the window. A lead's /invite is parsed and checked in request.py; invites are made, revoked
and resent in store.py; the candidate's link, and each attempt on it, are attempts.py; listing.py
reads the lists. What the inviting lead's card reads and the hiring report read invites with the
exam's records, so they sit beside this package, above proctor.exams (proctor/invite_cards.py,
proctor/invites_report.py): the exam's hand-in calls into attempts.py. Every creation, claim, revoke
and resend is audited. Time is a parameter.
"""
