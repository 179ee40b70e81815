"""``subdivision score`` and ``subdivision check``: score or check boards from text or photos.

A FILE is board text (see ``scorer.board``), a photo (JPEG, PNG, WebP, HEIC, TIFF, BMP; recognised by its
first bytes and read with ``scorer.reader.read_photo``), or ``-`` for standard input.
"""

from __future__ import annotations

import argparse
import codecs
import json
import shlex
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from scorer.board import Board, NotationError, content_from_symbol, stash_name
from scorer.commands import (READING_HINTS, SEATS_HINT, STASH_OPTIONS_HINT, add_colours_option, add_stash_options,
                             check_players_fit, colour_list, with_hints)
from scorer.errors import UserError, print_error
from scorer.files import (MAX_PHOTO_BYTES, PHOTO_FORMATS, PHOTO_SUFFIXES, json_name, read_at_most, read_stdin, shown_name,
                          stdin_given_once, too_large)
from scorer.rules import SQUARE_RULES, CheckReport, check_position, full_stash
from scorer.scoring import MAX_THREE_PIP_DEDUCTION, ScoreReport, score_board

MAX_TEXT_BYTES = 1_000_000
MAX_INPUT_BYTES = MAX_PHOTO_BYTES  # a FILE is read no further than a photo may go, board text or photo


def add_parser(subparsers) -> None:
    score = subparsers.add_parser(
        "score",
        help="score boards, itemized (the winner once the game is over)",
        description="Score boards (board text or photos): pips, groups, 3-pip deductions, parks, winners.",
    )
    _add_common(score, photos_only=True)
    add_colours_option(score, "the score does not depend on them: they guide the reading of a photo")
    score.add_argument("--private-parks", action="store_true", help="the Private Parks variant: +3 per park held")
    score.add_argument(
        "--loose-parks",
        action="store_true",
        help="with --private-parks: Abstract Play's reading (the player's pieces in any groups hold the park)",
    )
    score.set_defaults(func=run_score)

    check = subparsers.add_parser(
        "check",
        help="check positions: rule violations, whose turn, stashes, legal moves",
        description="Check boards whose order of play is unknown: cells no legal play could produce, "
        "whose turn it is, what each player still holds and where it may go.",
    )
    _add_common(check)
    check.add_argument(
        "--seats",
        type=colour_list,
        metavar="COLOURS",
        help="the order of play, first player first, as colour names or letters: red,blue or r,b "
        "(sets the players and sharpens whose turn it is; a photo's pieces are named among them)",
    )
    # score's and read's name for the colours: check takes them as the order of play, said so
    check.add_argument("--colours", dest="colours_not_seats", type=colour_list, help=argparse.SUPPRESS)
    check.set_defaults(func=run_check)


def _add_common(parser, photos_only: bool = False) -> None:
    """FILE..., --json, --players and the stash options; ``photos_only``: the command's points
    do not depend on the players or stash (the score), which then guide the reader and say
    whether the game is over."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="board text or photo; - reads standard input")
    parser.add_argument("--json", action="store_true", help="one JSON object per file per line")
    note = ("the points do not depend on it: it guides the reading of a photo, and says whether the game is over"
            if photos_only else None)
    parser.add_argument("--players", type=int, choices=(2, 3, 4),
                        help="number of players (default: from the board)" + (f"; {note}" if note else ""))
    add_stash_options(parser, note)


# --- input ---------------------------------------------------------------------------------

@dataclass
class Loaded:
    board: Board
    from_photo: bool = False
    reading: dict | None = None


HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1",
               b"avif", b"avis"}  # an ISO-BMFF file's major brand for HEIC, HEIF and AVIF images


def is_image(data: bytes) -> bool:
    """JPEG, PNG, WebP, HEIC/HEIF/AVIF (ISO-BMFF ``ftyp``), and the TIFF and BMP the photo
    loader also reads, by magic bytes; and GIF, which it names as a format it does not take."""
    return (
        data.startswith(b"\xff\xd8\xff")
        or data[:6] in (b"GIF87a", b"GIF89a")
        or data.startswith(b"\x89PNG\r\n\x1a\n")
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or (data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS)
        or data[:4] in (b"II*\x00", b"MM\x00*")
        or (data[:2] == b"BM" and int.from_bytes(data[14:18], "little") in (12, 40, 52, 56, 108, 124))  # DIB header size
    )


def read_input(name: str, args) -> Loaded:
    """Load a FILE argument as a board; raises UserError with a one-line message."""
    shown = shown_name(name)
    if name == "-":
        data = read_stdin(MAX_INPUT_BYTES)
    elif not name:
        raise UserError("an empty file name: give a board text or photo file, or - for standard input")
    else:
        path = Path(name)
        try:
            if path.is_dir():
                raise UserError(f"{name}: is a directory")
            size = path.stat().st_size
            if size > MAX_INPUT_BYTES:
                raise UserError(too_large(name, MAX_INPUT_BYTES, size))
            data = read_at_most(path, MAX_INPUT_BYTES)
        except FileNotFoundError:
            raise UserError(f"{name}: no such file") from None
        except OSError as err:
            raise UserError(f"{name}: cannot read: {err.strerror or err}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UserError(too_large(shown, MAX_INPUT_BYTES))
    if is_image(data):
        return _read_photo(name, data, args)  # the bytes read: a pipe such as <(cat photo.jpg) cannot be read twice
    if not data:
        raise UserError(f"{shown}: file is empty")
    try:
        return Loaded(_board_from_bytes(shown, data))
    except UserError as err:
        # A photo's name on a file that is none: a board-text error would puzzle, unless the text
        # begins as a board does, when it says what to mend.
        if Path(name).suffix.lower() in PHOTO_SUFFIXES:
            reason = f"; as board text: {str(err).removeprefix(f'{shown}: ')}" if _begins_as_board(data) else ""
            raise UserError(f"{name}: not a photo ({PHOTO_FORMATS}), nor board text{reason}") from None
        raise


def _begins_as_board(data: bytes) -> bool:
    """Whether the bytes' first word is a board square's symbol ('.', '#', 'r3') or a comment."""
    words = data[:800].decode(_wide_encoding(data) or "utf-8-sig", errors="replace").split(maxsplit=1)
    if not words:
        return False
    if words[0].startswith(";"):  # a comment line
        return True
    try:
        content_from_symbol(words[0])
    except (NotationError, ValueError):
        return False
    return True


def _wide_encoding(data: bytes) -> str | None:
    """"utf-32" or "utf-16" where the bytes begin with that encoding's byte-order mark (Windows'
    Notepad and PowerShell save "Unicode" text as UTF-16), else None. UTF-32's little-endian mark
    begins as UTF-16's, so it is looked for first."""
    if data[:4] in (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE):
        return "utf-32"
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return "utf-16"
    return None


def _board_from_bytes(name: str, data: bytes) -> Board:
    """The board a file's bytes write as text; a one-line UserError saying why they do not."""
    wide = _wide_encoding(data)
    # (binary, a video or a PDF, is said to be so before any size for text)
    if b"\x00" in data[: MAX_TEXT_BYTES + 1] and not wide:
        raise UserError(f"{name}: neither board text nor a photo ({PHOTO_FORMATS})")
    if len(data) > MAX_TEXT_BYTES:
        raise UserError(too_large(name, MAX_TEXT_BYTES, len(data), "for board text"))
    try:
        text = data.decode(wide or "utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{name}: neither board text (not UTF-8{' or ' + wide.upper() if wide else ''}) nor a photo "
                        f"({PHOTO_FORMATS})") from None
    if text.lstrip().startswith("<"):  # no board row starts so: an SVG, HTML or XML file
        raise UserError(f"{name}: markup (SVG, HTML or XML?), neither board text nor a photo ({PHOTO_FORMATS})")
    try:
        return Board.from_text(text)
    except NotationError as err:
        raise UserError(f"{name}: {err}") from None


def _read_photo(name: str, source: bytes, args) -> Loaded:
    shown = shown_name(name)
    try:
        from scorer.reader import read_photo
    except ImportError as err:
        raise UserError(f"{shown}: is a photo, but the photo reader is not available ({err})") from None
    try:
        colours = getattr(args, "colours", None) or getattr(args, "seats", None)
        reading = read_photo(source, players=args.players, threehouse=args.threehouse, colours=colours)
    except UserError as err:  # given bytes, the loader calls the file "photo": name it instead
        from scorer.vision.grid import NoBoardFound

        # where the finder missed the board, the way on: read it marked by hand, then this on its text
        photo = "PHOTO" if name == "-" else shlex.quote(shown)
        marked = (f"; or mark its four outer corners: subdivision read {photo} --corners X,Y,X,Y,X,Y,X,Y "
                  f"| subdivision {args.command} -" if isinstance(err, NoBoardFound) else "")
        raise UserError(f"{shown}: {str(err).removeprefix('photo: ')}{marked}") from None
    except Exception as err:  # a reader fault still gets one line, not a traceback
        raise UserError(f"{shown}: the photo reader failed: {type(err).__name__}: {err}") from None
    reading.file = name
    if reading.board is None:  # the grid was found but a later stage failed: its warning says which
        failed = [w for w, kind in zip(reading.warnings, reading.warning_kinds) if kind == "failed"]
        raise UserError(f"{shown}: {failed[0] if failed else 'no board could be read from the photo'}")
    return Loaded(reading.board, from_photo=True, reading={**reading.to_dict(), "uncertain": list(reading.uncertain)})


# --- output --------------------------------------------------------------------------------

def _each_file(args, analyse, format_text, status_of, hints: dict[str, str]) -> int:
    """For each FILE: load it, ``analyse(loaded)``, print the report (JSON line or text; a
    photo's warnings of a kind in ``hints`` end with the option that answers them).

    Returns the worst status: ``status_of(report)`` per file, 2 for a file that cannot be
    read (reported on stderr in one line, and the other files still go through).
    """
    stdin_given_once(args.files, "board or photo")
    status = 0
    for name in args.files:
        try:
            loaded = read_input(name, args)
        except (UserError, NotationError) as err:
            print_error(err)
            status = 2
            continue
        report = analyse(loaded)
        print(_json_line(name, loaded, report.to_dict()) if args.json
              else _with_reading_warnings(format_text(name, report), loaded, hints))
        sys.stdout.flush()
        status = max(status, status_of(report))
    return status


def _with_reading_warnings(text: str, loaded: Loaded, hints: dict[str, str]) -> str:
    """A photo's report with the board read from it and what its reader was unsure of (the
    squares the warnings name are on that board)."""
    if not loaded.from_photo:
        return text
    board = [f"    {line}" for line in loaded.board.labelled().splitlines()]
    reading = loaded.reading or {}
    warnings = with_hints(reading.get("warnings", []), reading.get("warning_kinds", []), hints)
    return "\n".join([text, "  the board read from the photo:", *board, *(f"  warning: {w}" for w in warnings)])


def _json_line(name: str, loaded: Loaded, report: dict) -> str:
    out = {"file": json_name(name), **report, "board": loaded.board.to_text()}
    if loaded.from_photo:
        out["from_photo"] = True
        out["reading_warnings"] = (loaded.reading or {}).get("warnings", [])
        out["reading_warning_kinds"] = (loaded.reading or {}).get("warning_kinds", [])
        out["reading_uncertain"] = (loaded.reading or {}).get("uncertain", [])  # the squares to check
    return json.dumps(out)


@dataclass(frozen=True)
class ScoredPosition:
    """A board's score and its position (whether the game is over, what rules it breaks),
    which says whether the top score wins or only leads."""

    score: ScoreReport
    position: CheckReport

    def to_dict(self) -> dict:
        """The score's JSON, and ``final``: whether its ``winners`` have won (the game over, no
        rule broken) rather than only lead."""
        return {**self.score.to_dict(), "final": self.position.game_over and not self.position.violations}


def run_score(args) -> int:
    if args.loose_parks and not args.private_parks:
        raise UserError("--loose-parks only applies with --private-parks")
    check_players_fit(args.players, args.colours, "--colours")

    def analyse(loaded: Loaded) -> ScoredPosition:
        score = score_board(loaded.board, private_parks=args.private_parks, loose_parks=args.loose_parks)
        return ScoredPosition(score, _position(loaded, args))

    def format_text(name: str, scored: ScoredPosition) -> str:
        return format_score(name, scored.score, scored.position)

    return _each_file(args, analyse, format_text, lambda report: 0, READING_HINTS)


def run_check(args) -> int:
    if args.colours_not_seats:
        raise UserError("check takes the players' colours in their order of play, first player first: "
                        f"--seats {','.join(args.colours_not_seats)} (if that is the order)")
    check_players_fit(args.players, args.seats, "--seats")
    return _each_file(args, lambda loaded: _position(loaded, args, args.seats), format_check,
                      lambda report: 1 if report.violations else 0,
                      {"colour_check": SEATS_HINT, "stash": STASH_OPTIONS_HINT})


def _position(loaded: Loaded, args, seats=None) -> CheckReport:
    """``check_position`` of a loaded board with the command's player count and stash (a
    photo's stash as its reader inferred it, unless one was given)."""
    from_photo = args.threehouse is None and loaded.reading
    threehouse = loaded.reading.get("threehouse") if from_photo else args.threehouse
    report = check_position(loaded.board, players=args.players, threehouse=threehouse, seats=seats)
    if not from_photo:
        return report
    return replace(report, stash_inferred=bool(loaded.reading.get("stash_inferred")),
                   stash_unsure=bool(loaded.reading.get("stash_unsure")))


def _size_name(pips: int | str) -> str:
    return f"{pips}-pip"


def format_score(name: str, report: ScoreReport, position: CheckReport | None = None) -> str:
    """The readable breakdown: one block per player, then the winners; with the board's
    ``position``, the leaders instead where the game is not over or the board breaks a rule."""
    lines = [name]
    if not report.players:
        lines.append("  no pyramids on the board")
        return "\n".join(lines)
    width = max(len(c) for c in report.players)
    for colour, total, rank in report.ranking():
        s = report.players[colour]
        group_points = sum(g.points for g in s.groups)
        three_points = sum(d.points for d in s.deductions)
        summary = f"{s.pips} pip{'s' * (s.pips != 1)} - {-group_points} ({len(s.groups)} group{'s' * (len(s.groups) != 1)})"
        summary += f" - {-three_points} (1-pips Near 3-pips)"
        if report.private_parks:
            summary += f" + {s.park_bonus} (parks)"
        lines.append(f"  {rank}. {colour:<{width}} {total:>3} = {summary}")
        sizes = ", ".join(f"{n} from {_size_name(p)}s" for p, n in s.pips_by_size.items())
        lines.append(f"       pips by size: {sizes}")
        for group in s.groups:
            lines.append(f"       group {group.points}: {' '.join(sq.name for sq in group.cells)}")
        for d in s.deductions:
            ones = " ".join(sq.name for sq in d.one_pips)
            near = f"{len(d.one_pips)} 1-pip{'s' * (len(d.one_pips) != 1)} Near it ({ones}), the first free" if ones else "no 1-pip Near it"
            if d.capped:
                near += f", at most {MAX_THREE_PIP_DEDUCTION}"
            lines.append(f"       3-pip {d.cell.name} {d.points}: {near}")
        for park in s.parks:
            lines.append(f"       park {park.park.name} +{park.points}: {' '.join(sq.name for sq in park.cells)}")
    if report.private_parks:
        for park in report.park_results:
            if not park.owner:
                lines.append(f"  park {park.park.name}: nobody ({park.reason})")
    winners = report.winners
    top = report.players[winners[0]].total
    broken = position.violations if position else []
    if broken:  # a pair of squares breaking a rule together is two violations, one per square
        cells = list(dict.fromkeys(v.cell for v in broken if v.cell))
        where = f" at {', '.join(cells)}" if cells else ""
        why = f"; the board breaks the rules{where}, so nobody has won (check says how)"
    elif position and not position.game_over:
        why = "; the game is not over (a player may still place a piece)"
    else:
        why = ""
    if len(winners) == 1:
        lines.append(f"  {'leading' if why else 'winner'}: {winners[0]} ({top}){why}")
    else:
        lines.append(f"  {'tied' if why else 'tie'}: {', '.join(winners)} ({top} each){why}")
    return "\n".join(lines)


def _to_move_options(report: CheckReport) -> list[str]:
    """Who may move next, in words: the candidates, and a player with no piece yet."""
    return list(report.to_move_candidates) + (["a player with no piece yet"] if report.unseen_player_may_move else [])


def format_check(name: str, report: CheckReport) -> str:
    """The readable check: violations, whose turn, stashes, legal moves."""
    n = len(report.problems)
    lines = [f"{name}: {'OK, no violations' if not n else f'{n} violation' + 's' * (n != 1)}"]
    for v in report.problems:
        where = v.cell or (", ".join(v.cells) if v.rule in SQUARE_RULES else "board")
        lines.append(f"  {where} [{v.rule}]: {v.message}")
    for note in report.notes:
        lines.append(f"  note: {note}")
    lines.append(f"  stash: {stash_name(report.threehouse)}, {report.trios} trios a player{' (inferred)' if report.stash_inferred else ''}")
    if report.game_over:
        lines.append("  game over: no player can place anything")
    elif report.to_move:
        lines.append(f"  to move: {report.to_move}")
    elif report.to_move_likeliest:
        others = [c for c in _to_move_options(report) if c != report.to_move_likeliest]
        lines.append(f"  to move: {report.to_move_likeliest}, or {' or '.join(others)} after a pass the counts do not show")
    else:
        options = _to_move_options(report)
        lines.append(f"  to move: {options[0]}" if len(options) == 1
                     else f"  to move: {' or '.join(options) or 'unknown'} (the counts cannot tell)")
    if report.must_pass and not report.game_over:
        lines.append(f"  must pass: {', '.join(report.must_pass)}")
    held_by = [(colour, stash, report.legal_moves[colour]) for colour, stash in report.stash.items()]
    if report.unseen_legal_moves is not None:
        unseen = "a player" if report.unseen_players == 1 else f"each of {report.unseen_players} players"
        held_by.append((f"{unseen} with no piece yet", full_stash(report.trios), report.unseen_legal_moves))
    for player, stash, moves in held_by:
        held = ", ".join(f"{_size_name(p)} {k}" for p, k in stash.items())
        lines.append(f"  {player} holds {held}")
        for pips, squares in moves.items():
            if stash[pips]:
                where = " ".join(sq.name for sq in squares) or "nowhere"
                lines.append(f"    {_size_name(pips)} may go: {where}")
    return "\n".join(lines)
