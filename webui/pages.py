"""The one HTML page; everything on it is driven by static/app.js through the JSON API."""

from __future__ import annotations

from flask import Blueprint, render_template

from scorer.board import COLOUR_LETTERS, COLOURS, SETUPS

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    setups = [
        {"players": s.players, "threehouse": threehouse, "size": s.size, "parks": s.parks}
        for (threehouse, _), s in sorted(SETUPS.items())
    ]
    colours = [{"name": name, "letter": COLOUR_LETTERS[name]} for name in COLOURS]
    return render_template("index.html", setups=setups, colours=colours)
