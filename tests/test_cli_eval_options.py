"""``subdivision eval``'s options are checked before any photo is read."""

import pytest

from scorer.cli import main


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_a_limit_below_one_is_a_one_line_error(capsys, tmp_path, limit):
    assert main(["eval", str(tmp_path), "--limit", limit]) == 2
    err = capsys.readouterr().err
    assert err == f"subdivision: error: --limit must be at least 1, not {limit}\n"
