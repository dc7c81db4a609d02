"""Named exceptions for the failures the bank expects."""


class BankError(Exception):
    """Base of every expected failure in bank/."""


class DatabaseTooNew(BankError):
    """The database file was written by a newer version of the code."""


class MigrationFailed(BankError):
    """A migration could not be applied; the database is as it was before it."""


class ImportFailed(BankError):
    """A paper file could not be parsed or validated; nothing was written."""

    def __init__(self, file: str, place: str, problem: str):
        self.file, self.place, self.problem = file, place, problem
        super().__init__(f"{file}: {place}: {problem}")


class NotFound(BankError):
    """The thing asked for does not exist."""


class AttemptClosed(BankError):
    """The attempt is finished or cancelled; it accepts no more answers."""


class NotYourAttempt(BankError):
    """The attempt belongs to someone else."""


class AttemptLimitReached(BankError):
    """The paper's allowed number of attempts is used up."""


class AlreadyRunning(BankError):
    """The user already has a running attempt."""


class ExamOnly(BankError):
    """The paper is kept for exams (hiring); it is never used for practice."""
