"""Interface texts, one module per feature, merged into one catalogue by bot.i18n."""
