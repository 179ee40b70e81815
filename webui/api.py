"""The JSON API behind the page (documented in the README's "The web app" section).

- ``POST /api/read``: a photo (multipart field ``photo``) and options in; the reading out.
  ``corners`` (JSON, four [x, y] in photo px) and ``squares`` ("8x8") read the board marked
  by hand instead of the one the board finder finds; ``colours`` ("white,purple") names the
  pieces among the players' colours.
- ``POST /api/preview``: a photo in; the photo as the reader sees it (for marking corners).
- ``POST /api/score``: ``{"board": notation, "private_parks": bool, "loose_parks": bool}`` in;
  the itemized score out.
- ``POST /api/check``: ``{"board": notation, "players": 2-4 or "auto", "threehouse": bool or
  "auto", "seats": [colour, ...] (optional: the order of play, first player first)}`` in;
  violations, whose turn, stashes and legal moves out.

Errors are ``{"error": one line, "status": code}`` with a 4xx status (see ``webui.errors``).
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any, Mapping

from flask import Blueprint, current_app, jsonify, request

from scorer import rules, scoring
from scorer.board import Board, NotationError, Square
from scorer.errors import UserError
from webui.errors import ApiError

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_BOARD_TEXT = 10_000
OVERLAY_MAX_SIDE = 1600
OVERLAY_MARGIN = 0.12  # of the checkerboard's size, kept around it when the overlay is cropped
PREVIEW_MAX_SIDE = 1280  # px of the photo shown for marking corners
READ_OPTIONS = {"players", "threehouse", "corners", "squares", "colours"}  # /api/read's form fields besides the photo
MAX_CORNERS_TEXT = 400  # characters of the corners option: four [x, y] need far fewer
MAX_COLOURS_TEXT = 100  # characters of the colours option: four names need far fewer
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"", "0", "false", "no", "off"}


# --- options ------------------------------------------------------------------------------
def flag(options: Mapping[str, Any], name: str, extra: str = "") -> bool:
    """A boolean option from JSON (true/false) or a form field ("on", "1", "true", ...);
    ``extra``: the other values it takes, for the error's words (', or "auto"')."""
    value = options.get(name, False)
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ApiError(400, f"option {name!r} must be true or false{extra}, not {shown(value)}")


def shown(value: Any) -> str:
    """A value sent, as JSON spells it (``true``, not Python's ``True``), cut to 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except RecursionError:  # (nested as deep as the parser takes: more than the dump's own calls leave)
        return "a value nested too deeply"
    return text if len(text) <= 40 else text[:39] + "…"


def _auto(value: Any) -> bool:
    """Whether an option's value leaves it to the scorer: missing, empty or ``"auto"``."""
    return value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto"))


def players_option(options: Mapping[str, Any]) -> int | None:
    """``players``: 2, 3 or 4, or ``"auto"``/empty/missing for None (worked out from the board)."""
    value = options.get("players")
    if _auto(value):
        return None
    # 2, 3.0 and "4" are fine; True, 2.7 and "2.5" are not (int() would quietly truncate them)
    if isinstance(value, bool) or not (value in (2, 3, 4) or str(value).strip() in ("2", "3", "4")):
        raise ApiError(400, f"option 'players' must be 2, 3, 4 or \"auto\", not {shown(value)}")
    return int(value)


def stash_option(options: Mapping[str, Any]) -> bool | None:
    """``threehouse``: true or false, or ``"auto"``/empty/missing for None (inferred from the play
    area's size and its parks, see ``scorer.board.infer_stash``)."""
    if _auto(options.get("threehouse")):
        return None
    return flag(options, "threehouse", ', or "auto"')


def seats_option(options: Mapping[str, Any], players: int | None) -> list[str] | None:
    """``seats``: the order of play as a list of 2 to 4 colour names or letters, first player
    first (``scorer.rules.parse_seats``); missing, null or empty for None. With ``players``
    given, it must name that many."""
    value = options.get("seats")
    if value is None or value == []:
        return None
    if not isinstance(value, list):
        raise ApiError(400, f"option 'seats' must be a list of colour names, not {shown(value)}")
    odd = next((name for name in value if not isinstance(name, str)), None)
    if odd is not None or None in value:
        raise ApiError(400, f"option 'seats' must be a list of colour names, and {shown(odd)} is not one")
    return _players_colours(value, "seats", players)


def colours_option(options: Mapping[str, Any], players: int | None) -> list[str] | None:
    """``colours``: the players' colours, a form field of 2 to 4 colour names or letters
    separated by commas (``"white,purple"``), for the photo reader to name the pieces among
    them; missing or empty for None. With ``players`` given, it must name that many."""
    value = options.get("colours")
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > MAX_COLOURS_TEXT:
        raise ApiError(400, "option 'colours' must be 2 to 4 colour names or letters separated by commas")
    return _players_colours(value.split(","), "colours", players)


def _players_colours(names: list, option: str, players: int | None) -> list[str]:
    """``names`` as colour names (``scorer.rules.parse_seats``), as many as ``players`` when given."""
    try:
        colours = rules.parse_seats(names)
    except ValueError as err:
        raise ApiError(400, f"option {option!r}: {err}") from None
    if players is not None and players != len(colours):
        raise ApiError(400, f"option 'players' is {players} but {option!r} names {len(colours)}: {', '.join(colours)}")
    return colours


def corners_option(options: Mapping[str, Any]) -> list[list[float]] | None:
    """``corners``: the checkerboard's four outer corners marked by hand, JSON ``[[x, y], ...]``
    in the photo's own px (EXIF-rotated); missing or empty: the board finder's."""
    value = options.get("corners")
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    points = []
    if isinstance(value, str) and len(value) <= MAX_CORNERS_TEXT:
        try:
            marks = json.loads(value)
            if isinstance(marks, list) and all(isinstance(mark, list) and len(mark) == 2
                                               and not any(isinstance(v, bool) for v in mark) for mark in marks):
                points = [[float(x), float(y)] for x, y in marks]
        except (ValueError, TypeError, OverflowError, RecursionError):
            points = []
    if len(points) != 4 or not all(math.isfinite(v) for point in points for v in point):
        raise ApiError(400, "option 'corners' must be four [x, y] points in photo pixels, as JSON")
    return points


def squares_option(options: Mapping[str, Any], marked: bool) -> tuple[int, int]:
    """``squares``: the size, "COLSxROWS" (default "8x8"), of a board ``marked`` by its corners;
    given without corners it would say nothing, so it is refused."""
    from scorer.vision.grid import parse_squares

    text = options.get("squares")
    if text and not marked:
        raise ApiError(400, "option 'squares' is the size of a board marked with 'corners': send the corners too")
    try:
        return parse_squares(text or "8x8")
    except ValueError as err:
        raise ApiError(400, f"option 'squares': {err}") from None


JSON_KINDS = {bool: "true or false", int: "a number", float: "a number", list: "a list", dict: "an object",
              str: "a string", type(None): "null"}  # by exact type
MAX_JSON_DIGITS = 100  # digits of a JSON number: every number the API takes needs far fewer


def _json_integer(digits: str) -> int:
    length = len(digits.lstrip("-"))
    if length > MAX_JSON_DIGITS:
        raise ValueError(f"a number in it has {length} digits")
    return int(digits)


def _unrepeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice (which of the two counts?) is an error."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key[:40]!r} is given twice")
        seen[key] = value
    return seen


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what is wrong with the body."""
    example = 'send a JSON object such as {"board": "<board notation>"}'
    if not request.is_json:
        raise ApiError(400, example + " with Content-Type: application/json")
    try:
        body = json.loads(request.get_data(cache=True), parse_int=_json_integer, object_pairs_hook=_unrepeated_keys)
    except RecursionError:
        raise ApiError(400, f"the JSON is nested too deeply: {example}") from None
    except json.JSONDecodeError as err:
        raise ApiError(400, f"the body is not JSON ({err.msg}: line {err.lineno}, column {err.colno}): "
                            f"{example}") from None
    except UnicodeDecodeError:
        raise ApiError(400, f"the body is not text (send it in UTF-8): {example}") from None
    except ValueError as err:
        raise ApiError(400, f"the JSON could not be read ({err}): {example}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the JSON is {JSON_KINDS[type(body)]}, not an object: {example}")
    return body


SCORE_FIELDS = {"board", "private_parks", "loose_parks"}
CHECK_FIELDS = {"board", "players", "threehouse", "seats"}


def known_fields(known: set[str], body: Mapping[str, Any] | None = None) -> None:
    """A 400 naming a field the request does not take (a misspelt option would otherwise be
    dropped without a word, ``privateParks`` scoring without the parks), in the JSON ``body``,
    the form or its files, any in the query string, or a form field or file sent more than once."""
    if request.args:
        raise ApiError(400, f"the field {next(iter(request.args))[:40]!r} was sent in the address's query string: "
                            "send it in the request's body")
    sent = [*(body or {}), *request.form, *request.files]
    unknown = sorted(set(sent) - known)
    if unknown:
        takes = ", ".join(sorted(known))
        raise ApiError(400, f"unknown field {unknown[0][:40]!r}: this request takes {takes}")
    times = {name: len(request.form.getlist(name)) + len(request.files.getlist(name)) for name in known}
    repeated = sorted(name for name, n in times.items() if n > 1)
    if repeated:
        raise ApiError(400, f"the field {repeated[0]!r} was sent {times[repeated[0]]} times: send it once")


def board_from(body: Mapping[str, Any]) -> Board:
    """The board in the request's ``board`` field; bad notation is a 400 naming where."""
    text = body.get("board")
    if text is not None and not isinstance(text, str):
        kind = JSON_KINDS.get(type(text), type(text).__name__)
        raise ApiError(400, f"the 'board' field must be the board's text notation (a string), not {kind}")
    if not text or not text.strip():
        raise ApiError(400, "the 'board' field is missing: send the board in text notation")
    if len(text) > MAX_BOARD_TEXT:
        raise ApiError(400, f"the board text is too long ({len(text):,} characters; at most {MAX_BOARD_TEXT:,})")
    try:
        return Board.from_text(text)
    except NotationError as err:
        raise ApiError(400, f"board text: {err}") from None


def board_fields(board: Board) -> dict[str, Any]:
    return {"board": board.to_text(), "rows": board.rows, "cols": board.cols}


# --- routes -------------------------------------------------------------------------------
@bp.before_request
def uncompressed_body():
    """A 415 for a body sent compressed (``Content-Encoding: gzip``), which would otherwise be
    read as it came and refused as damaged or not JSON."""
    if request.method not in ("POST", "PUT", "PATCH"):  # (no body: OPTIONS answered as ever)
        return
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if any(coding.strip() not in ("", "identity") for coding in encoding.split(",")):
        raise ApiError(415, f"the body is sent with Content-Encoding: {encoding[:40]}: send it uncompressed")


@bp.after_request
def options_as_json(response):
    """Flask's own answer to OPTIONS (an empty page, the methods in its Allow header) as JSON,
    like every other answer here: ``{"allow": ["OPTIONS", "POST"]}``."""
    if request.method != "OPTIONS" or response.is_json or response.status_code != 200:
        return response
    allow = response.headers.get("Allow", "")
    answer = jsonify(allow=sorted(method.strip() for method in allow.split(",") if method.strip()))
    answer.headers["Allow"] = allow
    return answer


@bp.post("/score")
def score():
    """The itemized score of a board."""
    body = json_body()
    known_fields(SCORE_FIELDS, body)
    board = board_from(body)
    private_parks = flag(body, "private_parks")
    loose_parks = flag(body, "loose_parks")
    report = scoring.score_board(board, private_parks=private_parks or loose_parks, loose_parks=loose_parks)
    return jsonify({**board_fields(board), **report.to_dict()})


@bp.post("/check")
def check():
    """Violations, whose turn, stashes and legal moves of a board."""
    body = json_body()
    known_fields(CHECK_FIELDS, body)
    board = board_from(body)
    try:
        players = players_option(body)
        report = rules.check_position(board, players=players, threehouse=stash_option(body),
                                      seats=seats_option(body, players))
    except (UserError, ValueError) as err:
        raise ApiError(422, str(err)) from None
    return jsonify({**board_fields(board), **report.to_dict()})


@bp.post("/read")
def read():
    """Read a photo: the board, each square's value and confidence, and an overlay image."""
    data = photo_upload()
    misplaced = sorted(READ_OPTIONS & set(request.files))
    if misplaced:
        raise ApiError(400, f"option {misplaced[0]!r} was sent as a file; send it as a plain form field")
    known_fields(READ_OPTIONS | {"photo"})
    players = players_option(request.form)
    threehouse = stash_option(request.form)
    corners = corners_option(request.form)
    cols, rows = squares_option(request.form, marked=corners is not None)
    colours = colours_option(request.form, players)
    read_photo = photo_reader()
    try:
        reading = read_photo(data, players=players, threehouse=threehouse, corners=corners, rows=rows, cols=cols,
                             colours=colours)
    except UserError as err:
        raise photo_error(err) from None

    from scorer.vision.decode import UNSURE  # importable once the reader is

    overlay, transform = overlay_image(reading)
    return jsonify({
        "reading": reading.to_dict(),
        "board": reading.board.to_text() if reading.board is not None else None,
        "uncertain": list(reading.uncertain),
        "unsure_below": UNSURE,
        **overlay,
        "squares": square_outlines(reading, transform) if overlay["overlay"] else {},
    })


@bp.post("/preview")
def preview():
    """The photo as the reader sees it (EXIF-rotated, at most PREVIEW_MAX_SIDE px, JPEG data
    URL) and its scale (photo px per preview px), for marking the board's corners by hand."""
    data = photo_upload()
    known_fields({"photo"})
    photo_reader()  # the same 503 as /api/read where the reader is missing
    from scorer.vision.load import load_photo_scaled

    try:
        image, scale = load_photo_scaled(data, long_side=PREVIEW_MAX_SIDE)
    except UserError as err:
        raise photo_error(err) from None
    url = jpeg_data_url(image)
    if url is None:
        raise ApiError(422, "the photo could not be shown")
    height, width = image.shape[:2]
    return jsonify({
        "preview": url,
        "preview_size": [width, height],
        "scale": scale,  # photo px per preview px
    })


def photo_upload() -> bytes:
    """The photo in the multipart field ``photo``: 400 when missing, empty or sent twice, 413
    when over the limits."""
    uploads = request.files.getlist("photo")
    if len(uploads) > 1:
        raise ApiError(400, f"{len(uploads)} files were sent in the field 'photo': send one photo a request")
    upload = uploads[0] if uploads else None
    if upload is None:
        if "photo" in request.form:
            raise ApiError(400, "the photo was sent as a text field: send the image as a file in the multipart field 'photo'")
        if request.content_length and request.mimetype not in ("multipart/form-data", "application/x-www-form-urlencoded"):
            raise ApiError(400, f"send the image as multipart/form-data, in the field 'photo' (got {request.mimetype or 'no content type'})")
        boundary = request.mimetype_params.get("boundary", "")
        empty_form = bool(boundary) and (request.content_length or 0) <= len(boundary) + 8  # "\r\n--B--\r\n": no part
        if request.content_length and not request.files and not request.form and not empty_form:
            raise ApiError(400, "the upload could not be read as multipart form data (cut short, or a file name not "
                                "in UTF-8?): send the image in the multipart field 'photo'")
        raise ApiError(400, "no photo: send the image in the multipart field 'photo'")
    data = upload.read()
    if not data:
        raise ApiError(400, "the photo is empty (0 bytes)", field="photo")
    check_photo_size(data)
    return data


def warm_up_photo_reader() -> str | None:
    """Import the photo reader and run its networks once (``scorer.reader.warm_up``), so that
    the first photo read after the server starts takes no longer than the rest (about a second
    less). None when it is ready; else, in one line, why photos cannot be read here
    (``serve`` keeps it as the app's ``PHOTO_READER_UNREADY``: ``/api/read`` then answers 503)."""
    try:
        from scorer.reader import warm_up
    except ImportError as err:
        return f"the photo reader could not be imported ({err})"
    try:
        warm_up()
    except Exception as err:  # a damaged model file, an OpenCV without the DNN module
        return " ".join(f"the photo reader's networks would not run ({type(err).__name__}: {err})".split())
    return None


READER_UNAVAILABLE = "photo reading not available on this server; enter the board by hand"  # /api/read's 503


def photo_reader():
    """``scorer.reader.read_photo``, or a 503 when this installation has no photo reader or
    the server found at its start that the reader would not run (``PHOTO_READER_UNREADY``: a
    damaged model file fails every photo alike; it is tried again first)."""
    if current_app.config.get("PHOTO_READER_UNREADY"):  # tried again: what failed may have passed
        unready = warm_up_photo_reader()
        current_app.config["PHOTO_READER_UNREADY"] = unready
        if unready:
            current_app.logger.warning("POST /api/read: %s", unready)
            raise ApiError(503, READER_UNAVAILABLE)
    try:
        from scorer.reader import read_photo
    except ImportError as err:
        if err.name == "scorer.reader":
            current_app.logger.warning("POST /api/read: scorer.reader is not installed")
        else:
            current_app.logger.exception("the photo reader could not be imported")
        raise ApiError(503, READER_UNAVAILABLE) from None
    return read_photo


# --- photo helpers --------------------------------------------------------------------------
BOMB_PIXELS = 2**62  # header_pixels' answer for a header PIL itself calls a decompression bomb


def check_photo_size(data: bytes) -> None:
    """413 for a photo over the byte or pixel limit (the pixel count read from its header)."""
    max_bytes = current_app.config["MAX_PHOTO_BYTES"]
    if len(data) > max_bytes:
        raise ApiError(413, f"the photo is {len(data) / 1e6:.1f} MB; photos up to {max_bytes / 1e6:.0f} MB are accepted",
                       field="photo")
    pixels = header_pixels(data)
    max_pixels = current_app.config["MAX_PHOTO_PIXELS"]
    if pixels is not None and pixels > max_pixels:
        size = "far too many pixels" if pixels == BOMB_PIXELS else f"{pixels / 1e6:.0f} megapixels"
        raise ApiError(413, f"the photo has {size}; up to {max_pixels / 1e6:.0f} megapixels are accepted", field="photo")


def header_pixels(data: bytes) -> int | None:
    """Width x height from the image header alone (nothing decoded); None if unknown."""
    import io
    import warnings

    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()  # HEIC headers too (idempotent)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
    except Image.DecompressionBombError:
        return BOMB_PIXELS
    except Exception:  # not an image PIL knows: the reader's loader gives the message
        return None
    return width * height


def photo_error(err: UserError) -> ApiError:
    """The reader's error as the API's: 400 for a file that is not a readable photo, 413 for one
    too large (limits the header check above did not see), both with ``field`` "photo" (the
    file itself refused), as a 422 for a board the photo's edge cuts off to a strip (the photo
    to take again); 400 for corners that cannot be a board; 422 otherwise (a readable photo in
    which no board was found)."""
    from scorer.vision.grid import BoardCutOff, InvalidCorners
    from scorer.vision.load import PhotoError, PhotoTooLarge

    if isinstance(err, PhotoTooLarge):
        return ApiError(413, str(err), field="photo")
    if isinstance(err, PhotoError):
        return ApiError(400, str(err), field="photo")
    if isinstance(err, BoardCutOff):  # the photo to take again: no corners to mark in it
        return ApiError(422, str(err), field="photo")
    return ApiError(400 if isinstance(err, InvalidCorners) else 422, str(err))


def overlay_image(reading) -> tuple[dict[str, Any], tuple[float, float, float]]:
    """The reader's overlay (grid and each square's reading on the photo), cropped to the
    checkerboard with a margin and at most OVERLAY_MAX_SIDE pixels across.

    Returns ``{"overlay": JPEG data URL or None, "overlay_size": [w, h]}`` and the transform
    from photo px to overlay px as ``(x0, y0, scale)``: overlay = (photo - (x0, y0)) * scale.
    """
    import numpy as np

    from scorer.vision.load import downscale

    nothing = {"overlay": None, "overlay_size": None}, (0.0, 0.0, 1.0)
    try:
        drawn = reading.overlay(mark_unsure=False)  # the page marks them, and unmarks them once checked
    except ValueError:  # the reading kept no image
        return nothing
    x0 = y0 = 0
    grid = getattr(reading, "grid", None)
    if grid is not None:
        height, width = drawn.shape[:2]
        corners = np.asarray(grid.corners, float)
        (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
        margin = OVERLAY_MARGIN * max(right - left, bottom - top)
        x0, y0 = int(max(0, left - margin)), int(max(0, top - margin))
        x1, y1 = int(min(width, right + margin)), int(min(height, bottom + margin))
        if x1 - x0 > 16 and y1 - y0 > 16:
            drawn = drawn[y0:y1, x0:x1]
        else:
            x0 = y0 = 0
    drawn, scale = downscale(drawn, OVERLAY_MAX_SIDE)
    url = jpeg_data_url(drawn)
    if url is None:
        return nothing
    return {"overlay": url, "overlay_size": [drawn.shape[1], drawn.shape[0]]}, (float(x0), float(y0), scale)


def jpeg_data_url(image) -> str | None:
    """A BGR image as a JPEG data URL (quality 85), for the page; None if it cannot be encoded."""
    import cv2

    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode("ascii") if ok else None


def square_outlines(reading, transform: tuple[float, float, float]) -> dict[str, list[list[float]]]:
    """Each play-area square's outline on the overlay (4 corners, px), named as on the board,
    so the page can mark corrections on the photo and take taps on it."""
    grid = getattr(reading, "grid", None)
    area = getattr(reading, "play_area", None)
    if grid is None or area is None:
        return {}
    x0, y0, scale = transform
    outlines = {}
    for row in range(area.rows):
        for col in range(area.cols):
            try:
                quad = grid.square_quad(area.col + col, area.row + row)
            except IndexError:  # a play area reaching past the checkerboard's edge
                continue
            outlines[Square(col, row).name] = [
                [round((float(x) - x0) * scale, 1), round((float(y) - y0) * scale, 1)] for x, y in quad
            ]
    return outlines
