"""Live quiz rounds in a team group: a lead's /live posts a few native quiz polls, one at a
time, scores each answer by speed, and keeps standings, a podium and the group's live board.

Everything a round is lives in SQLite (migration 030): a restart goes on from where it was."""
