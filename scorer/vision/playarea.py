"""Stage 6: which part of the checkerboard is in play.

The play area is a square block of the checkerboard whose size comes from the setup table
(6x6, 7x7, 8x8; ThreeHouse 5x5, 6x6). Everything outside it is empty; on a finished board
everything inside holds a pyramid or a park; the default parks sit in its corners; and the
setup's parks are all there from the first move. Each candidate block is scored by how well
the squares' occupancy and park probabilities fit that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer.board import SETUPS, setup_for


@dataclass(frozen=True)
class PlayArea:
    """A block of the checkerboard: offset (``col``, ``row``, 0-based, row 0 nearest the
    image's bottom) and size."""

    col: int
    row: int
    cols: int
    rows: int
    ambiguous: bool = False

    def to_dict(self) -> dict:
        return {"row": self.row, "col": self.col, "rows": self.rows, "cols": self.cols}

    def turned(self, quarter_turns: int, board_cols: int, board_rows: int) -> "PlayArea":
        """The same block after ``quarter_turns`` clockwise quarter turns of a board_cols x
        board_rows checkerboard, as ``GridFit.turned``: board point (u, v) becomes (v, cols - u)."""
        area, cols, rows = self, board_cols, board_rows
        for _ in range(quarter_turns % 4):
            area = PlayArea(col=area.row, row=cols - area.col - area.cols, cols=area.rows, rows=area.cols,
                            ambiguous=area.ambiguous)
            cols, rows = rows, cols
        return area

    def contains(self, col: int, row: int) -> bool:
        return self.col <= col < self.col + self.cols and self.row <= row < self.row + self.rows


PARK_READ_FLOOR = 0.05  # a square's park probability is trusted no further than this from 0 or 1


def trusted_park_odds(park: np.ndarray) -> np.ndarray:
    """Park probabilities kept PARK_READ_FLOOR from 0 and 1: a marker can be missed or a
    piece taken for one."""
    return np.clip(np.asarray(park, np.float64), PARK_READ_FLOOR, 1 - PARK_READ_FLOOR)


def park_count_logliks(park: np.ndarray, counts) -> np.ndarray:
    """For each of ``counts``, the log-probability that exactly that many of the squares are
    parks, each independently with its probability in ``park`` (:func:`trusted_park_odds`)."""
    p = trusted_park_odds(park).ravel()
    dist = np.zeros(len(p) + 1)
    dist[0] = 1.0
    for q in p:  # Poisson binomial, one square at a time
        dist[1:] = dist[1:] * (1 - q) + dist[:-1] * q
        dist[0] *= 1 - q
    logp = np.log(np.maximum(dist, 1e-300))
    return np.array([logp[n] if n <= len(p) else -np.inf for n in counts])


def candidate_setups(players: int | None, threehouse: bool | None) -> list:
    """The setup table's lines the options allow (``threehouse`` None: either stash)."""
    stashes = (False, True) if threehouse is None else (bool(threehouse),)
    if players is not None:
        return [setup_for(players, th) for th in stashes]
    return [s for (th, _), s in SETUPS.items() if th in stashes]


def candidate_sizes(players: int | None, threehouse: bool | None) -> list[int]:
    """Play-area sizes the setup table allows (``threehouse`` None: either stash)."""
    return sorted({s.size for s in candidate_setups(players, threehouse)})


def find_play_area(occupied: np.ndarray, park: np.ndarray, *, players: int | None = None,
                   threehouse: bool | None = False, area: PlayArea | dict | None = None) -> PlayArea:
    """Pick the play area from per-square probabilities (arrays indexed [row, col]):
    ``occupied`` (a piece or a park is there) and ``park`` (a park marker is there).
    ``threehouse`` None: the sizes of either stash."""
    rows, cols = occupied.shape
    if area is not None:
        if isinstance(area, dict):
            area = PlayArea(col=int(area["col"]), row=int(area["row"]),
                            cols=int(area["cols"]), rows=int(area["rows"]))
        return area
    p_occ = np.clip(occupied, 0.02, 0.98)
    sizes = [s for s in candidate_sizes(players, threehouse) if s <= min(rows, cols)]
    if not sizes:
        size = min(rows, cols)
        return PlayArea(0, 0, size, size, ambiguous=True)
    # Each square is occupied with probability ``fill`` inside the block (its own share of
    # occupied squares) and ``stray`` outside; the squares' readings are noisy evidence.
    stray = 0.02
    outside_ll = np.log(stray * p_occ + (1 - stray) * (1 - p_occ))
    total_outside = outside_ll.sum()
    setups = candidate_setups(players, threehouse)
    park_free = np.log1p(-trusted_park_odds(park))
    park_free_outside = park_free.sum()
    scored = []
    for size in sizes:
        park_counts = sorted({s.parks for s in setups if s.size == size})
        for r0 in range(rows - size + 1):
            for c0 in range(cols - size + 1):
                inside = (slice(r0, r0 + size), slice(c0, c0 + size))
                fill = float(np.clip(p_occ[inside].mean(), 0.2, 0.97))
                inside_ll = np.log(fill * p_occ[inside] + (1 - fill) * (1 - p_occ[inside])).sum()
                corners = park[r0, c0] + park[r0, c0 + size - 1] + park[r0 + size - 1, c0] + park[r0 + size - 1, c0 + size - 1]
                # The setup's parks are all placed before the first move: as many as it has,
                # and none outside (so that every square weighs alike whatever the block's size).
                parks_ll = park_count_logliks(park[inside], park_counts).max() if park_counts else 0.0
                parks_ll += park_free_outside - park_free[inside].sum()
                score = inside_ll + total_outside - outside_ll[inside].sum() + 1.0 * corners + parks_ll
                scored.append((score, size, r0, c0))
    scored.sort(reverse=True)
    best = scored[0]
    ambiguous = len(scored) > 1 and scored[1][0] > best[0] - 0.5 and scored[1][1:] != best[1:]
    return PlayArea(col=best[3], row=best[2], cols=best[1], rows=best[1], ambiguous=ambiguous)
