"""The committed sample_photos corpus: complete, within its size budget, covering every condition,
and every sidecar consistent with its photo."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scorer.board import Board
from scorer.studio.scene import BOARD_KINDS, CLUTTER_KINDS, LIGHT_KINDS, TOKEN_KINDS
from scorer.studio.summary import coverage, load_sidecars

ROOT = Path(__file__).resolve().parent.parent / "sample_photos"
SPLITS = ("dev", "test", "full")


@pytest.fixture(scope="module")
def corpus():
    return {split: load_sidecars(ROOT / split) for split in SPLITS}


def test_sizes_and_splits(corpus):
    assert len(corpus["dev"]) >= 45 and len(corpus["test"]) >= 30 and len(corpus["full"]) >= 3
    assert sum(len(v) for v in corpus.values()) >= 80
    total = sum(p.stat().st_size for split in SPLITS for p in (ROOT / split).iterdir())
    assert total <= 40_000_000, f"corpus is {total / 1e6:.1f} MB"
    dev_seeds = {s["seed"] for s in corpus["dev"]}
    assert not dev_seeds & {s["seed"] for s in corpus["test"]}, "a test photo shares its seed with a dev photo"
    for s in corpus["full"]:
        assert sorted(s["image_size"]) == [3024, 4032]


def test_every_photo_has_its_truth(corpus):
    for split in SPLITS:
        jpgs = {p.stem for p in (ROOT / split).glob("*.jpg")}
        jsons = {p.stem for p in (ROOT / split).glob("*.json")}
        assert jpgs == jsons, f"{split}: photos without sidecars or the reverse: {sorted(jpgs ^ jsons)}"
        for truth in corpus[split]:
            with Image.open(ROOT / split / truth["file"]) as im:
                assert list(im.size) == truth["image_size"]
            board = Board.from_text(truth["board"])
            area = truth["play_area"]
            assert (board.rows, board.cols) == (area["rows"], area["cols"])
            assert len(truth["square_centres"]) == board.rows * board.cols
            assert sum(1 for _ in board.pieces()) == len(truth["pieces"])
            assert len(board.parks()) == len(truth["parks"])
            w, h = truth["image_size"]
            corners = np.array(truth["checkerboard"]["corners"])
            assert corners.shape == (4, 2) and (corners >= 0).all() and (corners[:, 0] < w).all() and (corners[:, 1] < h).all()


def test_every_condition_is_covered(corpus):
    c = coverage([s for split in SPLITS for s in corpus[split]])
    assert {k.split("/")[0] for k in c["board"]} == set(BOARD_KINDS)
    assert {"bandanna/grey_squares", "bandanna/black_squares", "bandanna/early_plain"} <= set(c["board"])
    assert set(c["light"]) == set(LIGHT_KINDS)
    assert set(c["park_markers"]) == set(TOKEN_KINDS)
    clutter = {"pyramid" if k == "unplayed_pieces" else k.rstrip("s") for k in CLUTTER_KINDS}
    assert clutter <= set(c["clutter"]) and "none" in c["clutter"]
    assert set(c["players"]) == {2, 3, 4}
    assert set(c["setup"]) == {"standard", "threehouse"} and set(c["stage"]) == {"finished", "mid"}
    assert set(c["tilt_deg"]) == {"0-15", "15-30", "30-45", "45-60"}
    assert {2, 12} <= set(c["megapixels"]) and len(c["lens_mm"]) >= 4
    assert set(c["blur"]) == {"sharp", "defocus", "motion"}
    assert len(c["colours"]) == 10
    assert len(c["table"]) >= 5
    assert {p for s in corpus["dev"] + corpus["test"] for p in [s["play_area"]["rows"]]} >= {5, 6, 7, 8}
