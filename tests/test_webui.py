"""The web app through Flask's test client: every route, every option, every error.

The photo route is tested here against a stand-in reader (the web layer's own behaviour:
limits, options, statuses, the overlay); tests/test_webui_photos.py runs the real reader.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import re
import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.board import Board
from scorer.errors import UserError
from scorer.rules import check_position, legal_moves
from scorer.scoring import score_board
from webui import create_app

WEBUI = Path(__file__).resolve().parents[1] / "webui"

MIDGAME = """\
# r3 r2 . . #
. r1 b1 . . .
. . b3 . . .
. . . . . .
. . . . . .
# . . . . #
"""


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


def assert_json_error(response, status):
    assert response.status_code == status, response.data
    assert response.is_json
    body = response.get_json()
    assert body["status"] == status
    assert isinstance(body["error"], str) and body["error"]
    assert "\n" not in body["error"]
    assert "Traceback" not in response.get_data(as_text=True)
    return body["error"]


# --- the page and its static files ----------------------------------------------------------
def test_every_id_on_the_page_is_its_own_and_every_reference_names_one(client):
    import re
    from collections import Counter

    html = client.get("/").get_data(as_text=True)
    ids = Counter(re.findall(r'\sid="([^"]+)"', html))
    assert [i for i, n in ids.items() if n > 1] == []
    named = re.findall(r'\s(?:aria-labelledby|aria-describedby|for)="([^"]+)"', html)
    assert named and [i for i in named if i not in ids] == []


def test_index_serves_the_page_with_camera_upload_and_options(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'accept="image/*"' in html and 'capture="environment"' in html
    for needle in ('id="opt-players"', 'value="auto"', 'id="opt-threehouse"', 'id="opt-private-parks"',
                   'id="board-text"', 'id="new-board"', 'id="diagram"', 'id="picker"'):
        assert needle in html, needle
    assert "/static/app.js" in html and "/static/style.css" in html
    assert html.count("<h1") == 1  # one page title, for screen readers' outline


@pytest.mark.parametrize("name", ["app.js", "style.css", "favicon.svg"])
def test_static_files_are_served(client, name):
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert len(response.data) > 100


def test_nothing_is_loaded_from_another_site():
    """No CDN: every script, stylesheet and font comes from static/."""
    for path in [*WEBUI.glob("templates/*.html"), *WEBUI.glob("static/*")]:
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+\.[a-z]{2,}[^\s\"')]*", text)
        urls = [u for u in urls if "www.w3.org/2000/svg" not in u]
        assert not urls, f"{path.name} refers to {urls}"


# --- /api/score -----------------------------------------------------------------------------
def test_score_itemizes_every_player(client):
    response = client.post("/api/score", json={"board": MIDGAME})
    assert response.status_code == 200
    body = response.get_json()
    assert body["board"] == MIDGAME and body["rows"] == 6 and body["cols"] == 6
    red, blue = body["players"]["red"], body["players"]["blue"]
    # red: 3 + 2 + 1 pips, one group (B5 B6 C6) -1, B6's 1-pips B5 and C5: first free, -1
    assert red["pips_by_size"] == {"1": 1, "2": 2, "3": 3}
    assert red["groups"] == [{"cells": ["B5", "B6", "C6"], "points": -1}]
    assert red["deductions"] == [{"cell": "B6", "one_pips": ["B5", "C5"], "points": -1, "capped": False}]
    assert red["total"] == 4 and blue["total"] == 2
    assert body["winners"] == ["red"]
    assert [r["colour"] for r in body["ranking"]] == ["red", "blue"]
    expected = score_board(Board.from_text(MIDGAME)).to_dict()
    assert {k: body[k] for k in expected} == expected


PARK_BOARD = """\
# r2 .
r2 # .
. . b2
"""


@pytest.mark.parametrize(
    "options, red_bonus",
    [({}, 0), ({"private_parks": True}, 0), ({"private_parks": True, "loose_parks": True}, 3),
     ({"private_parks": "on", "loose_parks": "1"}, 3), ({"private_parks": False, "loose_parks": True}, 3)],
)
def test_score_private_parks_options(client, options, red_bonus):
    # A3's non-park Near squares, A2 and B3, are both red but two groups: only the loose
    # reading gives the park (loose_parks alone implies the variant).
    body = client.post("/api/score", json={"board": PARK_BOARD, **options}).get_json()
    assert body["players"]["red"]["park_bonus"] == red_bonus


def test_score_of_an_empty_board_has_no_players(client):
    body = client.post("/api/score", json={"board": ". . .\n. . .\n. . .\n"}).get_json()
    assert body["players"] == {} and body["winners"] == []


# --- /api/check -----------------------------------------------------------------------------
def test_check_reports_turn_stash_and_legal_moves(client):
    response = client.post("/api/check", json={"board": MIDGAME, "players": "auto", "threehouse": False})
    assert response.status_code == 200
    body = response.get_json()
    assert body["violations"] == []
    assert body["to_move"] == "blue"
    assert body["stash"]["red"] == {"1": 4, "2": 4, "3": 4}
    board = Board.from_text(MIDGAME)
    for colour in ("red", "blue"):
        for pips in (1, 2, 3):
            assert body["legal_moves"][colour][str(pips)] == [sq.name for sq in legal_moves(board, colour, pips)]
    assert body["unseen_legal_moves"] is None


def test_check_lists_violations_with_their_cells(client):
    board = "r3 r3 .\n. . .\n. . b1\n"
    body = client.post("/api/check", json={"board": board}).get_json()
    rules = {v["rule"] for v in body["violations"]}
    assert "three_near_three" in rules
    cells = {c for v in body["violations"] for c in [v["cell"], *v.get("cells", [])] if c}
    assert {"A3", "B3"} <= cells
    # the page lists each broken rule once: the pair of 3-pips is one problem
    assert [p for p in body["problems"] if p["rule"] == "three_near_three"] == [
        {"cell": None, "rule": "three_near_three", "message": "the red 3-pips on A3 and B3 are Near each other",
         "cells": ["A3", "B3"]}]


@pytest.mark.parametrize("body", [{}, {"threehouse": "auto"}, {"threehouse": None}, {"threehouse": ""}, {"threehouse": " "}])
def test_check_infers_the_stash_unless_given(client, body):
    five = "r1 . . . #\n. . . . .\n. . . . .\n. . . . .\n# . . . b1\n"  # 5x5: only ThreeHouse
    report = client.post("/api/check", json={"board": five, **body}).get_json()
    assert (report["threehouse"], report["stash_inferred"], report["stash"]["red"]) == (True, True, {"1": 2, "2": 3, "3": 3})
    given = client.post("/api/check", json={"board": five, "threehouse": False}).get_json()
    assert (given["threehouse"], given["stash_inferred"]) == (False, False)


@pytest.mark.parametrize("players, threehouse", [(2, False), ("3", False), (4, True), ("auto", True), (None, False)])
def test_check_passes_players_and_threehouse(client, players, threehouse):
    body = client.post("/api/check", json={"board": MIDGAME, "players": players, "threehouse": threehouse}).get_json()
    expected = check_position(
        Board.from_text(MIDGAME), players=None if players in (None, "auto") else int(players), threehouse=threehouse
    ).to_dict()
    assert {k: body[k] for k in expected} == expected


def test_check_takes_the_order_of_play(client):
    board = Board.from_text(MIDGAME)
    body = client.post("/api/check", json={"board": MIDGAME, "seats": ["b", "red"]}).get_json()
    expected = check_position(board, threehouse=None, seats=["blue", "red"]).to_dict()
    assert {k: body[k] for k in expected} == expected and body["seats"] == ["blue", "red"]
    assert client.post("/api/check", json={"board": MIDGAME, "seats": []}).get_json()["seats"] is None


@pytest.mark.parametrize("seats, players, message", [
    ("red,blue", None, "must be a list of colour names"),
    (["red", "zz"], None, "unknown colour 'zz'"),
    (["red", "red"], None, "red is named twice"),
    (["red"], None, "name 2, 3 or 4 players"),
    (["red", "blue"], 3, "'players' is 3 but 'seats' names 2"),
])
def test_check_rejects_a_bad_order_of_play_in_one_line(client, seats, players, message):
    response = client.post("/api/check", json={"board": MIDGAME, "seats": seats, "players": players})
    assert response.status_code == 400 and message in response.get_json()["error"]


@pytest.mark.parametrize("body, message", [
    ({"threehouse": "maybe"}, 'option \'threehouse\' must be true or false, or "auto", not "maybe"'),
    ({"players": True}, 'option \'players\' must be 2, 3, 4 or "auto", not true'),  # JSON's spelling, not True
    ({"seats": {"red": 1}}, 'option \'seats\' must be a list of colour names, not {"red": 1}'),
    ({"seats": [None, None]}, "option 'seats' must be a list of colour names, and null is not one"),
    ({"seats": [["r"], ["b"]]}, 'option \'seats\' must be a list of colour names, and ["r"] is not one'),
    ({"threehouse": "x" * 60}, 'not "' + "x" * 38 + "…"),
])
def test_a_bad_option_is_named_with_what_it_takes_and_as_sent(client, body, message):
    response = client.post("/api/check", json={"board": MIDGAME, **body})
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_check_gives_moves_for_a_player_with_no_piece_yet(client):
    body = client.post("/api/check", json={"board": MIDGAME, "players": 3}).get_json()
    assert body["unseen_players"] == 1
    moves = body["unseen_legal_moves"]
    board = Board.from_text(MIDGAME)
    assert moves["2"] == [sq.name for sq in legal_moves(board, "green", 2, {1: 5, 2: 5, 3: 5})]
    # a newcomer's 1-pip needs a 1-pip or 3-pip Near it: of any colour on the board
    assert moves["1"] == [sq.name for sq in legal_moves(board, "green", 1, {1: 5, 2: 5, 3: 5})]
    assert "A4" in moves["1"] and "F1" not in moves["1"]


# --- errors of the JSON routes ------------------------------------------------------------
@pytest.mark.parametrize("route", ["/api/score", "/api/check"])
@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"data": "board=. . .", "content_type": "application/x-www-form-urlencoded"}, "JSON"),
        ({"data": "{not json", "content_type": "application/json"},
         "the body is not JSON (Expecting property name enclosed in double quotes: line 1, column 2)"),
        ({"data": '{"board": "abc', "content_type": "application/json"},
         "the body is not JSON (Unterminated string starting at: line 1, column 11)"),
        ({"data": '{"board": "# . .", "players": 1' + "0" * 5000 + "}", "content_type": "application/json"},
         "the JSON could not be read (a number in it has 5001 digits)"),
        ({"data": b'{"board": "\xff"}', "content_type": "application/json"}, "the body is not text (send it in UTF-8)"),
        ({"json": ["# . ."]}, "the JSON is a list, not an object"),
        ({"json": "# . ."}, "the JSON is a string, not an object"),
        ({"data": "null", "content_type": "application/json"}, "the JSON is null, not an object"),
        ({"json": {}}, "board"),
        ({"json": {"board": "   "}}, "board"),
        ({"json": {"board": 42}}, "must be the board's text notation (a string), not a number"),
        ({"json": {"board": ["# . ."]}}, "(a string), not a list"),
        ({"data": '{"board": ". . ."}', "content_type": "text/plain"}, "with Content-Type: application/json"),
        ({"json": {"board": ". . .\n. z9 .\n. . .\n"}}, "B2"),
        ({"json": {"board": ". . .\n. .\n. . .\n"}}, "row 2"),
        ({"json": {"board": ". .\n. .\n"}}, "3..12"),
        ({"json": {"board": ". " * 6000}}, "too long (12,000 characters; at most 10,000)"),
    ],
)
def test_bad_board_requests_get_400(client, route, kwargs, needle):
    message = assert_json_error(client.post(route, **kwargs), 400)
    assert needle in message


@pytest.mark.parametrize(
    "options",
    [{"players": 5}, {"players": "two"}, {"players": True}, {"players": 2.7}, {"players": "3.5"},
     {"players": [2]}, {"threehouse": "maybe"}],
)
def test_bad_check_options_get_400(client, options):
    assert_json_error(client.post("/api/check", json={"board": MIDGAME, **options}), 400)


def test_bad_score_option_gets_400(client):
    assert_json_error(client.post("/api/score", json={"board": MIDGAME, "private_parks": [1]}), 400)


@pytest.mark.parametrize("route", ["/api/score", "/api/check", "/api/read"])
def test_wrong_method_gets_405_json(client, route):
    assert_json_error(client.get(route), 405)


@pytest.mark.parametrize("route", ["/api/score", "/api/check", "/api/read", "/api/preview"])
def test_options_is_answered_in_json_with_the_methods_taken(client, route):
    response = client.options(route)
    assert response.status_code == 200 and response.is_json
    assert response.get_json() == {"allow": ["OPTIONS", "POST"]}
    assert sorted(response.headers["Allow"].split(", ")) == ["OPTIONS", "POST"]


def test_unknown_api_route_gets_404_json(client):
    assert_json_error(client.get("/api/nothing-here"), 404)
    assert_json_error(client.post("/api"), 404)
    # a doubled slash is no address either, answered in JSON (werkzeug had redirected in HTML)
    assert_json_error(client.post("/api//score", json={"board": ". ."}), 404)


def test_unknown_page_gets_an_html_404(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "Back to the scorer" in response.get_data(as_text=True)


def test_unexpected_failure_is_a_json_500_without_traceback(monkeypatch):
    import scorer.scoring

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(scorer.scoring, "score_board", broken)
    client = create_app().test_client()  # not TESTING: errors are handled, not propagated
    response = client.post("/api/score", json={"board": MIDGAME})
    message = assert_json_error(response, 500)
    assert "secret" not in response.get_data(as_text=True)
    assert "kept" in message


def test_unexpected_page_failure_is_an_html_500():
    app = create_app()

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    assert response.status_code == 500 and response.mimetype == "text/html"
    assert "secret" not in response.get_data(as_text=True)


# --- /api/read: the web layer around the reader (a stand-in reader) ------------------------
def png_bytes(width=64, height=48, colour=(40, 120, 200)):
    image = np.full((height, width, 3), colour, np.uint8)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


class StandInReading:
    """Shaped like scorer.reader.Reading: board, uncertain, to_dict(), overlay()."""

    def __init__(self, board_text, overlay_shape=(2000, 3000)):
        self.board = Board.from_text(board_text) if board_text else None
        self.overlay_shape = overlay_shape
        self.uncertain = ["A1"]

    def to_dict(self):
        return {
            "board": self.board.to_text() if self.board else None,
            "cells": [{"cell": "A1", "value": "#", "confidence": 0.55, "alternatives": [{"value": ".", "confidence": 0.4}]}],
            "warnings": ["stand-in"],
        }

    def overlay(self, mark_unsure=True):
        self.marked_unsure = mark_unsure
        return np.full((*self.overlay_shape, 3), 128, np.uint8)


@pytest.fixture
def stand_in_reader(monkeypatch):
    """Install a stand-in ``scorer.reader``; returns the list of calls it received."""
    calls = []
    module = types.ModuleType("scorer.reader")

    def read_photo(source, *, players=None, threehouse=False, area=None, corners=None, rows=8, cols=8, colours=None):
        calls.append({"source": source, "players": players, "threehouse": threehouse, "corners": corners,
                      "squares": (cols, rows), "colours": colours})
        if source.startswith(b"NOBOARD"):
            raise NoBoardFound("photo: no board found")
        reading = StandInReading(None if source.startswith(b"GRIDONLY") else MIDGAME)
        calls[-1]["reading"] = reading
        return reading

    class NoBoardFound(UserError):
        pass

    module.read_photo = read_photo
    monkeypatch.setitem(sys.modules, "scorer.reader", module)
    return calls


def upload(client, data, **form):
    payload = {"photo": (io.BytesIO(data), "photo.jpg"), **form}
    return client.post("/api/read", data=payload, content_type="multipart/form-data")


def test_read_returns_reading_board_and_a_small_overlay(client, stand_in_reader):
    response = upload(client, png_bytes(), players="3", threehouse="true")
    assert response.status_code == 200, response.data
    body = response.get_json()
    assert body["board"] == MIDGAME
    assert body["reading"]["cells"][0]["cell"] == "A1"
    assert body["uncertain"] == ["A1"]
    reading = stand_in_reader[0].pop("reading")
    assert stand_in_reader == [{"source": png_bytes(), "players": 3, "threehouse": True, "corners": None,
                                "squares": (8, 8), "colours": None}]
    assert reading.marked_unsure is False  # the page marks the unsure squares, and unmarks them once checked
    assert body["overlay"].startswith("data:image/jpeg;base64,")
    jpeg = base64.b64decode(body["overlay"].split(",", 1)[1])
    overlay = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert max(overlay.shape[:2]) == 1600  # 3000x2000 scaled down to the page's size
    assert body["overlay_size"] == [1600, 1067]
    assert body["squares"] == {}  # the stand-in has no grid


def test_read_options_default_to_auto(client, stand_in_reader):
    assert upload(client, png_bytes(), players="auto").status_code == 200
    assert upload(client, png_bytes()).status_code == 200
    assert [c["players"] for c in stand_in_reader] == [None, None]
    assert [c["threehouse"] for c in stand_in_reader] == [None, None]  # the reader infers the stash


def test_read_that_found_the_grid_but_not_the_board_still_answers(client, stand_in_reader):
    body = upload(client, b"GRIDONLY" + png_bytes()).get_json()
    assert body["board"] is None
    assert body["reading"]["warnings"] and body["overlay"].startswith("data:image/jpeg")


def test_read_with_no_board_in_the_photo_is_422(client, stand_in_reader):
    message = assert_json_error(upload(client, b"NOBOARD" + png_bytes()), 422)
    assert "no board" in message


def test_read_without_a_photo_is_400(client, stand_in_reader):
    assert "no photo" in assert_json_error(client.post("/api/read", data={"players": "2"}), 400)
    assert "empty" in assert_json_error(upload(client, b""), 400)
    assert "sent as a text field" in assert_json_error(client.post("/api/read", data={"photo": "x.jpg"}), 400)
    # a part whose file name is not UTF-8: the form parser drops the whole part
    body = (b'--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="caf\xe9.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n" + png_bytes() + b"\r\n--XyZ--\r\n")
    garbled = client.post("/api/read", data=body, content_type="multipart/form-data; boundary=XyZ")
    assert "could not be read as multipart form data" in assert_json_error(garbled, 400)
    # a form with no part at all is well formed: no photo in it
    for empty in (client.post("/api/read", data={}, content_type="multipart/form-data"),
                  client.post("/api/read", data=b"--XyZ--\r\n", content_type="multipart/form-data; boundary=XyZ")):
        assert assert_json_error(empty, 400).startswith("no photo")
    cut = client.post("/api/read", data=b"--XyZ\r\nContent-Disp", content_type="multipart/form-data; boundary=XyZ")
    assert "could not be read as multipart form data" in assert_json_error(cut, 400)
    # JSON or a bare image body: says what to send, not a guess at a broken upload
    sent_json = client.post("/api/read", json={"board": "r1 ."})
    assert "send the image as multipart/form-data, in the field 'photo' (got application/json)" in assert_json_error(sent_json, 400)
    bare = client.post("/api/read", data=png_bytes(), content_type="image/png")
    assert "(got image/png)" in assert_json_error(bare, 400)
    assert stand_in_reader == []


def test_two_photos_in_one_request_are_400_not_one_read_silently(client, stand_in_reader):
    two = {"photo": [(io.BytesIO(png_bytes()), "a.png"), (io.BytesIO(png_bytes()), "b.png")]}
    assert "2 files were sent in the field 'photo'" in assert_json_error(client.post("/api/read", data=two), 400)
    assert stand_in_reader == []


def test_read_passes_corners_marked_by_hand_to_the_reader(client, stand_in_reader):
    marks = [[10, 20], [300.5, 22], [310, 290], [12, 280]]
    assert upload(client, png_bytes(), corners=json.dumps(marks), squares="6x6").status_code == 200
    assert upload(client, png_bytes(), corners="", squares="").status_code == 200  # the finder's grid
    assert [(c["corners"], c["squares"]) for c in stand_in_reader] == [(marks, (6, 6)), (None, (8, 8))]


def test_read_passes_the_players_colours_to_the_reader(client, stand_in_reader):
    assert upload(client, png_bytes(), colours="white, p").status_code == 200
    assert upload(client, png_bytes(), players="3", colours="red,blue,y").status_code == 200
    assert upload(client, png_bytes(), colours="").status_code == 200  # none told
    assert [c["colours"] for c in stand_in_reader] == [["white", "purple"], ["red", "blue", "yellow"], None]
    assert "'colours': unknown colour 'pink'" in assert_json_error(upload(client, png_bytes(), colours="red,pink"), 400)
    assert "'colours': name 2, 3 or 4 players" in assert_json_error(upload(client, png_bytes(), colours="red"), 400)
    assert "option 'players' is 2 but 'colours' names 3" in assert_json_error(
        upload(client, png_bytes(), players="2", colours="r,b,g"), 400)
    too_long = assert_json_error(upload(client, png_bytes(), colours="red," * 1000), 400)
    assert "2 to 4 colour names or letters separated by commas" in too_long and len(too_long) < 200
    colours = (io.BytesIO(b"red,blue"), "colours.txt")
    assert "'colours' was sent as a file" in assert_json_error(upload(client, png_bytes(), colours=colours), 400)
    assert len(stand_in_reader) == 3


def test_read_bad_options_are_400(client, stand_in_reader):
    assert_json_error(upload(client, png_bytes(), players="7"), 400)
    assert_json_error(upload(client, png_bytes(), threehouse="perhaps"), 400)
    assert "four [x, y] points" in assert_json_error(upload(client, png_bytes(), corners="[[1, 2], [3, 4]]"), 400)
    assert "four [x, y] points" in assert_json_error(upload(client, png_bytes(), corners='[[1, 2], [3, 4], [5, 6], [7, "x"]]'), 400)
    assert "COLSxROWS" in assert_json_error(upload(client, png_bytes(), corners="[[1, 2], [3, 4], [5, 6], [7, 8]]",
                                                   squares="eight"), 400)
    assert "'99999999999999999999...'" in assert_json_error(
        upload(client, png_bytes(), corners="[[1, 2], [3, 4], [5, 6], [7, 8]]", squares="9" * 5000), 400)
    assert "four [x, y] points" in assert_json_error(
        upload(client, png_bytes(), corners="[[true, false], [3, 4], [5, 6], [7, 8]]"), 400)
    # the size of a marked board means nothing without the marks, as on the command line
    assert "send the corners too" in assert_json_error(upload(client, png_bytes(), squares="6x6"), 400)
    assert stand_in_reader == []


def test_an_option_sent_as_a_file_is_400_not_ignored(client, stand_in_reader):
    corners = (io.BytesIO(b"[[1, 2], [3, 4], [5, 6], [7, 8]]"), "corners.txt")
    assert "'corners' was sent as a file" in assert_json_error(upload(client, png_bytes(), corners=corners), 400)
    assert stand_in_reader == []


def test_a_field_no_route_takes_or_one_sent_twice_is_400_not_dropped(client, stand_in_reader):
    # A misspelt option would be dropped without a word: privateParks scored without the parks.
    error = assert_json_error(client.post("/api/score", json={"board": MIDGAME, "privateParks": True}), 400)
    assert error == "unknown field 'privateParks': this request takes board, loose_parks, private_parks"
    assert "unknown field 'seat'" in assert_json_error(client.post("/api/check", json={"board": MIDGAME, "seat": ["r", "b"]}), 400)
    assert client.post("/api/check", json={"board": MIDGAME, "players": 2, "threehouse": "auto", "seats": ["r", "b"]}).status_code == 200
    assert "unknown field 'colors'" in assert_json_error(upload(client, png_bytes(), colors="w,p"), 400)
    twice = client.post("/api/read", data={"photo": (io.BytesIO(png_bytes()), "photo.jpg"), "players": ["2", "3"]},
                        content_type="multipart/form-data")
    assert assert_json_error(twice, 400) == "the field 'players' was sent 2 times: send it once"
    extra = client.post("/api/preview", data={"photo": (io.BytesIO(png_bytes()), "photo.jpg"), "players": "2"},
                        content_type="multipart/form-data")
    assert "unknown field 'players': this request takes photo" in assert_json_error(extra, 400)
    query = client.post("/api/read?players=3", data={"photo": (io.BytesIO(png_bytes()), "photo.jpg")},
                        content_type="multipart/form-data")
    assert "'players' was sent in the address's query string" in assert_json_error(query, 400)
    assert "'foo' was sent in the address's query string" in assert_json_error(
        client.post("/api/score?foo=1", json={"board": MIDGAME}), 400)
    text_too = client.post("/api/read", data={"photo": [(io.BytesIO(png_bytes()), "photo.jpg"), "also text"]},
                           content_type="multipart/form-data")
    assert assert_json_error(text_too, 400) == "the field 'photo' was sent 2 times: send it once"
    assert stand_in_reader == []


def test_a_board_too_large_is_413_without_blaming_a_photo(client):
    response = client.post("/api/score", data=b'{"board": "' + b"." * 26_000_000 + b'"}', content_type="application/json")
    message = assert_json_error(response, 413)
    assert "request is too large" in message and "photo" not in message


def test_read_over_25_mb_is_413(client, stand_in_reader):
    # Over the request limit (MAX_CONTENT_LENGTH): werkzeug stops reading.
    assert "25 MB" in assert_json_error(upload(client, b"\xff" * 26_000_000), 413)
    # Just over 25 MB of photo but under the request limit: the app's own check.
    assert_json_error(upload(client, png_bytes() + b"\0" * (25_000_001 - len(png_bytes()))), 413)
    assert stand_in_reader == []


def test_a_form_field_too_long_is_413_saying_so_not_blaming_the_photo(client, stand_in_reader):
    response = client.post("/api/read", data={"photo": (io.BytesIO(png_bytes()), "board.png"), "corners": "1" * 200_000},
                           content_type="multipart/form-data")
    assert "form field is too long" in assert_json_error(response, 413)
    # a photo sent with no file name is a form field to the parser: the message says how to send it
    body = (b'--x\r\nContent-Disposition: form-data; name="photo"\r\nContent-Type: image/png\r\n\r\n'
            + png_bytes() + b"\0" * 200_000 + b"\r\n--x--\r\n")
    response = client.post("/api/read", data=body, content_type="multipart/form-data; boundary=x")
    assert "'photo' as a file, with a file name" in assert_json_error(response, 413)
    assert stand_in_reader == []


def test_json_nested_past_the_parser_is_a_400_not_a_500(client):
    for route in ("/api/score", "/api/check"):
        response = client.post(route, data='{"board": ' + "[" * 5000 + "]" * 5000 + "}",
                               content_type="application/json")
        assert "the JSON is nested too deeply" in assert_json_error(response, 400)


def test_a_key_given_twice_in_the_json_is_a_400_not_the_last_one_taken(client):
    # (a robustness sweep: {"board": A, "board": B} scored B without a word)
    for body in ('{"board": "# . #\\n. r1 .\\n# . #", "board": ". . .\\n. . .\\n. . ."}',
                 '{"board": ". . .\\n. . .\\n. . .", "seats": {"red": 1, "red": 2}}'):
        response = client.post("/api/check", data=body, content_type="application/json")
        assert "is given twice" in assert_json_error(response, 400)
    response = client.post("/api/score", data='{"board": ". . .\\n. . .\\n. . ."}', content_type="application/json")
    assert response.status_code == 200


@pytest.mark.parametrize("route", ["/api/score", "/api/check", "/api/read", "/api/preview"])
def test_a_compressed_body_is_a_415_saying_to_send_it_uncompressed(client, route):
    # (a robustness sweep: a gzip body was read as it came, "not JSON" or a damaged photo)
    body = gzip.compress(b'{"board": ". . .\\n. . .\\n. . ."}')
    response = client.post(route, data=body, content_type="application/json", headers={"Content-Encoding": "gzip"})
    assert "Content-Encoding: gzip: send it uncompressed" in assert_json_error(response, 415)
    for identity in ("identity", "identity, identity"):
        response = client.post("/api/score", data=b'{"board": ". . .\\n. . .\\n. . ."}', content_type="application/json",
                               headers={"Content-Encoding": identity})
        assert response.status_code == 200
    response = client.options(route, headers={"Content-Encoding": "gzip"})  # no body: answered as ever
    assert response.status_code == 200 and "POST" in response.get_json()["allow"]


def test_an_option_nested_as_deep_as_the_parser_takes_is_a_400_not_a_500(client):
    # (a robustness sweep: the parser took 980 arrays deep; the error quoting it ran out of calls)
    for depth in range(900, 1000):
        body = '{"board": ". . .\\n. . .\\n. . .", "threehouse": ' + "[" * depth + "]" * depth + "}"
        response = client.post("/api/check", data=body, content_type="application/json")
        assert response.status_code == 400, (depth, response.status_code)


def test_an_error_quoting_a_huge_option_is_cut_short(client):
    response = client.post("/api/check", json={"board": ". . .\n. . .\n. . .", "players": "2" * 1_000_000})
    assert len(assert_json_error(response, 400)) <= 300


@pytest.mark.parametrize("width, height, said", [(10000, 9000, "90 megapixels"),
                                                 (65535, 65535, "far too many pixels")])
def test_read_over_80_megapixels_is_413(client, stand_in_reader, width, height, said):
    # A PNG header claiming 10000 x 9000 = 90 MP: refused from the header, nothing decoded;
    # one PIL itself calls a bomb is not given a made-up size.
    import struct
    import zlib

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    bomb = header + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    assert said in assert_json_error(upload(client, bomb), 413)
    assert stand_in_reader == []


def test_read_without_a_reader_is_503(client, monkeypatch):
    monkeypatch.setitem(sys.modules, "scorer.reader", None)  # import fails as if not installed
    message = assert_json_error(upload(client, png_bytes()), 503)
    assert "photo reading not available" in message
    preview = client.post("/api/preview", data={"photo": (io.BytesIO(png_bytes()), "photo.png")},
                          content_type="multipart/form-data")
    assert "photo reading not available" in assert_json_error(preview, 503)


def test_read_errors_from_the_reader_become_4xx(client, monkeypatch):
    from scorer.vision.grid import BoardCutOff, NoBoardFound
    from scorer.vision.load import PhotoError, PhotoTooLarge

    module = types.ModuleType("scorer.reader")
    errors = iter([PhotoError("photo: not an image (expected JPEG, PNG, WebP, HEIC, TIFF or BMP)"),
                   PhotoError("photo: image is truncated or corrupt (broken data stream)"),
                   PhotoTooLarge("photo: image is 12000x8000 = 96,000,000 pixels, more than the 80,000,000 allowed"),
                   NoBoardFound("no checkerboard found"), BoardCutOff("the checkerboard found is only 3x8 squares, ...")])

    def read_photo(source, **options):
        raise next(errors)

    module.read_photo = read_photo
    monkeypatch.setitem(sys.modules, "scorer.reader", module)
    assert "not an image" in assert_json_error(upload(client, b"hello, not a photo"), 400)
    assert "truncated" in assert_json_error(upload(client, png_bytes()[:40]), 400)
    assert_json_error(upload(client, png_bytes()), 413)
    # no board: the corners to mark; a board the photo's edge cuts to a strip: the photo to take again
    assert "field" not in upload(client, png_bytes()).get_json()
    cut = upload(client, png_bytes())
    assert_json_error(cut, 422)
    assert cut.get_json()["field"] == "photo"


def test_read_limits_follow_the_config(stand_in_reader):
    client = create_app({"TESTING": True, "MAX_PHOTO_BYTES": 1000, "MAX_PHOTO_PIXELS": 100}).test_client()
    assert_json_error(upload(client, png_bytes() + b"\0" * 1000), 413)
    assert_json_error(upload(client, png_bytes(20, 20)), 413)
    assert upload(client, png_bytes(10, 10)).status_code == 200
