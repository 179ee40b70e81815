"""``subdivision score`` and ``subdivision check``: output, JSON shape, exit status, bad input."""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from in_ci import in_ci
from scorer.cli import main
from scorer.files import PHOTO_FORMATS

ROOT = Path(__file__).resolve().parent.parent
GAME_2P = str(ROOT / "sample_boards" / "rules_game_2p.txt")
BAD_CHAIN = """
. . . . .
. . . . b1
. . . r1 .
. . b1 . .
. b2 r2 . r3
"""


@pytest.fixture
def bad_board(tmp_path):
    path = tmp_path / "chain.txt"
    path.write_text(BAD_CHAIN)
    return str(path)


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_score_is_readable_by_default(capsys):
    status, out, err = run(["score", GAME_2P], capsys)
    assert status == 0 and err == ""
    assert "red" in out and "24" in out and "winner: red (24)" in out
    assert "3-pip C2 -3: 5 1-pips Near it (B1 B3 C1 D2 D3), the first free, at most 3" in out
    assert "3-pip F3 0: 1 1-pip Near it (E2), the first free" in out
    assert "3-pip B6 0: no 1-pip Near it" in out and out.count("       3-pip ") == 10  # every 3-pip, each once
    assert "pips by size: 5 from 1-pips, 10 from 2-pips, 15 from 3-pips" in out  # pips, not pieces
    # the points lost are for 1-pips Near 3-pips (an audit read "- 2 (3-pips)" as two 3-pips)
    assert "  1. red   24 = 30 pips - 4 (4 groups) - 2 (1-pips Near 3-pips)\n" in out


def test_score_says_one_pip_and_the_squares_left_empty_near_a_park(capsys, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("# r3 r2 . . #\n. r1 b1 . . .\n. . b3 # . .\n. . # . g1 .\n. . . . . .\n# . . . . #\n")
    status, out, err = run(["score", str(board), "--private-parks"], capsys)
    assert "green   0 = 1 pip - 1 (1 group) - 0 (1-pips Near 3-pips) + 0 (parks)" in out
    assert "park A6: nobody (square still empty Near it: A5)" in out
    assert "park A1: nobody (squares still empty Near it: A2, B1, B2)" in out


def test_score_json_lines(capsys, bad_board):
    status, out, err = run(["score", "--json", GAME_2P, bad_board], capsys)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["file"] == GAME_2P
    assert first["winners"] == ["red"]
    red = first["players"]["red"]
    assert (red["total"], red["pips"], red["park_bonus"]) == (24, 30, 0)
    assert all({"cells", "points"} <= set(g) for g in red["groups"])
    assert all({"cell", "one_pips", "points"} <= set(d) for d in red["deductions"])
    assert first["players"]["blue"]["total"] == 23
    assert json.loads(lines[1])["file"] == bad_board


def test_score_private_parks(capsys):
    _, out, _ = run(["score", "--json", "--private-parks", GAME_2P], capsys)
    assert json.loads(out)["players"]["red"]["park_bonus"] == 3
    _, out, _ = run(["score", "--private-parks", GAME_2P], capsys)
    assert "park F1 +3" in out
    status, _, err = run(["score", "--loose-parks", GAME_2P], capsys)
    assert status == 2 and err.count("\n") == 1 and "--private-parks" in err


def test_check_finds_violations_and_exits_1(capsys, bad_board):
    status, out, err = run(["check", bad_board], capsys)
    assert status == 1 and err == ""
    assert "one_unrooted" in out
    status, out, _ = run(["check", "--json", bad_board], capsys)
    data = json.loads(out)
    assert status == 1
    assert {v["cell"] for v in data["violations"]} == {"C2", "D3", "E4"}
    assert all(set(v) >= {"cell", "rule", "message"} for v in data["violations"])
    for key in ("to_move", "stash", "legal_moves", "must_pass", "game_over"):
        assert key in data
    assert data["stash"]["red"] == {"1": 2, "2": 2, "3": 2}  # 5x5: a ThreeHouse stash
    assert set(data["legal_moves"]["red"]) == {"1", "2", "3"}


def test_check_tells_a_pair_of_three_pips_once(capsys, tmp_path):
    path = tmp_path / "pair.txt"
    path.write_text("r3 r3 . .\n. . . .\n. . . .\n. b2 . .\n")
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 1
    assert out.splitlines()[:2] == [f"{path}: 1 violation",
                                    "  A4, B4 [three_near_three]: the red 3-pips on A4 and B4 are Near each other"]


def test_check_clean_board_exits_0(capsys):
    status, out, _ = run(["check", GAME_2P], capsys)
    assert status == 0 and "OK, no violations" in out and "game over" in out


def test_check_mid_game_says_whose_turn(capsys, tmp_path):
    path = tmp_path / "mid.txt"
    path.write_text("# . . . . #\n. . . . . .\n. . # . . .\n. . . # . .\n. r3 . . b2 .\n# . r2 . . #\n")
    status, out, _ = run(["check", "--json", str(path)], capsys)
    data = json.loads(out)
    assert status == 0 and data["to_move"] == "blue"
    assert "A3" not in data["legal_moves"]["red"]["3"]  # Near the red 3-pip on B2
    assert "A5" in data["legal_moves"]["red"]["3"] and "C4" not in data["legal_moves"]["red"]["2"]  # C4: park


def test_stdin(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(GAME_2P).read_bytes())))
    status, out, _ = run(["score", "--json", "-"], capsys)
    assert status == 0 and json.loads(out)["file"] == "-"


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"r3 . .\n. q1 .\n. . .\n", "B2"),
        (b"r3 . .\n. .\n. . .\n", "row 2"),
        (b"\x00\x01\x02binary", "neither board text nor a photo"),
        (b'\n<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>', "markup (SVG, HTML or XML?)"),
        (b"\xff\xfe\xfa not utf-8", "not UTF-8"),
        (b"", "bad.txt: file is empty"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, content, expected):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    for command in ("score", "check"):
        status, out, err = run([command, str(path)], capsys)
        assert status == 2
        assert err.count("\n") == 1 and err.startswith("subdivision: error: ") and expected in err
        assert "Traceback" not in err


@pytest.mark.parametrize("data, expected", [
    (b"", "standard input: file is empty"),
    (bytes(30_000_000), "standard input: file is more than the 25,000,000 bytes allowed"),
])
def test_read_score_and_check_word_a_bad_standard_input_alike(capsys, monkeypatch, data, expected):
    import io

    for command in ("read", "score", "check"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        status, out, err = run([command, "-"], capsys)
        assert (status, out, err) == (2, "", f"subdivision: error: {expected}\n"), command


def test_board_text_over_its_limit_says_the_limit(capsys, tmp_path):
    path = tmp_path / "long.txt"
    path.write_bytes(b"a" * 1_500_000)
    status, _, err = run(["score", str(path)], capsys)
    assert status == 2 and err == (f"subdivision: error: {path}: file is 1,500,000 bytes, "
                                   "more than the 1,000,000 allowed for board text\n")


def test_a_large_binary_file_is_said_to_be_neither_board_text_nor_a_photo(capsys, tmp_path):
    path = tmp_path / "video.mp4"
    path.write_bytes(bytes(range(256)) * 6000)  # 1.5 MB, no image
    status, _, err = run(["score", str(path)], capsys)
    assert status == 2 and err.startswith(f"subdivision: error: {path}: neither board text nor a photo (")


@pytest.mark.parametrize("command", ["score", "read"])
def test_a_damaged_photo_is_one_line_without_the_decoders_own_log(tmp_path, command):
    # A TIFF claiming 2048 samples a pixel: Pillow logs "More samples per pixel than can be decoded"
    # to stderr before the command's error (a robustness sweep).
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (40, 40), (100, 50, 20)).save(buffer, "TIFF")
    data = bytearray(buffer.getvalue())
    order = "little" if data[:2] == b"II" else "big"
    ifd = int.from_bytes(data[4:8], order)
    for k in range(int.from_bytes(data[ifd:ifd + 2], order)):
        entry = ifd + 2 + 12 * k
        if int.from_bytes(data[entry:entry + 2], order) == 0x0115:  # SamplesPerPixel
            data[entry + 8:entry + 10] = (2048).to_bytes(2, order)
    path = tmp_path / "damaged.tif"
    path.write_bytes(bytes(data))
    # (in a process of its own: under pytest a log handler is set, and nothing would reach stderr)
    done = subprocess.run([sys.executable, "-m", "scorer", command, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("subdivision: error: ") and done.stderr.count("\n") == 1, done.stderr


def test_a_control_character_in_a_file_name_is_shown_as_its_code(tmp_path, capsys):
    # (a robustness sweep: an escape in a name set the terminal's colour in the error line)
    path = tmp_path / "esc\x1b[31mred\u202e.txt"
    path.write_text("not a board")
    status, _, err = run(["score", str(path)], capsys)
    assert status == 2 and "\x1b" not in err and "\u202e" not in err
    assert "esc\\u001b[31mred\\u202e.txt" in err and err.count("\n") == 1
    # an emoji's zero-width joiners and a right-to-left mark are kept
    path = tmp_path / "\U0001f468\u200d\U0001f469 \u200f\u05e9.txt"
    path.write_text("not a board")
    status, _, err = run(["score", str(path)], capsys)
    assert status == 2 and str(path) in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("command", ["score", "check", "read"])
def test_an_endless_file_is_refused_without_reading_it_all(capsys, command):
    # /dev/zero's size is 0 to stat(): only a bounded read tells it is too large.
    status, _, err = run([command, "/dev/zero"], capsys)
    assert status == 2 and err.count("\n") == 1 and ("too large" in err or "more than" in err)


@pytest.mark.parametrize("argv, expected", [
    (["score", "--players", "5", GAME_2P], "invalid choice: 5"),
    (["check", "--standard", "--threehouse", GAME_2P], "not allowed with"),
    (["check", "--seats", "red,zz", GAME_2P], "unknown colour"),
    (["score", "--colours", "red", GAME_2P], "name 2, 3 or 4 players"),
    (["read", "--colours", "white,w", "photo.jpg"], "white is named twice"),
    (["frobnicate"], "invalid choice"),
    (["read", "--bogus", "photo.jpg"], "subdivision read: error: unrecognized arguments: --bogus (see subdivision read --help)"),
    (["score", GAME_2P, "--json", "extra", "--x"], "unrecognized arguments: extra --x (see subdivision score --help)"),
])
def test_a_usage_mistake_is_one_line(capsys, argv, expected):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1 and expected in err and "--help" in err


def test_an_error_quoting_a_huge_token_is_cut_short(capsys, tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("r3 " + "x" * 100_000 + " .\n. . .\n. . .\n")
    status, _, err = run(["score", str(path)], capsys)
    assert status == 2 and err.count("\n") == 1 and len(err) < 400


def test_missing_file_and_directory(capsys, tmp_path):
    status, _, err = run(["score", str(tmp_path / "nope.txt")], capsys)
    assert status == 2 and "no such file" in err
    status, _, err = run(["check", str(tmp_path)], capsys)
    assert status == 2 and "is a directory" in err


def test_a_bad_file_does_not_stop_the_others(capsys, tmp_path, bad_board):
    status, out, err = run(["check", "--json", str(tmp_path / "nope.txt"), bad_board, GAME_2P], capsys)
    assert status == 2  # bad input outranks violations
    assert len(out.splitlines()) == 2 and err.count("\n") == 1


def test_photo_goes_to_the_reader(capsys, tmp_path, monkeypatch):
    """A file starting with image magic bytes is handed to scorer.reader.read_photo."""
    import types

    calls = []

    class FakeReading:
        board = __import__("scorer.board", fromlist=["Board"]).Board.from_text(Path(GAME_2P).read_text())
        uncertain = []

        def to_dict(self):
            return {"warnings": ["fake"], "warning_kinds": ["photo"]}

    def read_photo(source, *, players=None, threehouse=False, area=None, colours=None):
        calls.append((type(source), players, threehouse) + ((colours,) if colours else ()))
        return FakeReading()

    monkeypatch.setitem(sys.modules, "scorer.reader", types.SimpleNamespace(read_photo=read_photo))
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    status, out, _ = run(["score", "--json", "--players", "2", str(path)], capsys)
    data = json.loads(out)
    assert status == 0 and data["players"]["red"]["total"] == 24
    assert data["from_photo"] and data["reading_warnings"] == ["fake"] and data["reading_warning_kinds"] == ["photo"]
    assert calls == [(bytes, 2, None)]  # the bytes already read (a pipe cannot be read twice); the stash inferred
    status, out, _ = run(["score", str(path)], capsys)  # the text says what the reader was unsure of too
    assert status == 0 and out.splitlines()[-1] == "  warning: fake"
    # and shows the board it read, row numbers and column letters to find the squares it names
    lines = out.splitlines()
    shown = lines.index("  the board read from the photo:")
    assert "\n".join(lines[shown + 1:-1]) == "\n".join(f"    {line}" for line in FakeReading.board.labelled().splitlines())
    # The players' colours guide the reading: --colours for the score, the order of play for the check.
    calls.clear()
    assert run(["score", "--colours", "r,blue", str(path)], capsys)[0] == 0
    assert run(["check", "--seats", "blue,red", str(path)], capsys)[0] == 0
    assert calls == [(bytes, None, None, ["red", "blue"]), (bytes, None, None, ["blue", "red"])]
    status, out, err = run(["score", "--players", "3", "--colours", "r,b", str(path)], capsys)
    assert status == 2 and out == "" and err == "subdivision: error: --players 3 but --colours names 2: red,blue\n"


def test_a_photo_whose_board_could_not_be_decoded_is_one_line(capsys, tmp_path, monkeypatch):
    """The grid was found but a later stage failed: the reading has no board, and says which stage."""
    import types

    class FakeReading:
        board = None
        warnings = ["unsure of the board's outline", "reading failed at the squares stage: ValueError: bad"]
        warning_kinds = ["grid", "failed"]

    monkeypatch.setitem(sys.modules, "scorer.reader", types.SimpleNamespace(read_photo=lambda source, **_: FakeReading()))
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    for command in ("score", "check"):
        status, out, err = run([command, str(path)], capsys)
        assert status == 2 and out == ""
        assert err == f"subdivision: error: {path}: reading failed at the squares stage: ValueError: bad\n"


def test_standard_input_given_twice_is_one_line(capsys):
    for command, what in (("score", "board or photo"), ("check", "board or photo"), ("read", "photo")):
        status, out, err = run([command, "-", "-"], capsys)
        assert status == 2 and out == "" and err == f"subdivision: error: standard input (-) holds one {what}: give - once\n"


def test_a_photo_file_that_is_none_says_so(capsys, tmp_path):
    """A file named as a photo that is neither a photo nor board text: not a board-text error."""
    small, big = tmp_path / "notimage.jpg", tmp_path / "page.jpg"
    small.write_text("just some notes\n")
    big.write_text("<html>" + "x" * 1_100_000)  # over the board text's limit too
    for command in ("score", "check"):
        for path in (small, big):
            status, _, err = run([command, str(path)], capsys)
            assert status == 2 and err == f"subdivision: error: {path}: not a photo (JPEG, PNG, WebP, HEIC, TIFF or BMP), nor board text\n"
    mistyped = tmp_path / "mistyped.jpg"  # board text with a mistake: says what to mend
    mistyped.write_text("# r3 r2 . . #\n")
    status, _, err = run(["score", str(mistyped)], capsys)
    assert status == 2 and err.endswith("nor board text; as board text: a board has 3..12 rows, this text has 1\n")
    mistyped.write_bytes("# r3 r2 . . #\n".encode("utf-32"))  # saved as UTF-32: the same reason
    status, _, err = run(["score", str(mistyped)], capsys)
    assert status == 2 and err.endswith("nor board text; as board text: a board has 3..12 rows, this text has 1\n")
    board = tmp_path / "board.jpg"  # board text under a photo's name still reads
    board.write_text("r3 . .\n. . .\n. . .\n")
    assert run(["score", str(board)], capsys)[0] == 0


def test_an_empty_file_name_is_one_line(capsys):
    for command in ("score", "check", "read"):
        status, _, err = run([command, ""], capsys)
        assert status == 2 and err.count("\n") == 1 and "an empty file name" in err


def test_a_board_showing_one_colour_still_has_two_players(capsys, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("r3 . .\n. . .\n. . .\n")  # no setup has a 3x3 area
    status, out, _ = run(["check", "--json", str(path)], capsys)
    data = json.loads(out)
    assert status == 0 and data["players"] == 2 and data["to_move"] is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_photo_through_a_pipe_is_read_once(capsys, tmp_path):
    # `subdivision score <(cat photo.jpg)`: the pipe can be read only once, and the reader gets those bytes.
    photo = ROOT / "sample_photos" / "dev" / "studio_001000.jpg"
    pipe = tmp_path / "photo.pipe"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_bytes(photo.read_bytes()))
    writer.start()
    status, out, err = run(["score", "--json", str(pipe)], capsys)
    writer.join(timeout=30)
    assert status == 0, err
    assert json.loads(out)["from_photo"]


def test_standard_input_that_is_closed_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    for command in ("score", "read"):
        status, _, err = run([command, "-"], capsys)
        assert status == 2 and err == "subdivision: error: standard input is closed: there is nothing to read\n"


def test_a_long_message_keeps_its_start_and_its_end():
    from scorer.errors import one_line

    text = "/very/long/path/" + "x" * 500 + "/photo.jpg: no board found; take it again"
    cut = one_line(text)
    assert len(cut) == 300 and cut.startswith("/very/long/path/") and cut.endswith("take it again")
    assert one_line("a\nb   c") == "a b c"


def test_check_of_a_photo_uses_the_stash_its_reader_inferred(capsys, tmp_path, monkeypatch):
    import types

    from scorer.board import Board

    class FakeReading:
        board = Board.from_text("r1 . .\n. . .\n. . b1\n")
        uncertain = []

        def to_dict(self):
            return {"warnings": [], "threehouse": True, "stash_inferred": True, "stash_unsure": True}

    monkeypatch.setitem(sys.modules, "scorer.reader", types.SimpleNamespace(read_photo=lambda source, **_: FakeReading()))
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    left = {}
    for option in ([], ["--standard"], ["--threehouse"]):
        status, out, _ = run(["check", "--json", *option, str(path)], capsys)
        left[tuple(option)] = json.loads(out)["stash"]["red"]
    assert left[()] == left[("--threehouse",)] == {"1": 2, "2": 3, "3": 3}  # as read: ThreeHouse
    assert left[("--standard",)] == {"1": 4, "2": 5, "3": 5}  # the option wins
    _, out, _ = run(["check", "--json", str(path)], capsys)
    assert json.loads(out)["stash_inferred"] is True  # as the reader inferred it
    assert json.loads(out)["stash_unsure"] is True  # on a close call


def test_check_of_board_text_infers_the_stash_unless_given(capsys, tmp_path):
    path = tmp_path / "five.txt"
    path.write_text("r1 . . . #\n. . . . .\n. . . . .\n. . . . .\n# . . . b1\n")  # 5x5: only ThreeHouse
    left = {}
    for option in ([], ["--standard"], ["--threehouse"]):
        _, out, _ = run(["check", "--json", "--players", "2", *option, str(path)], capsys)
        left[tuple(option)] = (json.loads(out)["stash"]["red"], json.loads(out)["stash_inferred"])
    assert left[()] == ({"1": 2, "2": 3, "3": 3}, True)
    assert left[("--threehouse",)] == ({"1": 2, "2": 3, "3": 3}, False)
    assert left[("--standard",)] == ({"1": 4, "2": 5, "3": 5}, False)
    _, out, _ = run(["check", str(path)], capsys)
    assert "  stash: ThreeHouse, 3 trios a player (inferred)" in out.splitlines()


def test_photo_without_a_reader_is_one_clear_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "scorer.reader", None)  # makes the import fail
    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    status, out, err = run(["check", str(path)], capsys)
    assert status == 2 and out == "" and err.count("\n") == 1 and "photo reader is not available" in err


def test_a_truncated_photo_names_its_file_once(capsys, tmp_path):
    path = tmp_path / "cut.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 10)
    status, out, err = run(["score", str(path)], capsys)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.count("cut.jpg") == 1 and err.startswith(f"subdivision: error: {path}: ")


@pytest.mark.parametrize(
    "magic",
    [b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"\x00\x00\x00\x18ftypheic",
     b"II*\x00", b"MM\x00*", b"BM\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x28\x00\x00\x00"],
)
def test_image_magic_bytes(magic):
    from scorer.commands.rules import is_image

    assert is_image(magic + b"\x00" * 32)
    assert not is_image(b"r3 . .\n" + magic)


def test_board_text_starting_like_a_bitmap_is_still_text():
    from scorer.commands.rules import is_image

    assert not is_image(b"BM . .\n. . .\n. . .\n")


def test_board_text_with_ftyp_where_a_heic_file_has_it_is_still_text(capsys, tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(";   ftyp is a word\n. . . . .\n. r1 . . .\n. . . . .\n. . . . .\n. . . . .\n")
    status, out, err = run(["score", str(path)], capsys)
    assert status == 0 and err == "" and "red" in out


def test_real_process_exit_codes_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("r3 r3\n")
    result = subprocess.run(
        [sys.executable, "-m", "scorer", "check", str(bad)], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "scorer", "score", GAME_2P], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0 and "winner: red" in result.stdout


def test_a_file_name_the_outputs_encoding_cannot_write_is_escaped_not_a_traceback(tmp_path):
    # Windows with the output redirected writes cp1252, which has no CJK: the report still prints.
    board = tmp_path / "\u677f.txt"
    board.write_text(Path(GAME_2P).read_text())
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    result = subprocess.run([sys.executable, "-m", "scorer", "score", str(board)], capture_output=True, cwd=ROOT, env=env)
    assert result.returncode == 0 and result.stderr == b""
    assert b"\\u677f.txt" in result.stdout and b"winner: red" in result.stdout
    # where the output already keeps undecodable name bytes (a surrogateescape locale), they stay bytes
    raw = tmp_path / os.fsdecode(b"board \xff.txt")
    raw.write_text(Path(GAME_2P).read_text())
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:surrogateescape"}
    result = subprocess.run([sys.executable, "-m", "scorer", "score", str(raw)], capture_output=True, cwd=ROOT, env=env)
    assert result.returncode == 0 and b"board \xff.txt" in result.stdout


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_board_text_saved_as_utf16_or_utf32_with_its_byte_order_mark_is_read(capsys, tmp_path, encoding):
    path = tmp_path / "notepad.txt"
    text = Path(GAME_2P).read_text()
    path.write_bytes(("\ufeff" if encoding.endswith("be") else "").encode(encoding) + text.encode(encoding))
    status, out, err = run(["score", str(path)], capsys)
    assert status == 0 and err == "" and "winner: red" in out
    path.write_bytes(b"\xff\xfe\x00\xd8")  # a byte-order mark, then half a surrogate pair
    status, out, err = run(["score", str(path)], capsys)
    assert status == 2 and out == "" and "neither board text (not UTF-8 or UTF-16)" in err
    path.write_bytes(b"\xff\xfe\x00\x00\x00\xd8\x00\x00")  # UTF-32's mark (UTF-16's, then a nul), then a lone surrogate
    status, out, err = run(["score", str(path)], capsys)
    assert status == 2 and out == "" and "neither board text (not UTF-8 or UTF-32)" in err
    path.write_bytes(text.encode("utf-32-le"))  # no byte-order mark: its nuls are binary
    status, out, err = run(["score", str(path)], capsys)
    assert status == 2 and out == "" and err.endswith("notepad.txt: neither board text nor a photo (JPEG, PNG, WebP, HEIC, TIFF or BMP)\n")


def test_empty_and_opening_boards(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# . . . . #\n. . . . . .\n. . . # . .\n. . # . . .\n. . . . . .\n# . . . . #\n")
    status, out, _ = run(["score", str(empty)], capsys)
    assert status == 0 and "no pyramids on the board" in out
    status, out, _ = run(["check", str(empty)], capsys)
    assert status == 0 and "2 players have no piece" in out and "to move: a player with no piece yet" in out


def test_check_with_seats(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("# . . . . #\n. . . . b3 .\n. . . # . .\n. . # . . .\n. r2 . . . .\n# . . . . #\n")
    _, out, _ = run(["check", "--json", str(path)], capsys)
    assert json.loads(out)["to_move"] is None
    _, out, _ = run(["check", "--json", "--seats", "b,red", str(path)], capsys)
    data = json.loads(out)
    assert data["to_move"] == "blue" and data["seats"] == ["blue", "red"]
    status, out, err = run(["check", "--players", "3", "--seats", "b,red", str(path)], capsys)
    assert status == 2 and out == "" and err == "subdivision: error: --players 3 but --seats names 2: blue,red\n"
    with pytest.raises(SystemExit) as info:
        main(["check", "--seats", "red,purplish", str(path)])
    assert info.value.code == 2 and "unknown colour 'purplish'" in capsys.readouterr().err


def test_a_full_disk_under_the_output_is_one_line_and_status_2(tmp_path):
    # stdout on a full disk (Linux's /dev/full: every write fails with ENOSPC)
    if not Path("/dev/full").exists():  # Linux has it, CI too
        (pytest.fail if in_ci() else pytest.skip)("this test needs /dev/full (Linux)")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "scorer", "score", GAME_2P], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr == "subdivision: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_closed_standard_output_is_one_line_and_status_2(command):
    # started as `subdivision score FILE >&-`: Python has no sys.stdout at all
    done = subprocess.run([sys.executable, "-m", "scorer", command, GAME_2P], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == "subdivision: error: cannot write the output: standard output is closed\n"


def test_no_standard_output_to_drop_is_no_error(monkeypatch):
    # serve and studio run with it closed; a full disk or a broken pipe then has nothing to drop
    from scorer.cli import _drop_stdout

    monkeypatch.setattr(sys, "stdout", None)
    _drop_stdout()


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_gif_is_named_as_an_image_format_not_taken_for_board_text(capsys, tmp_path, command):
    import io

    from PIL import Image

    gif = tmp_path / "board.gif"
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(buffer, "GIF")
    gif.write_bytes(buffer.getvalue())
    assert main([command, str(gif)]) == 2
    assert capsys.readouterr().err == (f"subdivision: error: {gif}: unsupported image format GIF "
                                       f"(expected {PHOTO_FORMATS})\n")


def test_score_says_the_players_and_stash_guide_the_reading_and_the_games_end_not_the_points(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    said = "the points do not depend on it: it guides the reading of a photo, and says whether the game is over"
    assert " ".join(capsys.readouterr().out.split()).count(said) == 2
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "guides the reading" not in capsys.readouterr().out


def test_check_names_the_player_with_no_piece_yet_as_to_move_when_the_counts_tell(capsys, tmp_path):
    board = tmp_path / "one.txt"
    board.write_text("r1 . .\n. . .\n. . .\n")
    status, out, _ = run(["check", str(board)], capsys)
    assert "  to move: a player with no piece yet\n" in out and "cannot tell" not in out


def test_check_says_first_whose_turn_it_is_if_nobody_passed(capsys, tmp_path):
    from test_rules import LATE_2P

    board = tmp_path / "late.txt"
    board.write_text(LATE_2P)
    status, out, _ = run(["check", str(board), "--seats", "red,blue"], capsys)
    assert status == 0 and "  to move: red, or blue after a pass the counts do not show\n" in out
    status, out, _ = run(["check", str(board)], capsys)  # who started not known
    assert "  to move: red or blue (the counts cannot tell)\n" in out


def test_check_lists_the_stash_and_squares_of_players_with_no_piece_yet(capsys, tmp_path):
    from scorer.board import Board
    from scorer.rules import legal_moves

    text = ". r2 . . . .\n. . b2 . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n"
    path = tmp_path / "three.txt"
    path.write_text(text)
    board = Board.from_text(text)
    newcomer = [sq.name for sq in legal_moves(board, "green", 2, {1: 3, 2: 3, 3: 3})]
    status, out, _ = run(["check", "--players", "3", str(path)], capsys)
    lines = out.splitlines()
    at = lines.index("  a player with no piece yet holds 1-pip 3, 2-pip 3, 3-pip 3")
    assert status == 0 and lines[at + 2] == "    2-pip may go: " + " ".join(newcomer)
    _, out, _ = run(["check", "--players", "3", "--json", str(path)], capsys)
    assert json.loads(out)["unseen_legal_moves"]["2"] == newcomer
    _, out, _ = run(["check", "--players", "4", str(path)], capsys)
    assert "  each of 2 players with no piece yet holds 1-pip 3, 2-pip 3, 3-pip 3\n" in out
    # Every player on the board, or named by the order of play: none.
    _, out, _ = run(["check", "--players", "2", "--json", str(path)], capsys)
    assert json.loads(out)["unseen_legal_moves"] is None
    _, out, _ = run(["check", "--seats", "r,b,g", str(path)], capsys)
    assert "with no piece yet holds" not in out and "  green holds 1-pip 3, 2-pip 3, 3-pip 3\n" in out


def test_version_is_the_installed_packages(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0 and capsys.readouterr().out == f"subdivision {version('subdivision')}\n"


@pytest.mark.parametrize("marked", [False, True])
def test_read_text_says_how_to_mark_the_corners_of_an_unsure_outline(capsys, tmp_path, monkeypatch, marked):
    """The reader unsure of the board's outline: ``read``'s text adds the way to mark the corners,
    unless they were marked already."""
    import types

    class FakeReading:
        file = None

        def to_dict(self):
            return {"grid": {"rows": 8, "cols": 8, "marked": marked}, "play_area": None, "threehouse": None,
                    "stash_inferred": False, "seconds": 0.1, "board": None,
                    "warnings": ["unsure of the board's outline", "1 park marker read"],
                    "warning_kinds": ["grid", "constraints"]}

    monkeypatch.setitem(sys.modules, "scorer.reader", types.SimpleNamespace(read_photo=lambda source, **_: FakeReading()))
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    status, out, _ = run(["read", str(path)], capsys)
    warnings = [line for line in out.splitlines() if line.startswith("; warning:")]
    assert status == 0 and len(warnings) == 2
    assert ("--corners X,Y,X,Y,X,Y,X,Y" in warnings[0]) != marked
    assert warnings[1] == "; warning: 1 park marker read"


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_file_name_that_is_not_utf8_is_valid_json_in_json_lines(capsys, tmp_path, command):
    path = os.path.join(os.fsencode(tmp_path), b"board \xff.txt")  # bytes a file system may hold
    with open(path, "wb") as file:
        file.write(Path(GAME_2P).read_bytes())
    status, out, _ = run([command, "--json", os.fsdecode(path)], capsys)
    assert status == 0
    assert "\\udc" not in out and json.loads(out)["file"] == f"{tmp_path}/board \ufffd.txt"


def test_a_photo_name_that_is_not_utf8_is_valid_json_in_the_readings_line(capsys, tmp_path):
    path = os.path.join(os.fsencode(tmp_path), b"photo \xfe.jpg")
    with open(path, "wb") as file:
        file.write((ROOT / "sample_photos" / "dev" / "studio_001000.jpg").read_bytes())
    status, out, _ = run(["read", "--json", os.fsdecode(path)], capsys)
    assert status == 0
    assert "\\udc" not in out and json.loads(out)["file"] == f"{tmp_path}/photo \ufffd.jpg"


def test_score_names_a_winner_only_once_the_game_is_over_on_a_legal_board(capsys, tmp_path):
    status, out, _ = run(["score", GAME_2P], capsys)
    assert status == 0 and out.rstrip().endswith("winner: red (24)")  # a finished game
    mid = tmp_path / "mid.txt"
    mid.write_text("# r3 r2 . . #\n. r1 b1 . . .\n. . b3 . . .\n. . . . . .\n. . . . . .\n# . . . . #\n")
    status, out, _ = run(["score", str(mid)], capsys)
    assert status == 0 and out.rstrip().endswith("leading: red (4); the game is not over (a player may still place a piece)")
    illegal = tmp_path / "illegal.txt"  # full, but two red 3-pips Near each other
    illegal.write_text("r3 r3 b1\nb2 r1 b3\nr2 b1 r1\n")
    status, out, _ = run(["score", str(illegal)], capsys)
    assert status == 0 and "  winner:" not in out
    assert out.rstrip().endswith("leading: red (6); the board breaks the rules at A3, B3, so nobody has won (check says how)")
    illegal.write_text("# . . . . #\n. r2 . . . .\n. . # . . .\n. . . # r2 .\n. b2 . . r2 .\n# . . . . #\n")
    status, out, _ = run(["score", str(illegal)], capsys)  # piece counts no turn order gives: no square to name
    assert out.rstrip().endswith("leading: red (4); the board breaks the rules, so nobody has won (check says how)")
    # the JSON says so too: its winners only lead (an audit took a leader for a winner)
    finals = []
    for board in (GAME_2P, str(mid), str(illegal)):
        status, out, _ = run(["score", "--json", board], capsys)
        finals.append(json.loads(out)["final"])
    assert finals == [True, False, False]
    tied = tmp_path / "tied.txt"
    tied.write_text("r3 . .\n. . .\n. . b3\n")
    status, out, _ = run(["score", str(tied)], capsys)
    assert out.rstrip().endswith("tied: red, blue (2 each); the game is not over (a player may still place a piece)")
    status, out, _ = run(["score", "--json", str(mid)], capsys)
    assert json.loads(out)["winners"] == ["red"]  # the JSON as before: the top scores


def test_a_photos_doubts_name_the_option_that_answers_them(capsys, tmp_path, monkeypatch):
    import types

    from scorer.board import Board

    board = Board.from_text(Path(GAME_2P).read_text())
    warnings = {"warnings": ["check a colour: the 15 red pieces may be orange", "the stash is in doubt", "a note"],
                "warning_kinds": ["colour_check", "stash", "photo"]}

    class FakeReading:
        uncertain = ["A1", "C2"]

        def __init__(self):
            self.board = board

        def to_dict(self):
            return {"grid": {"rows": 6, "cols": 6, "marked": False}, "play_area": None, "threehouse": False,
                    "stash_inferred": True, "seconds": 0.1, "board": board.to_text(), **warnings}

    monkeypatch.setitem(sys.modules, "scorer.reader", types.SimpleNamespace(read_photo=lambda source, **_: FakeReading()))
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 100)
    for command, prefix, colours in (("read", "; warning: ", "--colours"), ("score", "  warning: ", "--colours"),
                                     ("check", "  warning: ", "--seats")):
        status, out, _ = run([command, str(path)], capsys)
        said = [line.removeprefix(prefix) for line in out.splitlines() if line.startswith(prefix)]
        assert said[0].startswith("check a colour: the 15 red pieces may be orange; tell the players' colours")
        assert said[0].endswith(f": {colours} NAME,NAME,...")
        assert said[1] == "the stash is in doubt; the stash is set with --threehouse or --standard"
        assert said[2] == "a note"  # nothing on the command line answers it
    status, out, _ = run(["score", "--json", str(path)], capsys)
    assert json.loads(out)["reading_warnings"] == warnings["warnings"]  # the JSON keeps the reader's words
    assert json.loads(out)["reading_uncertain"] == ["A1", "C2"]  # and lists the squares to check


def test_check_given_colours_points_to_its_order_of_play(capsys):
    status, out, err = run(["check", "--colours", "r,b", GAME_2P], capsys)
    assert status == 2 and out == ""
    assert err == ("subdivision: error: check takes the players' colours in their order of play, first player first: "
                   "--seats red,blue (if that is the order)\n")


@pytest.mark.parametrize("command", ["score", "check"])
def test_a_photo_with_no_board_found_says_how_to_mark_it_and_go_on(capsys, tmp_path, monkeypatch, command):
    from PIL import Image

    monkeypatch.chdir(tmp_path)
    photo = "my board.jpg"
    Image.new("RGB", (640, 480), (128, 128, 128)).save(photo)
    status, out, err = run([command, photo], capsys)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "no checkerboard found" in err
    assert err.rstrip().endswith(f"; or mark its four outer corners: subdivision read '{photo}' --corners "
                                 f"X,Y,X,Y,X,Y,X,Y | subdivision {command} -")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="closing a child's stderr needs fork")
def test_with_stderr_closed_an_error_stays_out_of_the_json_on_stdout(tmp_path):
    # Python sets sys.stderr to None where fd 2 is closed; print(file=None) would write to stdout.
    done = subprocess.run([sys.executable, "-m", "scorer", "score", "--json", str(tmp_path / "missing.txt"), GAME_2P],
                          stdout=subprocess.PIPE, stderr=None, preexec_fn=lambda: os.close(2), text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["file"] == GAME_2P
