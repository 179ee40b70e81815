"""POST /api/read with the real photo reader: a drawn board in, a reading out; bad photos in,
4xx JSON out. (How well the reader reads is measured by ``subdivision eval``, not here.)"""

from __future__ import annotations

import base64
import io
import json
import random

import cv2
import numpy as np
import pytest

from scorer.board import Board
from scorer.rules import random_game
from synthetic_scene import draw_scene
from webui import create_app


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


@pytest.fixture(scope="module")
def scene_jpeg():
    board = random_game(random.Random(3), 2)
    image, _, _ = draw_scene(board, origin=(1, 1), size=(8, 8))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def upload(client, data, name="photo.jpg", **form):
    return client.post("/api/read", data={"photo": (io.BytesIO(data), name), **form},
                       content_type="multipart/form-data")


def test_the_stash_is_inferred_unless_given(client, scene_jpeg):
    for form, inferred in (({}, True), ({"threehouse": "auto"}, True), ({"threehouse": "false"}, False)):
        reading = upload(client, scene_jpeg, **form).get_json()["reading"]
        # a standard two-player game on a 6x6 play area with its 6 parks
        assert reading["threehouse"] is False and reading["stash_inferred"] is inferred, form
    reading = upload(client, scene_jpeg, threehouse="true").get_json()["reading"]
    assert reading["threehouse"] is True and reading["stash_inferred"] is False
    assert "must be true or false" in error_of(upload(client, scene_jpeg, threehouse="maybe"), 400)


def error_of(response, status):
    assert response.status_code == status, response.data
    body = response.get_json()
    assert body["status"] == status and "\n" not in body["error"]
    return body["error"]


def test_read_a_photo_of_a_board(client, scene_jpeg):
    response = upload(client, scene_jpeg, players="2", threehouse="false")
    assert response.status_code == 200, response.data
    body = response.get_json()
    board = Board.from_text(body["board"])
    assert (board.rows, board.cols) == (6, 6)
    reading = body["reading"]
    assert reading["board"] == body["board"]
    assert reading["threehouse"] is False and reading["stash_inferred"] is False  # given
    assert reading["grid"]["rows"] >= 6 and len(reading["grid"]["corners"]) == 4
    assert sorted(c["cell"] for c in reading["cells"]) == sorted(sq.name for sq in board.squares())
    assert set(body["uncertain"]) <= {c["cell"] for c in reading["cells"]}
    # the threshold the page judges the uncertain squares by, as the reader flagged them (the
    # JSON's confidences are rounded to 3 places)
    below = body["unsure_below"]
    assert ({c["cell"] for c in reading["cells"] if c["confidence"] < below - 5e-4} <= set(body["uncertain"])
            <= {c["cell"] for c in reading["cells"] if c["confidence"] < below + 5e-4})
    assert body["overlay"].startswith("data:image/jpeg;base64,")
    overlay = cv2.imdecode(np.frombuffer(base64.b64decode(body["overlay"].split(",", 1)[1]), np.uint8), cv2.IMREAD_COLOR)
    # cropped to the checkerboard with a margin (the 1200x900 drawing has background around it)
    width, height = body["overlay_size"]
    assert overlay is not None and overlay.shape[:2] == (height, width)
    corners = np.array(reading["grid"]["corners"])
    span = corners.max(axis=0) - corners.min(axis=0)
    assert span[0] < width < 1200 and span[1] < height < 900
    # each play-area square's outline on the overlay, for marks and taps on the photo
    outlines = body["squares"]
    assert sorted(outlines) == sorted(sq.name for sq in board.squares())
    for quad in outlines.values():
        assert len(quad) == 4 and all(0 <= x <= width and 0 <= y <= height for x, y in quad)
    centre = {name: np.mean(quad, axis=0) for name, quad in outlines.items()}
    assert centre["A1"][1] > centre["A6"][1]  # row 1 is nearest the bottom of the image
    assert centre["A1"][0] < centre["F1"][0]  # column A on the left
    # the reading scores and checks like any board
    assert client.post("/api/score", json={"board": body["board"]}).status_code == 200
    assert client.post("/api/check", json={"board": body["board"], "players": 2}).status_code == 200


def test_a_file_that_is_not_an_image_is_400(client):
    assert "not an image" in error_of(upload(client, b"%PDF-1.4 this is not a photo\n" * 20, "board.pdf"), 400)


def test_a_truncated_photo_is_400(client, scene_jpeg):
    assert "truncated" in error_of(upload(client, scene_jpeg[: len(scene_jpeg) // 2]), 400)


def test_a_photo_without_a_board_is_422(client):
    rng = np.random.default_rng(0)
    image = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (31, 31), 0)
    ok, data = cv2.imencode(".jpg", image)
    assert error_of(upload(client, data.tobytes()), 422)


def test_an_iphone_heic_photo_is_read(client, scene_jpeg):
    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    heic = io.BytesIO()
    Image.open(io.BytesIO(scene_jpeg)).save(heic, format="HEIF", quality=85)
    response = upload(client, heic.getvalue(), "IMG_0001.HEIC")
    assert response.status_code == 200, response.data
    assert Board.from_text(response.get_json()["board"]).rows == 6


def test_a_blurred_photo_is_read_and_says_so(client, scene_jpeg):
    sharp = upload(client, scene_jpeg).get_json()["reading"]
    assert sharp["blurred"] is False and sharp["sharpness"] > 0.3
    image = cv2.imdecode(np.frombuffer(scene_jpeg, np.uint8), cv2.IMREAD_COLOR)
    ok, data = cv2.imencode(".jpg", cv2.GaussianBlur(image, (0, 0), 5.0))
    response = upload(client, data.tobytes())
    assert response.status_code == 200, response.data
    reading = response.get_json()["reading"]
    assert reading["blurred"] is True and reading["sharpness"] < 0.2
    assert any("blurred" in w for w in reading["warnings"])
    assert all(cell["confidence"] <= 0.973 for cell in reading["cells"])


# --- a board marked by hand ----------------------------------------------------------------------
def test_a_board_marked_by_hand_is_read_on_the_marks(client, scene_jpeg):
    found = upload(client, scene_jpeg).get_json()
    grid = found["reading"]["grid"]
    assert grid["marked"] is False
    marks = np.asarray(grid["corners"]) + [[4, -3], [-3, 4], [3, 3], [-4, -2]]  # a few px off
    response = upload(client, scene_jpeg, corners=json.dumps(marks[::-1].tolist()),
                      squares=f"{grid['cols']}x{grid['rows']}")
    assert response.status_code == 200, response.data
    marked = response.get_json()
    assert marked["reading"]["grid"]["marked"] is True
    assert np.abs(np.asarray(marked["reading"]["grid"]["corners"]) - grid["corners"]).max() < 2.0
    assert marked["board"] == found["board"]


@pytest.mark.parametrize("form, message", [
    ({"corners": "the four corners"}, "four [x, y] points"),
    ({"corners": "[[1, 2], [3, 4], [5, 6]]"}, "four [x, y] points"),
    ({"corners": "[[10, 10], [600, 10], [600, 400], [10, 400]]", "squares": "big"}, "COLSxROWS"),
    ({"corners": "[[10, 10], [600, 10], [600, 400], [10, 400]]", "squares": "12x12"}, "5 to 8 squares each way, not 12x12"),
    ({"corners": "[[10, 10], [600, 10], [100, 100], [10, 400]]"}, "do not outline a board"),
    ({"corners": "[[10, 10], [6000, 10], [6000, 400], [10, 400]]"}, "outside"),
    ({"corners": "[[1" + "0" * 330 + ", 1], [2, 2], [3, 3], [4, 4]]"}, "four [x, y] points"),  # no float that big
    ({"corners": "[" * 150 + "]" * 150}, "four [x, y] points"),
    ({"corners": '{"12": 0, "34": 0, "56": 0, "78": 0}'}, "four [x, y] points"),
    ({"corners": "[[10, 10], [600, 10], [600, 400], [10, 400]]", "squares": "4x4"}, "5 to 8 squares each way, not 4x4"),
])
def test_marks_that_cannot_outline_a_board_are_400(client, scene_jpeg, form, message):
    assert message in error_of(upload(client, scene_jpeg, **form), 400)


def test_the_preview_to_mark_on_is_the_photo_upright_with_its_scale(client):
    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned 90 degrees clockwise, as a phone held upright writes it
    buffer = io.BytesIO()
    Image.new("RGB", (2000, 1000), (90, 120, 150)).save(buffer, format="JPEG", exif=exif)
    response = client.post("/api/preview", data={"photo": (io.BytesIO(buffer.getvalue()), "IMG.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200, response.data
    body = response.get_json()
    assert body["preview_size"] == [640, 1280] and body["scale"] == pytest.approx(2000 / 1280)
    jpeg = base64.b64decode(body["preview"].split(",", 1)[1])
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (1280, 640)
    bad = client.post("/api/preview", data={"photo": (io.BytesIO(b"not a photo at all"), "x.jpg")},
                      content_type="multipart/form-data")
    assert "not an image" in error_of(bad, 400)


def test_a_photo_too_dark_is_read_and_says_so(client):
    from scorer.reader import DARK

    board = random_game(random.Random(3), 2)
    image, _, _ = draw_scene(board, origin=(1, 1), size=(8, 8))
    dim = (image.astype(np.float32) * 0.15).astype(np.uint8)  # the light squares at about 30 of 255
    ok, data = cv2.imencode(".jpg", dim, [cv2.IMWRITE_JPEG_QUALITY, 95])
    response = upload(client, data.tobytes(), players="2", threehouse="false")
    assert response.status_code == 200, response.data
    reading = response.get_json()["reading"]
    assert reading["warnings"][0] == DARK and reading["warning_kinds"][0] == "photo"


def test_photos_read_at_once_on_several_threads_get_their_own_readings(scene_jpeg):
    # The server (waitress) answers on several threads; a read must not see another's data.
    from concurrent.futures import ThreadPoolExecutor

    other_board = random_game(random.Random(11), 3)
    image, _, _ = draw_scene(other_board, origin=(1, 1), size=(8, 8), elevation_deg=50.0)
    other_jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    app = create_app({"TESTING": True})
    photos = [scene_jpeg, other_jpeg]

    def read(data):
        body = upload(app.test_client(), data).get_json()
        return body["board"], [(c["cell"], c["value"], c["confidence"]) for c in body["reading"]["cells"]]

    alone = [read(data) for data in photos]
    assert alone[0][0] != alone[1][0]
    with ThreadPoolExecutor(4) as pool:
        at_once = list(pool.map(read, photos * 2))
    assert at_once == alone * 2


def test_an_error_about_the_photo_itself_names_its_field_others_do_not(client, scene_jpeg):
    def field_of(response, status):
        error_of(response, status)
        return response.get_json().get("field")

    assert field_of(upload(client, b"%PDF-1.4 this is not a photo\n" * 20, "board.pdf"), 400) == "photo"
    assert field_of(upload(client, scene_jpeg[: len(scene_jpeg) // 2]), 400) == "photo"  # cut short
    assert field_of(upload(client, b""), 400) == "photo"
    assert field_of(upload(client, b"\xff" * 26_000_000), 413) == "photo"  # past the request's limit
    # a readable photo with no board, or an option the page sent wrong, is no fault of the file
    rng = np.random.default_rng(0)
    ok, blank = cv2.imencode(".jpg", cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (31, 31), 0))
    assert field_of(upload(client, blank.tobytes()), 422) is None
    assert field_of(upload(client, scene_jpeg, players="9"), 400) is None
    assert field_of(upload(client, scene_jpeg, corners="[[0, 0], [1, 0], [1, 1]]"), 400) is None
