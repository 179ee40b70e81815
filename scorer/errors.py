"""Errors a user can cause; the CLI prints their message on one line and exits with status 2."""


class UserError(Exception):
    """Bad input from the user (file, photo, option); ``str(err)`` is a one-line message."""
