"""The base of the proctoring domain's expected failures; each is named next to the code that raises it."""


class ProctorError(Exception):
    """Base of every expected failure in proctor/ (the bank's are `bank.errors.BankError`)."""
