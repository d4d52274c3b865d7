"""Status codes and the exceptions that carry them."""
from __future__ import annotations

import enum


class Status(enum.IntEnum):
    """The header's HC_OK and HC_E_* codes."""

    OK = 0
    INVALID = 1
    NOT_FOUND = 2
    CONFLICT = 3
    IO = 4
    CORRUPT = 5
    BUSY = 6
    TOO_NEW = 7
    MISUSE = 8
    NOMEM = 9
    READONLY = 10
    INTERNAL = 11
    INSUFFICIENT = 12
    CANCELLED = 13


class Error(Exception):
    """A call habitcore refused or failed.

    ``code`` is the status (a :class:`Status`, or a plain int for a code newer than
    this package) and ``message`` the library's own words, copied at once from
    ``hc_last_error_message()`` on the calling thread."""

    status: Status | None = None

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        try:
            self.code: int = Status(code)
        except ValueError:
            self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(Error, ValueError):
    """HC_E_INVALID: an argument is out of range, malformed or missing."""

    status = Status.INVALID


class NotFoundError(Error, LookupError):
    """HC_E_NOT_FOUND: no such habit, entry, account, file..."""

    status = Status.NOT_FOUND


class ConflictError(Error):
    """HC_E_CONFLICT: the request clashes with what is stored."""

    status = Status.CONFLICT


class StoreIOError(Error, OSError):
    """HC_E_IO: the file system or SQLite failed to read or write."""

    status = Status.IO


class CorruptError(Error):
    """HC_E_CORRUPT: the store or an input is not what it claims to be."""

    status = Status.CORRUPT


class BusyError(Error):
    """HC_E_BUSY: another process held the store past the busy timeout."""

    status = Status.BUSY


class TooNewError(Error):
    """HC_E_TOO_NEW: the store was written by a newer habitcore."""

    status = Status.TOO_NEW


class MisuseError(Error):
    """HC_E_MISUSE: a closed or foreign handle, or a call out of order."""

    status = Status.MISUSE


class OutOfMemoryError(Error, MemoryError):
    """HC_E_NOMEM."""

    status = Status.NOMEM


class ReadOnlyError(Error):
    """HC_E_READONLY: a write on a store opened read-only."""

    status = Status.READONLY


class InternalError(Error):
    """HC_E_INTERNAL: a bug in habitcore; please report it."""

    status = Status.INTERNAL


class InsufficientCreditsError(Error):
    """HC_E_INSUFFICIENT: a spend larger than the available credits; nothing was written."""

    status = Status.INSUFFICIENT


class CancelledError(Error):
    """HC_E_CANCELLED: a progress callback asked to stop; nothing was written."""

    status = Status.CANCELLED


ERRORS: dict[int, type[Error]] = {
    cls.status: cls
    for cls in (InvalidArgumentError, NotFoundError, ConflictError, StoreIOError, CorruptError, BusyError,
                TooNewError, MisuseError, OutOfMemoryError, ReadOnlyError, InternalError, InsufficientCreditsError,
                CancelledError)
    if cls.status is not None
}


def error_for(code: int, message: str) -> Error:
    """The exception for a status code: its own class, or :class:`Error` for a code newer than this package."""
    return ERRORS.get(code, Error)(code, message)
