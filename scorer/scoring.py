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

    def to_dict(self) -> dict:
        return {"cell": self.cell.name, "one_pips": [sq.name for sq in self.one_pips], "points": self.points}


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


def groups_of(board: Board, colour: str) -> list[tuple[Square, ...]]:
    """The groups of ``colour``: orthogonally connected components, each in square order."""
    cells = {sq for sq, piece in board.pieces() if piece.colour == colour}
    groups = []
    while cells:
        start = min(cells)
        cells.discard(start)
        component = [start]
        frontier = [start]
        while frontier:
            sq = frontier.pop()
            for other in board.neighbours(sq):
                if other in cells:
                    cells.discard(other)
                    component.append(other)
                    frontier.append(other)
        groups.append(tuple(sorted(component)))
    return sorted(groups)


def three_pip_deductions(board: Board, colour: str) -> list[Deduction]:
    """For each of ``colour``'s 3-pips, the 1-pips of any colour Near it."""
    deductions = []
    for sq, piece in board.pieces():
        if piece.colour == colour and piece.pips == 3:
            ones = tuple(
                sorted(o for o in board.near(sq) if isinstance(board[o], Piece) and board[o].pips == 1)
            )
            deductions.append(Deduction(sq, ones))
    return deductions


def park_results(board: Board, *, loose: bool = False) -> list[ParkResult]:
    """Private Parks: for every park, the player (if any) who holds all its non-park Near squares."""
    group_of: dict[Square, int] = {}
    for colour in board.colours():
        for group in groups_of(board, colour):
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
            results.append(ParkResult(park, cells, None, f"empty Near it: {', '.join(empty)}"))
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
        how = "one group" if n_groups == 1 else f"{n_groups} groups (loose reading)"
        results.append(ParkResult(park, cells, colour, f"{colour} holds every square Near it with {how}"))
    return results


def score_player(board: Board, colour: str) -> PlayerScore:
    """The base score of one colour (no park bonus)."""
    pips_by_size = {pips: 0 for pips in PIPS}
    for _, piece in board.pieces():
        if piece.colour == colour:
            pips_by_size[piece.pips] += piece.pips
    groups = [Group(cells) for cells in groups_of(board, colour)]
    return PlayerScore(colour, pips_by_size, groups, three_pip_deductions(board, colour))


def score_board(board: Board, *, private_parks: bool = False, loose_parks: bool = False) -> ScoreReport:
    """Score every colour on the board. ``loose_parks`` only matters with ``private_parks``."""
    players = {colour: score_player(board, colour) for colour in board.colours()}
    results: list[ParkResult] = []
    if private_parks:
        results = park_results(board, loose=loose_parks)
        for result in results:
            if result.owner:
                players[result.owner].parks.append(result)
    return ScoreReport(players, private_parks, loose_parks and private_parks, results)
