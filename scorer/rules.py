"""The rules of Subdivision as pure functions: placement, stashes, turns, passes, game end.

Placement (the rules' *Placement* section): a player places one pyramid from their stash on
an empty square that is not a park, where

- a 3-pip may not be Near a 3-pip of its own colour, and
- a 1-pip must be Near a 1-pip or a 3-pip of another colour.

A player with no legal move passes; the game ends when the board is full or every player
passes in turn. A stash holds 5 trios (5 pyramids of each size) or, for ThreeHouse, 3.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Iterable, Mapping, Sequence

from scorer.board import (COLOUR_NAMES, COLOURS, PARK, PIPS, STANDARD_TRIOS, THREEHOUSE_TRIOS, Board, Piece, Square,
                          infer_stash, setup_for, setup_of_area, setups_for_size)

DEFAULT_COLOURS = ("red", "blue", "green", "yellow")
MIN_PLAYERS = 2  # a game needs two; a board showing one colour still has another player
MAX_PLAYERS = 4  # the rules' setups go up to four: a fifth colour is one too many

Stash = dict[int, int]  # pips -> pyramids of that size still in hand


def full_stash(trios: int = STANDARD_TRIOS) -> Stash:
    """A fresh stash: ``trios`` pyramids of each size."""
    return {pips: trios for pips in PIPS}


def placed_counts(board: Board, colour: str) -> Stash:
    """How many pyramids of each size ``colour`` has on the board."""
    counts = {pips: 0 for pips in PIPS}
    for _, piece in board.pieces():
        if piece.colour == colour:
            counts[piece.pips] += 1
    return counts


def remaining_stash(board: Board, colour: str, trios: int = STANDARD_TRIOS) -> Stash:
    """What ``colour`` still holds: a full stash less its pieces on the board (never below 0)."""
    placed = placed_counts(board, colour)
    return {pips: max(0, trios - placed[pips]) for pips in PIPS}


def _stash_count(stash: Mapping, pips: int) -> int:
    """Look up a stash keyed by int pips or by their string (as in JSON)."""
    if pips in stash:
        return int(stash[pips])
    return int(stash.get(str(pips), 0))


# --- placement ---------------------------------------------------------------------------

RULE_OCCUPIED = "occupied"
RULE_PARK = "park"
RULE_OFF_BOARD = "off_board"
RULE_THREE_NEAR_THREE = "three_near_three"
RULE_ONE_UNSUPPORTED = "one_unsupported"
RULE_NOT_IN_STASH = "not_in_stash"


def placement_problem(
    board: Board, piece: Piece, square: Square | str, stash: Mapping | None = None
) -> tuple[str, str] | None:
    """``(rule, message)`` saying why placing ``piece`` on ``square`` is illegal, or None.

    ``stash`` is what the piece's owner still holds (pips -> count); None means a standard
    5-trio stash less the owner's pieces already on the board.
    """
    if isinstance(square, str):
        square = Square.parse(square)
    if not board.contains(square):
        return RULE_OFF_BOARD, f"{square.name} is off this {board.cols}x{board.rows} board"
    here = board[square]
    if here is PARK:
        return RULE_PARK, f"{square.name} is a park"
    if here is not None:
        return RULE_OCCUPIED, f"{square.name} already holds {here.symbol}"
    if stash is None:
        stash = remaining_stash(board, piece.colour)
    if _stash_count(stash, piece.pips) <= 0:
        return RULE_NOT_IN_STASH, f"{piece.colour} has no {piece.pips}-pip left"
    if piece.pips == 3:
        for other in board.near(square):
            near = board[other]
            if isinstance(near, Piece) and near.pips == 3 and near.colour == piece.colour:
                return (
                    RULE_THREE_NEAR_THREE,
                    f"a {piece.colour} 3-pip on {square.name} would be Near the {piece.colour} 3-pip on {other.name}",
                )
    elif piece.pips == 1 and not _has_support(board, square, piece.colour):
        return (
            RULE_ONE_UNSUPPORTED,
            f"a {piece.colour} 1-pip on {square.name} needs a 1-pip or 3-pip of another colour Near it",
        )
    return None


def _has_support(board: Board, square: Square, colour: str) -> bool:
    """Whether a 1-pip or 3-pip of a colour other than ``colour`` is Near ``square``."""
    for other in board.near(square):
        near = board[other]
        if isinstance(near, Piece) and near.pips != 2 and near.colour != colour:
            return True
    return False


def move_violation(board: Board, piece: Piece, square: Square | str, stash: Mapping | None = None) -> str | None:
    """A one-line reason why placing ``piece`` on ``square`` is illegal, or None if it is legal.

    ``stash``: what the owner still holds (pips -> count); None means a standard stash less
    the owner's pieces on the board.
    """
    problem = placement_problem(board, piece, square, stash)
    return None if problem is None else problem[1]


def legal_moves(board: Board, colour: str, pips: int, stash: Mapping | None = None) -> list[Square]:
    """Every square where ``colour`` may place a ``pips`` pyramid now (row 1 first, left to right)."""
    piece = Piece(colour, pips)
    if stash is None:
        stash = remaining_stash(board, colour)
    if _stash_count(stash, pips) <= 0:
        return []
    return [sq for sq in board.empty_squares() if placement_problem(board, piece, sq, stash) is None]


def all_legal_moves(board: Board, colour: str, stash: Mapping | None = None) -> dict[int, list[Square]]:
    """``{pips: squares}`` for each size, for ``colour``."""
    if stash is None:
        stash = remaining_stash(board, colour)
    return {pips: legal_moves(board, colour, pips, stash) for pips in PIPS}


def has_legal_move(board: Board, colour: str, stash: Mapping | None = None) -> bool:
    """Whether ``colour`` can place anything; a player who cannot must pass."""
    return any(all_legal_moves(board, colour, stash).values())


# --- default parks and random play -------------------------------------------------------

def default_parks(players: int, threehouse: bool = False) -> list[Square]:
    """Park squares for a setup, laid out symmetrically.

    Standard stash: the corners plus C3 and D4 for two players (Abstract Play's default), the
    four corners for three or four. ThreeHouse (the rules leave the pattern to the players):
    5x5 for two, corners + C1, C3, C5 (7 parks, mirror-symmetric both ways); 6x6 for three,
    corners + the centre 2x2 + C6 (9 parks; 9 cannot be placed with full symmetry on 6x6);
    6x6 for four, none.
    """
    setup = setup_for(players, threehouse)
    n = setup.size
    corners = [Square(0, 0), Square(n - 1, 0), Square(0, n - 1), Square(n - 1, n - 1)]
    if not threehouse:
        extra = ["C3", "D4"] if players == 2 else []
    elif players == 2:
        extra = ["C1", "C3", "C5"]
    elif players == 3:
        extra = ["C3", "C4", "D3", "D4", "C6"]
    else:
        corners, extra = [], []
    parks = sorted(set(corners) | {Square.parse(name) for name in extra})
    assert len(parks) == setup.parks, (players, threehouse, parks)
    return parks


def parse_seats(names: Sequence[str]) -> list[str]:
    """The order of play from colour names or letters, first player first (``["red", "b"]``
    -> ``["red", "blue"]``); ValueError (one line) for an unknown colour, a colour named
    twice, or other than 2 to 4 players."""
    seats: list[str] = []
    for token in names:
        token = str(token).strip().lower()
        name = COLOUR_NAMES.get(token, token)
        if name not in COLOURS:
            raise ValueError(f"unknown colour {token!r}; known: {', '.join(COLOURS)}")
        if name in seats:
            raise ValueError(f"{name} is named twice")
        seats.append(name)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ValueError("name 2, 3 or 4 players")
    return seats


def _player_colours(players: int | Sequence[str]) -> list[str]:
    if isinstance(players, int):
        if not 1 <= players <= len(COLOURS):
            raise ValueError(f"players must be 1..{len(COLOURS)}, not {players}")
        colours = list(DEFAULT_COLOURS) + [c for c in COLOURS if c not in DEFAULT_COLOURS]
        return colours[:players]
    colours = list(players)
    unknown = [c for c in colours if c not in COLOURS]
    if unknown or len(set(colours)) != len(colours) or not colours:
        raise ValueError(f"players must be distinct colour names from {', '.join(COLOURS)}: {colours}")
    return colours


@dataclass
class GameRecord:
    """A game played out: the final board and each turn as (colour, piece or None, square or None)."""

    board: Board
    colours: list[str]
    trios: int
    turns: list[tuple[str, Piece | None, Square | None]] = field(default_factory=list)
    finished: bool = False

    @property
    def placements(self) -> list[tuple[Piece, Square]]:
        return [(piece, sq) for _, piece, sq in self.turns if piece is not None]


def play_random_game(
    rng: random.Random,
    players: int | Sequence[str],
    threehouse: bool = False,
    parks: Iterable[Square | str] | None = None,
    moves: int | None = None,
    board: Board | None = None,
) -> GameRecord:
    """Random legal play; see ``random_game``. Returns the board and the turns taken.

    ``board``: a starting position (any size, parks and pieces already on it) instead of the
    setup table's empty board; needed for other than 2-4 players.
    """
    colours = _player_colours(players)
    trios = THREEHOUSE_TRIOS if threehouse else STANDARD_TRIOS
    if board is None:
        setup = setup_for(len(colours), threehouse)  # ValueError unless 2-4 players
        board = Board(setup.size, setup.size)
        if parks is None:
            parks = default_parks(len(colours), threehouse)
    else:
        board = board.copy()
    for park in parks or ():
        board[park] = PARK
    stashes = {c: remaining_stash(board, c, trios) for c in colours}
    record = GameRecord(board, colours, trios)
    passes_in_a_row = 0
    placed = 0
    turn = 0
    while (moves is None or placed < moves) and passes_in_a_row < len(colours):
        colour = colours[turn % len(colours)]
        turn += 1
        options = {p: sq for p, sq in all_legal_moves(board, colour, stashes[colour]).items() if sq}
        if not options:
            record.turns.append((colour, None, None))
            passes_in_a_row += 1
            continue
        passes_in_a_row = 0
        pips = rng.choice(sorted(options))
        square = rng.choice(options[pips])
        piece = Piece(colour, pips)
        board[square] = piece
        stashes[colour][pips] -= 1
        record.turns.append((colour, piece, square))
        placed += 1
    record.finished = passes_in_a_row >= len(colours) or not any(
        has_legal_move(board, c, stashes[c]) for c in colours
    )
    return record


def random_game(
    rng: random.Random,
    players: int | Sequence[str],
    threehouse: bool = False,
    parks: Iterable[Square | str] | None = None,
    moves: int | None = None,
) -> Board:
    """A position reached by random legal play.

    ``players``: a count (colours red, blue, green, yellow in seat order) or a list of colour
    names. ``parks``: park squares (default ``default_parks``). ``moves``: placements to make
    (None: play to the end). Each turn the player picks a size uniformly among the sizes it
    can legally place, then a square uniformly; a player with no legal move passes.
    """
    return play_random_game(rng, players, threehouse, parks, moves).board


# --- checking a position whose order of play is unknown ----------------------------------

RULE_ONE_UNROOTED = "one_unrooted"
RULE_TOO_MANY_PIECES = "too_many_pieces"
RULE_TOO_MANY_COLOURS = "too_many_colours"
RULE_TURN_ORDER = "turn_order"

MAX_PLAYERS_FOR_TURN_ANALYSIS = 8  # sets of players ahead are enumerated: 2**8
MAX_PLAYERS_FOR_TURN_FIX = 4  # ``turn_order_fix`` tries up to 3 counts a player: 3**4 per turn count


@dataclass(frozen=True)
class Violation:
    """A rule that no legal order of play could break. ``cell`` is None for whole-board rules;
    ``cells`` lists every square involved."""

    cell: str | None
    rule: str
    message: str
    cells: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"cell": self.cell, "rule": self.rule, "message": self.message, "cells": list(self.cells)}


@dataclass
class CheckReport:
    """What ``check_position`` found. See ``to_dict`` for the JSON shape."""

    violations: list[Violation]
    players: int
    players_source: str  # "given", "seats", "board size", "board size and parks" or "colours on board"
    colours: list[str]
    unseen_players: int  # players with no piece on the board yet (their colour is unknown)
    trios: int
    stash: dict[str, Stash]
    legal_moves: dict[str, dict[int, list[Square]]]
    must_pass: list[str]
    to_move: str | None
    to_move_candidates: list[str]
    # where to_move is None: the one candidate if no player passed more than the counts need
    # (passes are forced and rare; the players know whether there was one), else None
    to_move_likeliest: str | None
    unseen_player_may_move: bool
    game_over: bool
    notes: list[str]
    seats: list[str] | None = None  # the order of play, when given
    stash_inferred: bool = False  # standard or ThreeHouse was inferred from the board, not given
    stash_unsure: bool = False  # inferred on a close call (the notes say which and how close)
    usual_parks: list[Square] | None = None  # before the first move, short of parks: ``default_parks``
    problems: list[Violation] = field(default_factory=list)  # the violations told once each: ``merged_violations``
    unseen_legal_moves: dict[int, list[Square]] | None = None  # a player with no piece yet: ``unseen_player_moves``

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def threehouse(self) -> bool:
        return self.trios == THREEHOUSE_TRIOS

    def to_dict(self) -> dict:
        return {
            "violations": [v.to_dict() for v in self.violations],
            "problems": [v.to_dict() for v in self.problems],
            "to_move": self.to_move,
            "to_move_candidates": self.to_move_candidates,
            "to_move_likeliest": self.to_move_likeliest,
            "unseen_player_may_move": self.unseen_player_may_move,
            "stash": {c: {str(p): n for p, n in s.items()} for c, s in self.stash.items()},
            "legal_moves": {
                c: {str(p): [sq.name for sq in sqs] for p, sqs in moves.items()}
                for c, moves in self.legal_moves.items()
            },
            "must_pass": self.must_pass,
            "game_over": self.game_over,
            "players": self.players,
            "players_source": self.players_source,
            "unseen_players": self.unseen_players,
            "trios": self.trios,
            "threehouse": self.threehouse,
            "stash_inferred": self.stash_inferred,
            "stash_unsure": self.stash_unsure,
            "notes": self.notes,
            "seats": self.seats,
            "usual_parks": None if self.usual_parks is None else [sq.name for sq in self.usual_parks],
            "unseen_legal_moves": None if self.unseen_legal_moves is None else {
                str(p): [sq.name for sq in sqs] for p, sqs in self.unseen_legal_moves.items()},
        }


def placeable_one_pips(board: Board) -> set[Square]:
    """The 1-pips some order of play could have placed, found as a fixpoint.

    3-pips can always go first (pieces never move), so a set of 1-pips is producible exactly
    when its members can be ordered so that each, when placed, is Near an other-colour 3-pip
    or an other-colour 1-pip placed before it. Start from the 1-pips Near an other-colour
    3-pip and repeatedly add 1-pips Near an other-colour 1-pip already in the set.
    """
    ones = {sq: p.colour for sq, p in board.pieces() if p.pips == 1}
    placeable: set[Square] = set()
    frontier = []
    for sq, colour in ones.items():
        for other in board.near(sq):
            near = board[other]
            if isinstance(near, Piece) and near.pips == 3 and near.colour != colour:
                placeable.add(sq)
                frontier.append(sq)
                break
    while frontier:
        sq = frontier.pop()
        for other in board.near(sq):
            if other in ones and other not in placeable and ones[other] != ones[sq]:
                placeable.add(other)
                frontier.append(other)
    return placeable


def placement_violations(board: Board, trios: int = STANDARD_TRIOS) -> list[Violation]:
    """Cells no legal order of play could have produced, and over-full stashes."""
    violations = []
    for sq, piece in board.pieces():
        if piece.pips != 3:
            continue
        twins = [o for o in board.near(sq) if board[o] == piece]
        if twins:
            names = listed([o.name for o in twins])
            violations.append(Violation(
                sq.name, RULE_THREE_NEAR_THREE,
                f"the {piece.colour} 3-pip on {sq.name} is Near the {piece.colour} 3-pip{'s' * (len(twins) > 1)} on {names}",
                (sq.name, *(o.name for o in twins)),
            ))
    placeable = placeable_one_pips(board)
    for sq, piece in board.pieces():
        if piece.pips != 1 or sq in placeable:
            continue
        if not _has_support(board, sq, piece.colour):
            violations.append(Violation(
                sq.name, RULE_ONE_UNSUPPORTED,
                f"the {piece.colour} 1-pip on {sq.name} has no 1-pip or 3-pip of another colour Near it",
                (sq.name,),
            ))
        else:
            cluster = _unrooted_cluster(board, sq)
            names = ", ".join(c.name for c in cluster if c != sq)
            violations.append(Violation(
                sq.name, RULE_ONE_UNROOTED,
                f"the {piece.colour} 1-pip on {sq.name} leans only on 1-pips ({names}) that no other-colour "
                "3-pip anchors: whichever of them was placed first had no support",
                tuple(c.name for c in cluster),
            ))
    for colour, pips, count in counts_over_stash(board, trios):
        cells = tuple(sq.name for sq, p in board.pieces() if p == Piece(colour, pips))
        violations.append(Violation(
            None, RULE_TOO_MANY_PIECES,
            f"{colour} has {count} {pips}-pips on the board; a stash holds {trios}",
            cells,
        ))
    return violations


# The rules about a square's own piece; the others are the whole board's (their ``cells`` can
# be every piece of a colour).
SQUARE_RULES = (RULE_THREE_NEAR_THREE, RULE_ONE_UNSUPPORTED, RULE_ONE_UNROOTED)


def merged_violations(board: Board, violations: Sequence[Violation]) -> list[Violation]:
    """The violations as problems to tell a player, each once: those of one rule where every
    square of a set has its own violation naming that same set (two 3-pips of a colour Near
    each other, the 1-pips of a cluster no 3-pip anchors) become one, with no single ``cell``
    and a message naming every square, in the board's order. Any other set (a chain or a T of
    3-pips) stays a problem a square: one of them may be a misreading, the others not."""
    keys = [(v.rule, frozenset(v.cells)) if v.cell and v.rule in SQUARE_RULES else None for v in violations]
    members: dict[tuple[str, frozenset[str]], set[str]] = {}
    for v, key in zip(violations, keys):
        if key:
            members.setdefault(key, set()).add(v.cell)
    merged: list[Violation] = []
    told: set[tuple[str, frozenset[str]]] = set()
    for v, key in zip(violations, keys):
        whole = key is not None and len(key[1]) > 1 and members[key] == key[1]
        if not whole:
            merged.append(v)
        elif key not in told:
            told.add(key)
            cells = [sq.name for sq in board.squares() if sq.name in key[1]]
            merged.append(Violation(None, v.rule, _merged_message(board, v.rule, cells), tuple(cells)))
    return merged


def _merged_message(board: Board, rule: str, cells: list[str]) -> str:
    if rule == RULE_THREE_NEAR_THREE:
        return f"the {board[Square.parse(cells[0])].colour} 3-pips on {listed(cells)} are Near each other"
    return (f"the 1-pips on {listed(cells)} lean only on each other, and no 3-pip of another colour anchors them: "
            "whichever was placed first had no support")


def _furthest_apart(counts: dict[str, int], steady: set[str], unseen: int) -> str:
    """``"red has placed 2 more pieces than green and blue"``: the players furthest ahead, and behind
    them the fewest placed of those who surely never passed (``steady``; a player with no piece
    yet holds a full stash), where two or more placements apart; "" otherwise."""
    none = f"the player{'' if unseen == 1 else 's'} with none"
    placed = {**counts, **({none: 0} if unseen else {})}
    never_passed = {c: n for c, n in placed.items() if c in steady or c == none}
    most, least = max(placed.values(), default=0), min(never_passed.values(), default=0)
    if not never_passed or most - least < 2:
        return ""
    ahead = [c for c, n in placed.items() if n == most]
    behind = [c for c, n in never_passed.items() if n == least]
    return (f"{listed(ahead)} {'has' if len(ahead) == 1 else 'have'} placed {most - least} more pieces than "
            f"{listed(behind)}")


def listed(names: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``: names in a sentence."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def counts_over_stash(board: Board, trios: int) -> list[tuple[str, int, int]]:
    """Each (colour, pips, count) of which the board holds more than a stash of ``trios``
    trios has."""
    over = []
    for colour in board.colours():
        counts = placed_counts(board, colour)
        over += [(colour, pips, counts[pips]) for pips in PIPS if counts[pips] > trios]
    return over


def _unrooted_cluster(board: Board, start: Square) -> list[Square]:
    """The 1-pips linked to ``start`` through other-colour Near steps (all unplaceable)."""
    seen = {start}
    frontier = [start]
    while frontier:
        sq = frontier.pop()
        colour = board[sq].colour
        for other in board.near(sq):
            near = board[other]
            if isinstance(near, Piece) and near.pips == 1 and near.colour != colour and other not in seen:
                seen.add(other)
                frontier.append(other)
    return sorted(seen)


def never_passed(board: Board, colour: str, stash: Stash) -> bool:
    """Whether ``colour`` surely never passed before the latest placement (see ``turn_analysis``).

    A player passes only with no legal move. Every turn before the latest placement had at
    least one empty non-park square (the one that placement filled), and squares only fill up.
    So a player who still holds a 2-pip could always move; so could one who still holds a
    3-pip and has no 3-pip on the board, or one who holds a 3-pip while an empty non-park
    square is not Near any of its 3-pips (that square was empty, and not Near any of its
    3-pips, at every earlier turn too). Nothing is concluded from 1-pips: their support may
    have arrived later.
    """
    if stash[2] > 0:
        return True
    if stash[3] > 0:
        own_threes = [sq for sq, p in board.pieces() if p == Piece(colour, 3)]
        if not own_threes:
            return True
        for sq in board.empty_squares():
            if not any(board[o] == Piece(colour, 3) for o in board.near(sq)):
                return True
    return False


@dataclass(frozen=True)
class TurnAnalysis:
    feasible: bool
    candidates: frozenset[str]  # who may place next (players with no legal move skipped)
    analysed: bool  # False when there were too many players to enumerate
    # the candidates of the histories with the fewest passes before the latest placement (a
    # pass is forced, by no legal move, and rare: the players know whether there was one)
    likeliest: frozenset[str] = frozenset()


class _FewestPasses:
    """The candidates of the histories with the fewest passes seen so far."""

    def __init__(self) -> None:
        self.passes: int | None = None
        self.movers: set[str] = set()

    def add(self, passes: int, movers) -> None:
        if self.passes is None or passes < self.passes:
            self.passes, self.movers = passes, set(movers)
        elif passes == self.passes:
            self.movers |= set(movers)


def turn_analysis(
    counts: Mapping[str, int], steady: set[str], can_move: set[str], seats: Sequence[str] | None = None
) -> TurnAnalysis:
    """Whether per-player placement counts can come from play in turn order, and who is next.

    The model: players sit in an unknown order and take turns; a turn is a placement or,
    only for a player with no legal move, a pass. Consider the turns up to and including the
    latest placement: being round robin, the first seats (a set ``ahead``, never everyone)
    have had ``k + 1`` turns and the rest ``k``, and the latest turn, a placement, was taken
    by the last seat of ``ahead`` (or by the last seat of all when ``ahead`` is empty), so
    that player has a piece down. A player's placements never exceed its turns, and equal
    them for a ``steady`` player (one that surely never passed, see ``never_passed``).
    That is the whole model: whether the passes it allows the other players were truly
    forced is a question of the board's history that counts cannot settle, so it is never
    used to call a position impossible (no reachable position is flagged; some unreachable
    ones pass).

    Next to place: the board has not changed since the latest placement, so any player who
    passed since then has no legal move now. Seats after the latest placer come in the
    order: players not ``ahead``, then the other ``ahead`` players, then the latest placer,
    each batch in any order; the next to place is a player with a legal move now
    (``can_move``) from the first batch that has one. With every count 0, anyone may start.
    Candidates are collected over every ``k``, ``ahead`` set and latest placer allowed.

    ``seats``: the order of play when known (first player first, every player in
    ``counts``); then ``ahead`` can only be a run of first seats, and the answer is sharper.
    ``likeliest``: the candidates of the histories with the fewest passes (turns less
    placements) up to the latest placement.
    """
    if seats is not None:
        return _turn_analysis_in_seats(counts, steady, can_move, list(seats))
    players = sorted(counts)
    if not any(counts.values()):
        return TurnAnalysis(True, frozenset(p for p in players if p in can_move), True)
    if len(players) > MAX_PLAYERS_FOR_TURN_ANALYSIS:
        return TurnAnalysis(True, frozenset(p for p in players if p in can_move), False)
    everyone = frozenset(players)
    ks = {k for n in counts.values() for k in (n - 1, n) if k >= 0}
    feasible = False
    candidates: set[str] = set()
    fewest = _FewestPasses()
    for size in range(len(players)):
        for ahead in map(frozenset, combinations(players, size)):
            for k in ks:
                if any(
                    counts[p] > turns or (p in steady and counts[p] != turns)
                    for p in players
                    for turns in ((k + 1) if p in ahead else k,)
                ):
                    continue
                passes = len(players) * k + len(ahead) - sum(counts.values())
                for latest in ahead or everyone:
                    if counts[latest] == 0:
                        continue
                    feasible = True
                    for batch in (everyone - ahead - {latest}, ahead - {latest}, {latest}):
                        movers = batch & can_move
                        if movers:
                            candidates |= movers
                            fewest.add(passes, movers)
                            break
    return TurnAnalysis(feasible, frozenset(candidates), True, frozenset(fewest.movers))


def counts_fit_turn_order(board: Board, trios: int = STANDARD_TRIOS) -> bool:
    """Whether the piece counts of the colours on ``board`` (taken as all the players) can
    come from play in turn order (``turn_analysis``): the reader's test of a reading."""
    _, counts, steady = _placements(board, board.colours(), trios)
    return turn_analysis(counts, steady, set()).feasible


def turn_order_fix(board: Board, trios: int = STANDARD_TRIOS) -> dict[str, int]:
    """The smallest change to the piece counts of the colours on ``board`` that lets them come
    from play in turn order: per colour, the pieces to add (positive) or take away (negative),
    fewest pieces changed first, then fewest taken away (a reader misses a faint piece far
    more often than it sees one that is not there); ``{}`` when the counts already fit. Each
    count stays within a stash (0 to 3 * ``trios``); whether a player surely never passed
    (``never_passed``) is judged on the board as it is. Over MAX_PLAYERS_FOR_TURN_FIX colours
    (no game of Subdivision) it is not looked for: ``{}``."""
    _, counts, steady = _placements(board, board.colours(), trios)
    players = sorted(counts)
    if len(players) > MAX_PLAYERS_FOR_TURN_FIX or turn_analysis(counts, steady, set()).feasible:
        return {}
    most = len(PIPS) * trios
    best: tuple[tuple[int, int], dict[str, int]] | None = None
    for k in range(most + 1):
        # Each player ends with k or k + 1 placements, or, one who may have passed, keeps
        # a count under that: no other targets can change fewer pieces.
        options = [sorted({t for t in (k, k + 1) if t <= most}
                          | ({counts[p]} if p not in steady and counts[p] <= k + 1 else set())) for p in players]
        for targets in product(*options):
            change = {p: t - counts[p] for p, t in zip(players, targets) if t != counts[p]}
            key = (sum(abs(d) for d in change.values()), sum(-d for d in change.values() if d < 0))
            if best is not None and key >= best[0]:
                continue
            if turn_analysis(dict(zip(players, targets)), steady, set()).feasible:
                best = (key, change)
    return best[1] if best else {}


def _placements(board: Board, colours, trios: int) -> tuple[dict[str, Stash], dict[str, int], set[str]]:
    """Per colour: the stash left, the pieces placed, and whether it surely never passed."""
    stash = {c: remaining_stash(board, c, trios) for c in colours}
    counts = {c: sum(placed_counts(board, c).values()) for c in colours}
    steady = {c for c in colours if never_passed(board, c, stash[c])}
    return stash, counts, steady


def _turn_analysis_in_seats(
    counts: Mapping[str, int], steady: set[str], can_move: set[str], seats: list[str]
) -> TurnAnalysis:
    """``turn_analysis`` when the seat order is known (see there for the model)."""
    if not any(counts.values()):
        first = next((p for p in seats if p in can_move), None)
        return TurnAnalysis(True, frozenset([first] if first else []), True)
    ks = {k for n in counts.values() for k in (n - 1, n) if k >= 0}
    feasible = False
    candidates: set[str] = set()
    fewest = _FewestPasses()
    for r in range(len(seats)):
        latest = seats[r - 1] if r else seats[-1]
        if counts[latest] == 0:
            continue
        for k in sorted(ks):  # the fewest turns, so the fewest passes, first
            turns = {p: k + 1 if i < r else k for i, p in enumerate(seats)}
            if any(counts[p] > turns[p] or (p in steady and counts[p] != turns[p]) for p in seats):
                continue
            feasible = True
            following = seats[r:] + seats[:r]
            mover = next(([p] for p in following if p in can_move), [])
            candidates.update(mover)
            fewest.add(sum(turns.values()) - sum(counts.values()), mover)
            break
    return TurnAnalysis(feasible, frozenset(candidates), True, frozenset(fewest.movers))


def _infer_players(board: Board, players: int | None, threehouse: bool) -> tuple[int, str]:
    seen = len(board.colours())
    if players is not None:
        return players, "given"
    fitting = setups_for_size(board.rows, board.cols, threehouse)
    setup = setup_of_area(board.rows, board.cols, threehouse, None, len(board.parks()))
    if setup is not None and setup.players >= seen:
        return setup.players, "board size" if len(fitting) == 1 else "board size and parks"
    sizes = {s.players for s in fitting}
    return min(MAX_PLAYERS, max(seen, min(sizes) if sizes else MIN_PLAYERS)), "colours on board"


def check_position(
    board: Board, *, players: int | None = None, threehouse: bool | None = False,
    seats: Sequence[str] | None = None,
) -> CheckReport:
    """Check a board whose order of play is unknown (a photo): violations, stashes, turn.

    ``players``: the number of players (None: from the board size when the setup table
    says, else the colours on the board). ``threehouse``: 3-trio stashes instead of 5; None
    infers it from the board's size and parks (``infer_stash``; a close call settled by the
    colours on the board when they rule out the setups of fewer players), noting a close call.
    ``seats``: the players' colours in order of play, first player first, when known (it
    sets the players, names those with no piece yet, and sharpens whose turn it is).
    """
    notes: list[str] = []
    stash_inferred, stash_unsure = threehouse is None, False
    if stash_inferred:
        size, given = board.rows if board.rows == board.cols else 0, len(seats) if seats is not None else players
        guess = infer_stash(size, len(board.parks()), given)
        colours = len(board.colours())
        if guess.close and guess.contenders and colours == max(guess.contenders):
            # More colours than a setup has players rule it out; fewer say nothing (early on,
            # not every player has placed a piece).
            guess = infer_stash(size, len(board.parks()), given, colours_seen=colours)
        threehouse = guess.threehouse
        # The pieces themselves rule ThreeHouse out, whatever the parks say, where a standard
        # setup fits the board (and the players given): else the count is a violation.
        standard = [s for s in setups_for_size(board.rows, board.cols, False) if given is None or s.players == given]
        over = counts_over_stash(board, THREEHOUSE_TRIOS) if threehouse and standard else []
        if over:
            threehouse = False
            colour, pips, count = over[0]
            notes.append(f"{colour} has {count} {pips}-pips on the board, more than a ThreeHouse stash holds "
                         f"({THREEHOUSE_TRIOS}): checked as a standard game, not ThreeHouse")
        else:
            doubt = guess.doubt()
            notes += [doubt] if doubt else []
            stash_unsure = bool(doubt)
    trios = THREEHOUSE_TRIOS if threehouse else STANDARD_TRIOS
    violations = placement_violations(board, trios)
    if seats is not None:
        seats = _player_colours(seats)
        strangers = [c for c in board.colours() if c not in seats]
        colours = seats + strangers
        n_players, source = len(seats), "seats"
        if strangers:
            violations.append(Violation(
                None, RULE_TOO_MANY_COLOURS,
                f"{', '.join(strangers)} on the board but not among the players ({', '.join(seats)})",
                tuple(sq.name for sq, p in board.pieces() if p.colour in strangers),
            ))
    else:
        colours = board.colours()
        n_players, source = _infer_players(board, players, threehouse)
        sized = sorted({s.players for s in setups_for_size(board.rows, board.cols, threehouse)})
        if source == "colours on board" and sized and n_players not in sized:
            notes.append(f"the setup table's {board.rows}x{board.cols} board is for {' or '.join(map(str, sized))} "
                         f"players, but {len(colours)} colours are on this one: checked as a {n_players}-player game")
        if len(colours) > n_players:
            violations.append(Violation(
                None, RULE_TOO_MANY_COLOURS,
                f"{len(colours)} colours on the board ({', '.join(colours)}) for {n_players} players",
                tuple(sq.name for sq, _ in board.pieces()),
            ))
    stash, counts, steady = _placements(board, colours, trios)
    moves = {c: all_legal_moves(board, c, stash[c]) for c in colours}
    can_move = {c for c in colours if any(moves[c].values())}

    def analyse(unseen: int) -> TurnAnalysis:
        if seats is not None:
            return turn_analysis({c: counts[c] for c in seats}, steady, can_move, seats)
        # players with no piece yet hold a full stash: steady, and movers while a square is free
        names = {f"?{i + 1}" for i in range(unseen)}
        movers = can_move | (names if board.empty_squares() else set())
        return turn_analysis({**counts, **dict.fromkeys(names, 0)}, steady | names, movers)

    unseen = max(0, n_players - len(colours))
    analysis = analyse(unseen)
    # (never down to one player: a board showing one colour still has another player)
    if not analysis.feasible and unseen and source != "given" and len(colours) >= MIN_PLAYERS and analyse(0).feasible:
        notes.append(
            f"the {'setup table' if source == 'colours on board' else source} "
            f"{'suggest' if ' and ' in source else 'suggests'} {n_players} players, but the piece counts fit only the "
            f"{len(colours)} colours on the board"
        )
        n_players, source, unseen, analysis = len(colours), "colours on board", 0, analyse(0)
    if not analysis.feasible:
        shown = ", ".join(f"{c} {n}" for c, n in counts.items())
        if unseen:
            shown += f", {unseen} player{'' if unseen == 1 else 's'} with none"
        given = f" in the order of play given ({', '.join(seats)})" if seats is not None else ""
        apart = _furthest_apart({c: counts[c] for c in (seats if seats is not None else counts)}, steady, unseen)
        rule = "nobody gets more than one piece ahead of a player who never had to pass"
        violations.append(Violation(
            None, RULE_TURN_ORDER,
            f"{apart}, but players take turns{given}: {rule} (pieces placed: {shown})" if apart else
            f"the pieces placed ({shown}) cannot come from players taking turns{given}: {rule}"
            + (", nor ahead of one who plays before them" if seats is not None else ""),
            (),
        ))
    if not analysis.analysed:
        notes.append(f"more than {MAX_PLAYERS_FOR_TURN_ANALYSIS} players: turn order not analysed")
    candidates = [c for c in colours if c in analysis.candidates]
    unseen_may_move = any(c.startswith("?") for c in analysis.candidates)
    to_move = candidates[0] if len(candidates) == 1 and not unseen_may_move and analysis.feasible else None
    likeliest = [c for c in candidates if c in analysis.likeliest]
    to_move_likeliest = (likeliest[0] if to_move is None and analysis.feasible and len(likeliest) == 1
                         and len(analysis.likeliest) == 1 else None)
    if unseen:
        notes.append(f"{unseen} player{' has' if unseen == 1 else 's have'} no piece on the board yet")
    setup = [s for s in setups_for_size(board.rows, board.cols, threehouse) if s.players == n_players]
    usual_parks = None
    if setup and len(board.parks()) != setup[0].parks:
        table = f"the setup table has {setup[0].parks} parks for {n_players} players on {board.rows}x{board.cols}"
        if next(board.pieces(), None) is None and len(board.parks()) < setup[0].parks:  # a reminder before the first move
            notes.append(f"{table}: place them before the first move (this board has {len(board.parks())})")
            usual = default_parks(n_players, threehouse)
            if set(board.parks()) <= set(usual):  # not on top of parks the players laid out their own way
                usual_parks = usual
        else:
            notes.append(f"{table}; this board has {len(board.parks())}")
    return CheckReport(
        violations=violations,
        problems=merged_violations(board, violations),
        players=n_players,
        players_source=source,
        colours=colours,
        unseen_players=unseen,
        trios=trios,
        stash=stash,
        legal_moves=moves,
        must_pass=[c for c in colours if c not in can_move],
        to_move=to_move,
        to_move_candidates=candidates,
        to_move_likeliest=to_move_likeliest,
        unseen_player_may_move=unseen_may_move,
        usual_parks=usual_parks,
        game_over=not can_move and not (unseen and board.empty_squares()),
        notes=notes,
        seats=seats,
        stash_inferred=stash_inferred,
        stash_unsure=stash_unsure,
        unseen_legal_moves=unseen_player_moves(board, colours, trios) if unseen else None,
    )


def unseen_player_moves(board: Board, colours: Sequence[str], trios: int) -> dict[int, list[Square]] | None:
    """Legal squares per size for a player with no piece on the board yet (a full stash of
    ``trios``). Their colour is unknown, but every piece on the board is of another colour
    (``colours``), so any colour not among them gives the same squares; None where every
    colour is among them."""
    stranger = next((c for c in COLOURS if c not in colours), None)
    return None if stranger is None else all_legal_moves(board, stranger, full_stash(trios))
