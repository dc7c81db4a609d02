"""Hiring invites (being split by idea: see the next commit)."""

from proctor.invites.store import *  # noqa: F403
