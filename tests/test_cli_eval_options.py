"""``subdivision eval``'s options are checked before any photo is read, and a broken sidecar is one line."""

import shutil
from pathlib import Path

import pytest

from scorer.cli import main


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_a_limit_below_one_is_a_one_line_error(capsys, tmp_path, limit):
    assert main(["eval", str(tmp_path), "--limit", limit]) == 2
    err = capsys.readouterr().err
    assert err == f"subdivision: error: --limit must be at least 1, not {limit}\n"


PHOTO = Path(__file__).resolve().parents[1] / "sample_photos" / "dev" / "studio_001000.jpg"


@pytest.mark.parametrize("sidecar", [
    b'{"board": ', b"[1, 2, 3]", b"{}", b"\xff\xfe{}",
    b'{"checkerboard": {"rows": 8, "cols": 8, "corners": [[1, 2]]}, "board": ". . .",'
    b' "play_area": {"row": 0, "col": 0, "rows": 3, "cols": 3}}',
    b'{"checkerboard": {"rows": "eight", "cols": 8, "corners": [[0, 0], [9, 0], [9, 9], [0, 9]]},'
    b' "board": "z9 . .", "play_area": {"row": 0, "col": 0, "rows": 3, "cols": 3}}',
    b'{"checkerboard": {"rows": 8, "cols": 8, "corners": [[0, 0], [9, 0], [9, 9], [0, 9]]},'
    b' "board": "# . #\\n. . .\\n# . #", "play_area": {"row": 0, "col": 0, "rows": 7, "cols": 7}}',
    b'{"checkerboard": {"rows": 8, "cols": 8, "corners": [[0, 0], [9, 0], [9, 9], [0, 9]]},'
    b' "board": "# . #\\n. . .\\n# . #", "play_area": {"row": 6, "col": 0, "rows": 3, "cols": 3}}',
])
def test_a_broken_sidecar_is_a_one_line_error_naming_it(capsys, tmp_path, sidecar):
    shutil.copy(PHOTO, tmp_path / "a.jpg")
    (tmp_path / "a.json").write_bytes(sidecar)
    assert main(["eval", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"subdivision: error: {tmp_path / 'a.json'}: not a studio sidecar") and err.count("\n") == 1


def _real_sidecar_with(change) -> bytes:
    import json

    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    change(truth)
    return json.dumps(truth).encode()


@pytest.mark.parametrize("sidecar", [  # a change to the real sidecar, or the bytes to write
    lambda t: t["play_area"].update(rows=float("inf")),  # Infinity, as Python writes it
    lambda t: t["checkerboard"].update(rows=10 ** 9),  # no array that size
    lambda t: t["checkerboard"]["corners"][0].__setitem__(0, 10 ** 400),
    lambda t: t.update(colours=["zzz", 5]),
    lambda t: t.update(players="x"),
    lambda t: t.update(players=7),
    lambda t: t.update(threehouse="maybe"),
    b"[" * 100_000 + b"]" * 100_000,
])
def test_a_sidecar_out_of_any_range_is_a_one_line_error_naming_it(capsys, tmp_path, sidecar):
    shutil.copy(PHOTO, tmp_path / "a.jpg")
    (tmp_path / "a.json").write_bytes(sidecar if isinstance(sidecar, bytes) else _real_sidecar_with(sidecar))
    assert main(["eval", str(tmp_path), "--colours-given"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"subdivision: error: {tmp_path / 'a.json'}: not a studio sidecar") and err.count("\n") == 1


@pytest.mark.parametrize("sidecar, fault", [  # a change to the real sidecar, or the bytes to write; what it is told
    (b"null", "it is not a JSON object"),
    (lambda t: t["checkerboard"].update(corners=[[1e308, 0], [0, 1e308], [1e308, 1e308], [0, 0]]),
     "its checkerboard corners are not four [x, y] points in a photo"),
    (lambda t: t["checkerboard"].update(corners=[[0, 0], [1, 0], [1, 1]]),
     "its checkerboard corners are not four [x, y] points in a photo"),
    (lambda t: t["checkerboard"].update(corners=[[5, 5]] * 4), "its checkerboard corners enclose no area"),
    (lambda t: t.update(colours=["red", "red", "red"]), "its colours are not 2 to 4 different players' colours"),
    (lambda t: t.update(colours=["red"]), "its colours are not 2 to 4 different players' colours"),
    (lambda t: t.update(players=3, colours=["red", "blue"]), "it names 2 colours for 3 players"),
])
def test_a_sidecars_fault_is_named_not_a_python_error_after_it(capsys, tmp_path, sidecar, fault):
    shutil.copy(PHOTO, tmp_path / "a.jpg")
    (tmp_path / "a.json").write_bytes(sidecar if isinstance(sidecar, bytes) else _real_sidecar_with(sidecar))
    assert main(["eval", str(tmp_path), "--colours-given"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"subdivision: error: {tmp_path / 'a.json'}: not a studio sidecar (ValueError: {fault}")
    assert err.count("\n") == 1


def test_a_sidecar_that_is_a_folder_or_a_folder_not_to_be_listed_is_one_line(capsys, tmp_path, monkeypatch):
    shutil.copy(PHOTO, tmp_path / "a.jpg")
    (tmp_path / "a.json").mkdir()
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"subdivision: error: {tmp_path / 'a.json'}: not a studio sidecar")
    import os

    import scorer.vision.evaluate as evaluate

    if hasattr(os, "mkfifo"):  # a pipe by the sidecar's name: refused, not waited on for a writer
        (tmp_path / "a.json").rmdir()
        os.mkfifo(tmp_path / "a.json")
        assert main(["eval", str(tmp_path)]) == 2
        assert capsys.readouterr().err.endswith("not a studio sidecar (ValueError: it is not a regular file)\n")
        (tmp_path / "a.json").unlink()
        (tmp_path / "a.json").mkdir()

    def not_allowed(folder):
        raise PermissionError(13, "Permission denied", str(folder))

    monkeypatch.setattr(evaluate, "photos_in", not_allowed)
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"subdivision: error: {tmp_path}: cannot be read (Permission denied)\n"
    (tmp_path / "a.json").rmdir()
    (tmp_path / "sub").mkdir()
    original = Path.iterdir
    monkeypatch.setattr(Path, "iterdir", lambda folder: [tmp_path / "sub"] if folder == tmp_path else original(folder))
    monkeypatch.setattr(evaluate, "photos_in", lambda folder: [] if folder == tmp_path else not_allowed(folder))
    assert main(["eval", str(tmp_path)]) == 2  # a sub-folder not to be listed is left out of the hint
    assert capsys.readouterr().err == f"subdivision: error: {tmp_path}: no photos with .json sidecars\n"


def test_a_sidecar_over_its_limit_is_not_read_whole(capsys, tmp_path, monkeypatch):
    import scorer.vision.evaluate as evaluate

    shutil.copy(PHOTO, tmp_path / "a.jpg")
    shutil.copy(PHOTO.with_suffix(".json"), tmp_path / "a.json")
    monkeypatch.setattr(evaluate, "MAX_SIDECAR_BYTES", 100)
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err.endswith("not a studio sidecar (ValueError: it is over 100 bytes)\n")

def test_a_photo_that_cannot_be_loaded_counts_as_failed_and_the_others_still_go(capsys, tmp_path):
    sidecar = PHOTO.with_suffix(".json")
    for name in ("a", "b"):
        shutil.copy(sidecar, tmp_path / f"{name}.json")
    (tmp_path / "a.jpg").write_bytes(b"not a photo at all")
    shutil.copy(PHOTO, tmp_path / "b.jpg")
    assert main(["eval", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2 photos" in out and "load 1" in out.split("failures by stage")[1].splitlines()[0]


def test_an_inferred_stash_is_scored_against_the_sidecars(capsys, tmp_path):
    import json

    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    for name, threehouse in (("a", truth.get("threehouse", False)), ("b", not truth.get("threehouse", False))):
        shutil.copy(PHOTO, tmp_path / f"{name}.jpg")
        (tmp_path / f"{name}.json").write_text(json.dumps(dict(truth, threehouse=threehouse)))
    assert main(["eval", str(tmp_path), "--infer-stash"]) == 0
    out = capsys.readouterr().out
    assert "stash inferred        right on 1 of 2 boards" in out
    assert main(["eval", str(tmp_path)]) == 0
    assert "stash inferred" not in capsys.readouterr().out  # told the stash: nothing to score


def test_colours_given_where_a_sidecar_names_none_tells_the_reader_nothing(capsys, tmp_path):
    import json

    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    truth.pop("colours", None)
    shutil.copy(PHOTO, tmp_path / "a.jpg")
    (tmp_path / "a.json").write_text(json.dumps(truth))
    assert main(["eval", str(tmp_path), "--colours-given"]) == 0
    out = capsys.readouterr().out
    assert "1 photos" in out and "failures by stage" in out


def test_a_folder_whose_sub_folders_hold_the_photos_is_told_of_split(capsys, tmp_path):
    (tmp_path / "dev").mkdir()
    shutil.copy(PHOTO, tmp_path / "dev" / "a.jpg")
    shutil.copy(PHOTO.with_suffix(".json"), tmp_path / "dev" / "a.json")
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"subdivision: error: {tmp_path}: no photos with .json sidecars; "
                                       "give --split with one of its folders that have them: dev\n")
    assert main(["eval", str(tmp_path), "--split", "dev", "-v"]) == 0
    assert "grid error 0." in capsys.readouterr().err


def test_colour_mixups_are_counted_by_kind_commonest_first():
    from scorer.vision.evaluate import PhotoResult, SquareOutcome, format_summary, summarise

    def pyramid(truth, read, in_play=True):
        return SquareOutcome("2", in_play, truth == read, truth == read, "2", 0.9, None if truth == read else (truth, read))

    squares = ([pyramid("clear", "white")] * 3 + [pyramid("blue", "purple")] + [pyramid("red", "red")] * 4
               + [pyramid("green", "black", in_play=False)]  # outside the play area: not counted
               + [SquareOutcome("1", True, False, False, "empty", 0.5)])  # a pyramid missed: no colour read
    summary = summarise([PhotoResult("a.jpg", 0.1, {"found": True, "correct": True, "max_error": 0.0}, squares=squares)])
    assert summary["colour_mixups"] == {"clear as white": 3, "blue as purple": 1}
    assert list(summary["colour_mixups"]) == ["clear as white", "blue as purple"]
    assert summary["colour_accuracy"] == 4 / 9
    assert "colours mixed up      clear as white 3, blue as purple 1 (" in format_summary(summary, "t")


def test_square_accuracy_counts_the_play_area_apart_and_each_class_by_its_truth():
    from scorer.vision.evaluate import PhotoResult, SquareOutcome, summarise

    def square(truth, read, in_play=True):
        return SquareOutcome(truth, in_play, truth == read, None, read, 0.9)

    squares = ([square("empty", "empty")] * 3 + [square("empty", "park")] + [square("park", "park")] * 2
               + [square("2", "3")] + [square("3", "3")] * 3
               + [square("empty", "1", in_play=False), square("empty", "empty", in_play=False)])
    grid = {"found": True, "correct": True, "max_error": 0.0}
    summary = summarise([PhotoResult("a.jpg", 0.1, grid, squares=squares),
                         PhotoResult("b.jpg", 0.1, {"found": False, "correct": False, "max_error": None})])
    assert summary["square_accuracy_play_area"] == 8 / 10
    assert summary["square_accuracy_all"] == 9 / 12
    assert summary["squares_in_play"] == 10
    assert summary["grid_found"] == summary["grid_correct"] == 0.5
    assert summary["by_class"]["empty"] == {"n": 4, "accuracy": 0.75, "class_accuracy": 0.75}
    assert summary["by_class"]["2"] == {"n": 1, "accuracy": 0.0, "class_accuracy": 0.0}
    assert summary["by_class"]["3"] == {"n": 3, "accuracy": 1.0, "class_accuracy": 1.0}
    assert summary["by_class"]["1"] == {"n": 0, "accuracy": None, "class_accuracy": None}


def test_pyramids_are_counted_right_by_their_true_colour_worst_first():
    from scorer.vision.evaluate import PhotoResult, SquareOutcome, format_summary, summarise

    def pyramid(colour, right, in_play=True):
        return SquareOutcome("2", in_play, right, True, "2" if right else "3", 0.9, None, colour)  # wrong: a size off

    squares = ([pyramid("red", True)] * 3 + [pyramid("red", False)] + [pyramid("blue", True)] * 2
               + [pyramid("clear", True), pyramid("clear", False)]
               + [pyramid("green", False, in_play=False)]  # outside the play area: not counted
               + [SquareOutcome("empty", True, False, None, "1", 0.5)])  # no pyramid there: no colour
    summary = summarise([PhotoResult("a.jpg", 0.1, {"found": True, "correct": True, "max_error": 0.0}, squares=squares)])
    assert summary["pyramids_by_colour"] == {"clear": {"n": 2, "accuracy": 0.5}, "red": {"n": 4, "accuracy": 0.75},
                                             "blue": {"n": 2, "accuracy": 1.0}}
    assert list(summary["pyramids_by_colour"]) == ["clear", "red", "blue"]
    assert "pyramids by colour    clear 50.00% of 2, red 75.00% of 4, blue 100.00% of 2 (" in format_summary(summary, "t")


def test_the_report_names_the_colours_a_reading_mixed_up(capsys, tmp_path):
    """End to end on one of dev's photos: every pyramid read in another colour is one mix-up.
    The photo reads exactly right; its sidecar, copied, calls the orange player red."""
    import json

    from scorer.board import Board

    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    truth["board"] = Board.from_text(truth["board"]).recoloured({"orange": "red"}).to_text()
    truth["colours"] = ["red" if c == "orange" else c for c in truth["colours"]]
    shutil.copy(PHOTO, tmp_path / "a.jpg")
    (tmp_path / "a.json").write_text(json.dumps(truth))
    assert main(["eval", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["colour_mixups"] == {"red as orange": 15}
    pyramids = ("1", "2", "3")
    wrong_colour = round((1 - summary["colour_accuracy"]) * sum(summary["by_class"][c]["n"] for c in pyramids))
    missed = sum(n for c in pyramids for read, n in summary["confusion"][c].items() if read not in pyramids)
    assert sum(summary["colour_mixups"].values()) == wrong_colour - missed  # a pyramid missed has no colour to mix up
    assert all(" as " in kind and kind.split(" as ")[0] != kind.split(" as ")[1] for kind in summary["colour_mixups"])
    played = truth["colours"]
    assert all(kind.split(" as ")[0] in played for kind in summary["colour_mixups"])  # the true colour comes first
    assert set(summary["pyramids_by_colour"]) <= set(played)
    assert sum(v["n"] for v in summary["pyramids_by_colour"].values()) == sum(summary["by_class"][c]["n"] for c in pyramids)


@pytest.mark.parametrize("args", [["eval", "x" * 300], ["eval", ".", "--split", "x" * 300]])
def test_a_folder_name_too_long_for_the_file_system_is_a_one_line_error(capsys, args):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("subdivision: error: ") and "not a folder (File name too long)" in err and err.count("\n") == 1
