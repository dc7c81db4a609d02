"""The lead's desk: a Telegram Mini App served by the bot's own process (aiohttp + Jinja2).

Only `bot.desk_bridge` imports `telegram`; everything else talks to the domain (`bank/`).
"""
