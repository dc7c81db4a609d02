"""Daily practice: schedules, the day's set, deliveries, answers, streaks and review cards.

Nothing here knows about Telegram; bot/daily adapts it to chats.
"""
