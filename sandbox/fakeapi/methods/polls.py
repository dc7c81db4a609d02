"""Polls and quizzes: sendPoll and stopPoll."""

from __future__ import annotations

from typing import Any

from sandbox.fakeapi.methods.chats import writable_chat
from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.messages import admit_edit, editable, post
from sandbox.fakeapi.methods.params import require
from sandbox.fakeapi.methods.registry import Api, method


@method("sendPoll")
def send_poll(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    state = api.state
    chat = writable_chat(state, p)
    question = require(p, "question")
    options = [o["text"] if isinstance(o, dict) else str(o) for o in (p.get("options") or [])]
    if not 1 <= len(question) <= 300:
        raise ApiError.bad_request("POLL_QUESTION_INVALID")
    if not 2 <= len(options) <= 12 or not all(1 <= len(o) <= 100 for o in options):
        raise ApiError.bad_request("POLL_OPTIONS_INVALID")
    poll_type = p.get("type") or "regular"
    correct = p.get("correct_option_ids")
    if correct is None and p.get("correct_option_id") is not None:
        correct = [p["correct_option_id"]]
    if poll_type == "quiz" and not (correct and all(0 <= int(i) < len(options) for i in correct)):
        raise ApiError.bad_request("QUIZ_CORRECT_ANSWER_INVALID")
    if poll_type == "quiz" and len(correct or []) > 1 and not p.get("allows_multiple_answers"):
        raise ApiError.bad_request("QUIZ_CORRECT_ANSWERS_TOO_MUCH")
    explanation = p.get("explanation")
    if explanation is not None and len(str(explanation)) > 200:
        raise ApiError.bad_request("QUIZ_EXPLANATION_TOO_LONG")
    open_period = p.get("open_period")
    if open_period is not None and not 5 <= int(open_period) <= 600:
        raise ApiError.bad_request("POLL_OPEN_PERIOD_INVALID")
    poll: dict[str, Any] = {
        "id": f"POLL{len(state.messages) + 1}",
        "question": question,
        "options": [{"persistent_id": str(i), "text": o, "voter_count": 0} for i, o in enumerate(options)],
        "total_voter_count": 0,
        "is_closed": bool(p.get("is_closed")),
        "is_anonymous": p.get("is_anonymous", True),
        "type": poll_type,
        "allows_multiple_answers": bool(p.get("allows_multiple_answers")),
        "allows_revoting": bool(p.get("allows_revoting")),
        "members_only": bool(p.get("members_only")),
    }
    if poll_type == "quiz" and correct:  # checked above: a quiz has its correct options
        poll["correct_option_ids"] = [int(i) for i in correct]
    if explanation:
        poll["explanation"] = str(explanation)
    if open_period is not None:  # Telegram closes it itself this long after posting
        poll["open_period"] = int(open_period)
        poll["close_date"] = state.now() + int(open_period)
    return post(api, chat, p, poll=poll)


@method("stopPoll")
def stop_poll(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = editable(api.state, p)
    if message.poll is None:
        raise ApiError.bad_request("message with poll to stop not found")
    if api.state.close_due_poll(message.poll):
        raise ApiError.bad_request("poll has already been closed")
    admit_edit(api, message)
    message.poll["is_closed"] = True
    return message.poll
