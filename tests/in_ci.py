"""Whether the tests run in CI (``CI`` set to 1, true or yes): there a missing piece fails."""

import os


def in_ci() -> bool:
    """True where the environment says CI (CI=1, true or yes, any case)."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
