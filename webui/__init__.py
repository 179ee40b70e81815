"""The web app: a phone photo of a Subdivision board in, the score breakdown and legality out.

Flask tutorial layout: ``create_app`` builds the app from two blueprints, ``pages`` (the one
HTML page) and ``api`` (the JSON API the page uses, documented in the README). The web layer
calls the ``scorer`` library; the library never imports this package.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask

from scorer.vision.load import MAX_BYTES as MAX_PHOTO_BYTES, MAX_PIXELS as MAX_PHOTO_PIXELS
from webui.errors import register_error_handlers


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app; ``config`` overrides the defaults (e.g. ``{"TESTING": True}``)."""
    app = Flask(__name__)
    app.config.from_mapping(
        MAX_PHOTO_BYTES=MAX_PHOTO_BYTES,
        MAX_PHOTO_PIXELS=MAX_PHOTO_PIXELS,
        # The whole request: the photo plus a little room for the multipart envelope and options.
        MAX_CONTENT_LENGTH=MAX_PHOTO_BYTES + 64_000,
        # A form's text fields (the options) are small. The photo itself is read into memory;
        # werkzeug spools a large upload to an anonymous temporary file while parsing and
        # deletes it when the request ends: nothing is kept after a request.
        MAX_FORM_MEMORY_SIZE=100_000,
    )
    if config:
        app.config.from_mapping(config)
    app.json.sort_keys = False
    # "/api//score" is no address of the API: a 404 in JSON, not werkzeug's HTML redirect page
    app.url_map.merge_slashes = False

    from webui import api, pages

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    register_error_handlers(app)
    return app
