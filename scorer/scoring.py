"""Scoring a Subdivision board, itemized so that every number can be traced to squares.

Per player (the rules' *Scoring* section):

1. the pips of all the player's pyramids;
2. -1 for each group (orthogonally connected pyramids of the player's colour);
3. -1 for each 1-pip, of any colour, after the first, Near each of the player's 3-pips, at
   most -3 per 3-pip (a 3-pip is never worth less than 0).

Private Parks variant: +3 for each park whose every non-park Near square is held by one
group of the player (the rules' reading), or, with ``loose_parks``, by the player's pieces in
any groups (Abstract Play's reading). A park with no non-park square Near it gives nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorer.board import COLOURS, PARK, PIPS, Board, Piece, Square

PARK_BONUS = 3
MAX_THREE_PIP_DEDUCTION = 3


@dataclass(frozen=True)
class Group:
    """Orthogonally connected pyramids of one colour: -1 each."""

    cells: tuple[Square, ...]
    points: int = -1

    def to_dict(self) -> dict:
        return {"cells": [sq.name for sq in self.cells], "points": self.points}


@dataclass(frozen=True)
class Deduction:
    """A 3-pip and the 1-pips (any colour) Near it: the first is free, -1 each after, at most -3."""

    cell: Square
    one_pips: tuple[Square, ...]

    @property
    def points(self) -> int:
        return -min(MAX_THREE_PIP_DEDUCTION, max(0, len(self.one_pips) - 1))

    @property
    def capped(self) -> bool:
        """Whether more 1-pips are Near it than the most it loses counts."""
        return len(self.one_pips) - 1 > MAX_THREE_PIP_DEDUCTION

    def to_dict(self) -> dict:
        return {"cell": self.cell.name, "one_pips": [sq.name for sq in self.one_pips], "points": self.points,
                "capped": self.capped}


@dataclass(frozen=True)
class ParkResult:
    """One park under the Private Parks variant: who (if anyone) holds it, and why."""

    park: Square
    cells: tuple[Square, ...]  # the non-park squares Near the park
    owner: str | None
    reason: str

    @property
    def points(self) -> int:
        return PARK_BONUS if self.owner else 0

    def to_dict(self) -> dict:
        return {
            "park": self.park.name,
            "cells": [sq.name for sq in self.cells],
            "owner": self.owner,
            "points": self.points,
            "reason": self.reason,
        }


@dataclass
class PlayerScore:
    colour: str
    pips_by_size: dict[int, int]  # pips contributed by each size (five 3-pips: {3: 15})
    groups: list[Group]
    deductions: list[Deduction]  # one per 3-pip of the player, in square order
    parks: list[ParkResult] = field(default_factory=list)  # the parks this player holds

    @property
    def pips(self) -> int:
        return sum(self.pips_by_size.values())

    @property
    def park_bonus(self) -> int:
        return sum(p.points for p in self.parks)

    @property
    def total(self) -> int:
        return (
            self.pips
            + sum(g.points for g in self.groups)
            + sum(d.points for d in self.deductions)
            + self.park_bonus
        )

    def to_dict(self) -> dict:
        return {
            "total": self.total,
            "pips": self.pips,
            "pips_by_size": {str(p): n for p, n in self.pips_by_size.items()},
            "pieces_by_size": {str(p): n // p for p, n in self.pips_by_size.items()},
            "groups": [g.to_dict() for g in self.groups],
            "group_points": sum(g.points for g in self.groups),
            "deductions": [d.to_dict() for d in self.deductions],
            "deduction_points": sum(d.points for d in self.deductions),
            "park_bonus": self.park_bonus,
            "parks": [
                {"park": p.park.name, "cells": [sq.name for sq in p.cells], "points": p.points} for p in self.parks
            ],
        }


@dataclass
class ScoreReport:
    players: dict[str, PlayerScore]  # in the order of ``COLOURS``
    private_parks: bool = False
    loose_parks: bool = False
    park_results: list[ParkResult] = field(default_factory=list)  # every park, with the variant on

    def ranking(self) -> list[tuple[str, int, int]]:
        """(colour, total, rank), best first; tied players share a rank (1, 1, 3, ...)."""
        ordered = sorted(self.players.values(), key=lambda s: (-s.total, COLOURS.index(s.colour)))
        totals = [s.total for s in ordered]
        return [(s.colour, s.total, 1 + sum(t > s.total for t in totals)) for s in ordered]

    @property
    def winners(self) -> list[str]:
        """Every player with the highest total (more than one on a tie); empty with no pieces."""
        return [colour for colour, _, rank in self.ranking() if rank == 1]

    def to_dict(self) -> dict:
        out = {
            "players": {c: s.to_dict() for c, s in self.players.items()},
            "ranking": [{"colour": c, "total": t, "rank": r} for c, t, r in self.ranking()],
            "winners": self.winners,
            "tie": len(self.winners) > 1,
            "private_parks": self.private_parks,
        }
        if self.private_parks:
            out["loose_parks"] = self.loose_parks
            out["park_results"] = [p.to_dict() for p in self.park_results]
        return out


def _components(cells: set[Square], neighbours: dict[Square, tuple[Square, ...]]) -> list[tuple[Square, ...]]:
    """Orthogonally connected components of ``cells``, each sorted, in square order."""
    left = set(cells)
    groups = []
    while left:
        start = left.pop()
        component = [start]
        frontier = [start]
        while frontier:
            for other in neighbours[frontier.pop()]:
                if other in left:
                    left.discard(other)
                    component.append(other)
                    frontier.append(other)
        groups.append(tuple(sorted(component)))
    return sorted(groups)


def groups_of(board: Board, colour: str) -> list[tuple[Square, ...]]:
    """The groups of ``colour``: orthogonally connected components, each in square order."""
    cells = {sq for sq, piece in board.contents().items() if piece is not PARK and piece.colour == colour}
    return _components(cells, board.geometry.neighbours)


def _deductions(threes: list[Square], ones: set[Square], near: dict[Square, tuple[Square, ...]]) -> list[Deduction]:
    return [Deduction(sq, tuple(sorted(o for o in near[sq] if o in ones))) for sq in sorted(threes)]


def three_pip_deductions(board: Board, colour: str) -> list[Deduction]:
    """For each of ``colour``'s 3-pips, the 1-pips of any colour Near it."""
    cells = board.contents()
    ones = {sq for sq, c in cells.items() if c is not PARK and c.pips == 1}
    threes = [sq for sq, c in cells.items() if c == Piece(colour, 3)]
    return _deductions(threes, ones, board.geometry.near)


def park_results(board: Board, *, loose: bool = False, groups: dict[str, list] | None = None) -> list[ParkResult]:
    """Private Parks: for every park, the player (if any) who holds all its non-park Near squares."""
    if groups is None:
        groups = {colour: groups_of(board, colour) for colour in board.colours()}
    group_of: dict[Square, int] = {}
    for colour_groups in groups.values():
        for group in colour_groups:
            for sq in group:
                group_of[sq] = id(group)
    results = []
    for park in board.parks():
        cells = tuple(sorted(sq for sq in board.near(park) if board[sq] is not PARK))
        contents = [board[sq] for sq in cells]
        if not cells:
            results.append(ParkResult(park, cells, None, "no non-park square is Near it"))
            continue
        if any(not isinstance(c, Piece) for c in contents):
            empty = [sq.name for sq in cells if board[sq] is None]
            results.append(ParkResult(park, cells, None, f"square{'s' * (len(empty) != 1)} still empty Near it: {', '.join(empty)}"))
            continue
        colours = {c.colour for c in contents}
        if len(colours) > 1:
            results.append(ParkResult(park, cells, None, f"several colours Near it: {', '.join(sorted(colours))}"))
            continue
        (colour,) = colours
        n_groups = len({group_of[sq] for sq in cells})
        if n_groups > 1 and not loose:
            results.append(ParkResult(park, cells, None, f"{colour} holds it with {n_groups} groups, not one"))
            continue
        how = "one group" if n_groups == 1 else f"{n_groups} groups, as the loose reading allows"
        squares = "every square Near it" + (" but the parks" if len(cells) < len(board.near(park)) else "")
        results.append(ParkResult(park, cells, colour, f"{colour} holds {squares} with {how}"))
    return results


def score_board(board: Board, *, private_parks: bool = False, loose_parks: bool = False) -> ScoreReport:
    """Score every colour on the board. ``loose_parks`` only matters with ``private_parks``."""
    geo = board.geometry
    squares_of: dict[str, set[Square]] = {}
    pips_of: dict[str, dict[int, int]] = {}
    threes_of: dict[str, list[Square]] = {}
    ones: set[Square] = set()
    for sq, content in board.contents().items():
        if content is PARK:
            continue
        colour, pips = content.colour, content.pips
        if colour not in squares_of:
            squares_of[colour] = set()
            pips_of[colour] = {p: 0 for p in PIPS}
            threes_of[colour] = []
        squares_of[colour].add(sq)
        pips_of[colour][pips] += pips
        if pips == 1:
            ones.add(sq)
        elif pips == 3:
            threes_of[colour].append(sq)
    groups = {colour: _components(squares_of[colour], geo.neighbours) for colour in COLOURS if colour in squares_of}
    players = {
        colour: PlayerScore(
            colour,
            pips_of[colour],
            [Group(cells) for cells in colour_groups],
            _deductions(threes_of[colour], ones, geo.near),
        )
        for colour, colour_groups in groups.items()
    }
    results: list[ParkResult] = []
    if private_parks:
        results = park_results(board, loose=loose_parks, groups=groups)
        for result in results:
            if result.owner:
                players[result.owner].parks.append(result)
    return ScoreReport(players, private_parks, loose_parks and private_parks, results)
