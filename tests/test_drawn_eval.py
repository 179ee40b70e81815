"""scripts/drawn_eval.py: the reader on drawings from a second generator."""

import functools
import importlib.util
import sys
from pathlib import Path

import numpy as np

from scorer.board import Board

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "drawn_eval.py"
spec = importlib.util.spec_from_file_location("drawn_eval", SCRIPT)
drawn_eval = importlib.util.module_from_spec(spec)
sys.modules["drawn_eval"] = drawn_eval  # its dataclass looks its module up there
spec.loader.exec_module(drawn_eval)


def test_tokens_are_the_notation_top_row_first():
    board = Board.from_text("r1 . #\n. b2 .\n. . r3\n")
    assert drawn_eval.tokens(board).tolist() == [["r1", ".", "#"], [".", "b2", "."], [".", ".", "r3"]]


def test_a_drawing_is_read_and_its_squares_counted(capsys, monkeypatch):
    # main reads the same two drawings again: each is read once
    monkeypatch.setattr(drawn_eval, "read_drawing", functools.lru_cache(drawn_eval.read_drawing))
    results = [drawn_eval.read_drawing(s) for s in (0, 1)]
    result = results[0]
    assert result.squares in (36, 49, 64) and 0 <= result.wrong <= result.squares
    assert result.wrong <= 2  # seed 0, a finished three-player game seen from above, reads (all but) right
    assert drawn_eval.main(["--seeds", "0", "2", "-v"]) == 0
    out = capsys.readouterr().out.strip().split("\n")
    assert out[0].startswith("seed 0: 3 players") and out[-1].startswith("2 drawings: squares ")
    assert np.isclose(float(out[-1].split("squares ")[1].split("%")[0]),
                      100 * (1 - sum(r.wrong for r in results) / sum(r.squares for r in results)), atol=0.01)
