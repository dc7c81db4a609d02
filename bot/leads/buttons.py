"""The dispatcher of every lead button ("l:"): parse its data (bot/leads/callbacks.py),
check the presser's role for its scope, hand it to the feature module that answers it."""

from __future__ import annotations

from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.leads import bankstats, review, team
from bot.leads.access import lead_of
from bot.leads.callbacks import Action, parse
from bot.membership import check_roster
from bot.userctx import user_ctx


async def on_button(update, context: Ctx) -> None:
    """Every "l:" button: validate the data, check the presser's role for its scope, dispatch."""
    u = await user_ctx(update, context)
    query = context.query
    press = parse(query.data)
    if press is None:
        await ack(query, t("l_button_bad", u.lang), show_alert=True)
        return
    if press.action is Action.consent:  # the member's own answer to an invitation: no lead role to check
        await team.consent_button(update, context, u, press)
        return
    if not await lead_of(context, u.id, press.scope):
        await ack(query, t("l_button_not_lead", u.lang), show_alert=True)
        return
    await check_roster(context, press.scope)  # who on the roster is still in the group (bot/membership.py)
    match press.action:
        case Action.set_score:
            await review.set_score(update, context, u, press)
        case Action.skip:
            await review.skip(update, context, u, press)
        case Action.join_request:
            await team.join_button(update, context, u, press)
        case Action.retire | Action.restore | Action.confirm_key | Action.uphold | Action.dismiss | Action.exam_only:
            await bankstats.curate_button(update, context, u, press)
