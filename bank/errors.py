"""Named exceptions for the failures the bank expects."""


class BankError(Exception):
    """Base of every expected failure in bank/."""


class DatabaseTooNew(BankError):
    """The database file was written by a newer version of the code."""


class DatabaseUnusable(BankError):
    """The database file cannot be used: a directory, not a database, damaged, or read-only."""


class MigrationFailed(BankError):
    """A migration could not be applied; the database is as it was before it."""


class ImportFailed(BankError):
    """A paper file could not be parsed or validated; nothing was written."""

    def __init__(self, file: str, place: str, problem: str):
        self.file, self.place, self.problem = file, place, problem
        super().__init__(f"{file}: {place}: {problem}")

    def __reduce__(self) -> tuple[type, tuple[str, str, str]]:
        """Pickled by its fields: it crosses from the child process that read the file (bank.formats.child)."""
        return ImportFailed, (self.file, self.place, self.problem)


class SameTitle(BankError):
    """Another paper (a different slug) already has this paper's title."""

    def __init__(self, slug: str, title: str, other_id: int, other_slug: str, other_file: str | None):
        self.slug, self.title = slug, title
        self.other_id, self.other_slug, self.other_file = other_id, other_slug, other_file
        origin = f", imported from {other_file}" if other_file else ""
        super().__init__(f"paper {other_slug} (#{other_id}{origin}) already has the title {title!r}")


class ComposedSlug(BankError):
    """A file's paper has the slug (the name) of a composed paper, which no file replaces."""

    def __init__(self, slug: str, code: str, title: str):
        self.slug = slug
        super().__init__(f"{slug} is the name of the composed paper {code} {title}, which a file cannot "
                         "replace: rename the file (its name is the paper's)")


class NotFound(BankError):
    """The thing asked for does not exist."""


class TermsUnavailable(BankError):
    """The key terms of reference answers could not be found (the segmenter's process failed)."""
