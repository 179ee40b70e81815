"""Errors the web layer answers: JSON under ``/api``, a short HTML page elsewhere.

Every error a user can cause gets a one-line message and a 4xx status; anything unexpected is
logged on the server and answered with a generic 500 message, never a traceback.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from scorer.errors import one_line

MESSAGES = {
    400: "The request could not be understood.",
    404: "There is nothing at this address.",
    405: "This address does not accept that method.",
    413: "The upload is too large: photos up to 25 MB and 80 megapixels are accepted.",
    500: "Something went wrong on the server; what you entered is kept, please try again.",
}


class ApiError(Exception):
    """A user-caused error with an HTTP status and a one-line message; ``field``: the request's
    field at fault, where it is one the user chose (``photo``: the file itself was refused)."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field


def wants_json() -> bool:
    """Whether the request was for the API ("/api", "/api/...", slashes doubled or not)."""
    path = "/" + "/".join(part for part in request.path.split("/") if part)
    return path == "/api" or path.startswith("/api/")


def error_response(status: int, message: str, field: str | None = None):
    """A JSON ``{"error": ..., "status": ...}`` (and ``"field"`` when given) under /api, a small
    HTML page elsewhere."""
    message = one_line(message)
    if wants_json():
        response = jsonify(error=message, status=status, **({"field": field} if field else {}))
    else:
        response = render_template("error.html", status=status, message=message)
    return response, status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def handle_api_error(err: ApiError):
        return error_response(err.status, err.message, err.field)

    @app.errorhandler(HTTPException)
    def handle_http_error(err: HTTPException):
        status = err.code or 500
        message = MESSAGES.get(status) or err.description or err.name
        length, limit = request.content_length, app.config.get("MAX_CONTENT_LENGTH")
        if status == 413 and length is not None and limit is not None and length <= limit:
            # The whole request was within bounds: one form field was over MAX_FORM_MEMORY_SIZE.
            message = (f"a form field is too long (at most {app.config['MAX_FORM_MEMORY_SIZE'] // 1000} kB) or there "
                       "are too many fields; the photo goes in the field 'photo' as a file, with a file name")
        elif status == 413 and length is not None and limit and length > limit and request.mimetype != "multipart/form-data":
            message = f"the request is too large (at most {limit // 1_000_000} MB)"  # no photo in it: a board or options
        elif status == 413:  # an upload past the limit: the photo in it
            return error_response(status, message, "photo")
        return error_response(status, message)

    @app.errorhandler(Exception)
    def handle_unexpected(err: Exception):
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, MESSAGES[500])
