"""Stage 7: turn per-square probability tables into a board, using the game's constraints.

Each square has a probability for every value (``.`` empty, ``#`` park, ``r3``...). The most
likely board under the stash limits (at most ``trios`` pyramids of each size per colour) is
an assignment problem: squares to slots, each colour-size value having ``trios`` slots. A
value may still go over its limit through "overflow" slots that cost a large penalty, so a
real extra piece that the photo shows clearly is kept (and reported), not hidden. Parks
read one square out of a symmetric pattern are moved back when the photo barely says
otherwise (``symmetry_order``). Then squares in rule violations whose reading is unsure try
their alternatives; a change is kept only if it removes violations at a small cost in
likelihood.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import connected_components

from scorer.board import Board, Square, content_from_symbol
from scorer.rules import counts_fit_turn_order, placed_counts, placement_violations, turn_order_fix

EMPTY, PARK_TOKEN = ".", "#"
OVERFLOW_PENALTY = 6.0  # nats: an over-limit reading must be e^6 times likelier than any other
# Legal positions are far likelier than illegal ones (players do break a rule now and then): a
# change that removes a violation may cost this many nats, the photo giving the new reading at
# least 1/20 of the odds of the old one. Only unsure readings (under SURE_READING) change.
LEGALITY_MAX_COST = 3.0
SURE_READING = 0.97
BARRED_COST = 1e6  # nats over the dearest cell: a cell barred from an assignment
TURN_ORDER_MAX_COST = 1.0  # nats a change may cost that lets the piece counts come from turns
UNSURE = 0.95  # below this confidence a square is flagged (thresholds weighed in docs/photo-reader.md)
MAX_ALTERNATIVES, MIN_ALTERNATIVE_ODDS = 3, 0.005  # the next-best values a square's reading lists
PARK_BONUS = 8.0  # nats: the setup's park count is read exactly unless the evidence is overwhelming
FULL_BONUS = 8.0  # nats: on a full board each player's pieces are read as exactly trios of each size
# nats: a weaker pull towards ``trios`` of each colour-size where only a few squares look bare
# (reader.NEARLY_FULL) on a board the stashes and parks would fill; FULL_BONUS counts when full
LIKELY_FULL_BONUS = 2.0
# Players lay the parks out symmetrically far more often than not (the designer starts with
# the corners; Abstract Play's default and ``rules.default_parks`` are symmetric). The decoder
# takes a pattern's prior odds as proportional to how many of the play area's mirrors and
# turns keep it (``symmetry_order``): the four corners are 8 times likelier than three corners
# and a stray square, so a park and a piece taken for each other there are put back when the
# photo's evidence against that is under ln 8 nats. Set from that prior, not fitted: every
# studio render's parks are symmetric, so its renders would ask for any strength.
MIN_SYMMETRIC_PARKS = 3  # fewer parks make a pattern too easily symmetric to be evidence
SETTLED_BY = {"counts": "stash counts", "rules": "placement rules", "turns": "turn order",
              "symmetry": "parks' symmetry"}


@dataclass
class CellReading:
    cell: str
    value: str
    confidence: float
    alternatives: list[tuple[str, float]]
    changed_by: str | None = None  # "counts", "rules", "turns" or "symmetry" when the constraints moved it
    partly_hidden: bool = False  # a pyramid whose base the pieces in front partly hide (reader.HIDDEN_SHARE, HIDDEN_TALL_SHARE)
    blends_in: bool = False  # a pyramid that melts into its square: its colour (squares.blend_threshold), black from above
    washed_out: bool = False  # a square a reflection of a light washes out in the photo (lighting.glared_squares)
    covered: bool = False  # a square something reaching over the board's edge lies over (squares.covered_squares)
    out_of_photo: bool = False  # a square whose middle lies outside the photo (reader._outside)
    colour_disputed: bool = False  # a pyramid with no colour sample whose colour the learned model disputes (reader)
    # a square read bare, sure by its look, in doubt only as one of those a piece the turn counts miss may stand on
    missed_piece: bool = False

    def to_dict(self) -> dict:
        """The JSON of one cell: value, confidence, next-best alternatives and, where the
        game's constraints chose the value over likelier-looking ones, what settled it.

        The alternatives' odds come from several accounts (the square's look, the stash
        counts' exchanges, pieces the counts miss); where with the confidence they come to
        more than 1, they share what the confidence leaves in proportion, so that a square's
        odds read as odds (empty at 5%, then park 78%, a 1-pip 40%: 123% said)."""
        spare, said = 1.0 - self.confidence, sum(p for _, p in self.alternatives)
        scale = spare / said if said > spare > 0 else 1.0
        out = {"cell": self.cell, "value": self.value, "confidence": round(self.confidence, 3),
               "alternatives": [{"value": v, "confidence": round(p * scale, 3)} for v, p in self.alternatives]}
        if self.changed_by:
            out["settled_by"] = SETTLED_BY[self.changed_by]
        if self.partly_hidden:
            out["partly_hidden"] = True
        if self.blends_in:
            out["blends_in"] = True
        if self.colour_disputed:
            out["colour_disputed"] = True
        if self.washed_out:
            out["washed_out"] = True
        if self.covered:
            out["covered"] = True
        if self.out_of_photo:
            out["out_of_photo"] = True
        if self.missed_piece:
            out["missed_piece"] = True
        return out


@dataclass
class Decoded:
    board: Board
    cells: list[CellReading]
    warnings: list[str] = field(default_factory=list)
    warning_kinds: list[str] = field(default_factory=list)  # per warning: "constraints" (counts) or "settled" (a square)

    @property
    def uncertain(self) -> list[str]:
        return [c.cell for c in self.cells if c.confidence < UNSURE]


def _normalise(table: dict[str, dict[str, float]]) -> tuple[list[str], list[str], np.ndarray]:
    cells = list(table)
    # EMPTY always: a square can be read empty whatever its table holds.
    values = sorted({EMPTY} | {v for probs in table.values() for v in probs}, key=lambda t: (len(t), t))
    P = np.full((len(cells), len(values)), 1e-9)
    for i, cell in enumerate(cells):
        for v, p in table[cell].items():
            P[i, values.index(v)] = max(float(p), 1e-9)
    P /= P.sum(axis=1, keepdims=True)
    return cells, values, P


def decode(table: dict[str, dict[str, float]], rows: int, cols: int, *, trios: int = 5,
           parks: int | None = None, full: bool = False, likely_full: bool = False, use_rules: bool = True,
           shown: dict[str, dict[str, float]] | None = None) -> Decoded:
    """The likeliest board given per-cell value probabilities and the stash limits.

    ``parks``: how many park markers the setup has (None: any number); like the stash
    limits it can be exceeded only by overwhelming evidence. ``full``: every square holds a
    piece or a park (every setup's parks and stashes fill its area exactly), so each of the
    table's piece values is read exactly ``trios`` times unless the evidence is
    overwhelming: a piece read as the wrong size or player is then settled by the one
    that is missing, not by emptying a square. ``likely_full``: the stashes and parks would
    fill the area and only a few squares look bare, so each colour-size's first ``trios``
    slots are required too, at the smaller LIKELY_FULL_BONUS: a bare look is read as the
    piece the counts miss unless it is plainly bare (a finished game can leave gaps where
    players had to pass), no count short of ``trios`` is reported, and the placement rules
    may still empty a square. ``full`` takes precedence. ``shown``: per cell, the odds
    each square's confidence and alternatives are reported from, when they hold more than
    ``table`` (the other names a colour group might have: a player's pieces all have one
    name, so ``table`` gives each group's whole odds to the name placed, and the doubt
    about that name shows here)."""
    cells, values, P = _normalise(table)
    n = len(cells)
    logp = np.log(P)
    # Slots: (value index, kind): a plain slot, an overflow slot (past the stash or the setup,
    # costing OVERFLOW_PENALTY) or a required one (the setup's parks, a full or likely full board's pieces),
    # whose bonus lets weak odds win (a faint marker, clear glass on a light square) against
    # each square's own best reading. Only a slot's own value's odds count: a bare look is no
    # evidence of a park (a marker taken for a pyramid keeps more park odds than a truly
    # empty square, which must not take its place).
    columns: list[tuple[int, str | None]] = []
    for vi, v in enumerate(values):
        if v == EMPTY or (v == PARK_TOKEN and parks is None):
            columns += [(vi, None)] * n
        elif v == PARK_TOKEN:
            columns += [(vi, "required")] * min(parks, n) + [(vi, "overflow")] * n
        else:
            columns += [(vi, "required" if full or likely_full else None)] * min(trios, n) + [(vi, "overflow")] * n
    col_value = np.array([c[0] for c in columns])
    col_kind = np.array([c[1] or "" for c in columns])
    park_columns = np.array([values[vi] == PARK_TOKEN for vi in col_value])
    bonus = np.where(park_columns, PARK_BONUS, FULL_BONUS if full else LIKELY_FULL_BONUS)
    cost = (-logp[:, col_value] + OVERFLOW_PENALTY * (col_kind == "overflow")[None, :]
            - (bonus * (col_kind == "required"))[None, :])
    _, first = linear_sum_assignment(cost)
    symmetric = _symmetric_parks_assignment(cost, first, park_columns, [Square.parse(c) for c in cells], rows, cols)
    final = first if symmetric is None else symmetric
    chosen = [int(col_value[j]) for j in final]
    warnings: list[str] = []
    changed: dict[int, str] = {}
    for i in range(n):
        if col_value[final[i]] != col_value[first[i]]:
            changed[i] = "symmetry"
        elif chosen[i] != int(np.argmax(P[i])):
            changed[i] = "counts"

    board = Board(rows, cols)
    for i, cell in enumerate(cells):
        board[cell] = content_from_symbol(values[chosen[i]])

    missing: dict[str, int] = {}
    if use_rules:
        _settle_by_rules(board, cells, values, P, chosen, changed, trios, parks, full)
        _settle_turn_order(board, cells, values, P, chosen, changed, trios)
        missing = {c: d for c, d in turn_order_fix(board, trios).items() if d > 0}

    counts = {v: 0 for v in values if v not in (EMPTY, PARK_TOKEN)}
    for i in range(n):
        if values[chosen[i]] in counts:
            counts[values[chosen[i]]] += 1
    n_parks = sum(values[chosen[i]] == PARK_TOKEN for i in range(n))
    if parks is not None and n_parks != parks:
        warnings.append(f"{n_parks} park marker{'' if n_parks == 1 else 's'} read, but this setup has {parks}")
    for v, count in sorted(counts.items()):
        piece = content_from_symbol(v)
        if count > trios:
            warnings.append(f"{count} {piece.colour} {piece.pips}-pips read, but a stash holds {trios}")
        elif full and count < trios:
            warnings.append(f"{count} {piece.colour} {piece.pips}-pips read on a full board, which holds {trios}")

    # A value read more often than its stash (or the setup's parks) allows: at least the excess
    # of those squares are misread (or the position is illegal, which shows either way), and
    # which cannot be told, so none of them is surer than the share the limit leaves.
    caps = {v: trios / count for v, count in counts.items() if count > trios}
    if parks is not None and n_parks > parks:  # (a setup with no parks: each read is in doubt, not surely wrong)
        caps[PARK_TOKEN] = max(parks, 0.5) / n_parks
    # Counts that cannot come from turns even after settling, whose smallest fix adds pieces:
    # that many pieces (faint, glassy ones) are likelier missed than the position real. Which
    # of the bare squares hold them is not sure, so none of them is surer than the share they
    # leave bare, nor than its own share of them (``_missed_piece_shares``).
    bare = sum(values[chosen[i]] == EMPTY for i in range(n))
    if missing and bare:
        caps[EMPTY] = max(bare - sum(missing.values()), 0) / bare
        listed = ", ".join(f"{c} {sum(placed_counts(board, c).values())}" for c in sorted(board.colours()))
        warnings.append(f"the pieces read ({listed}) cannot come from players taking turns: "
                        f"{_count_words(missing)} likely {'stands' if sum(missing.values()) == 1 else 'stand'} "
                        "on squares read as bare")
    missed_values = [j for j, v in enumerate(values)
                     if v not in (EMPTY, PARK_TOKEN) and content_from_symbol(v).colour in missing and counts[v] < trios]
    held = _missed_piece_shares(P, values, chosen, missed_values, sum(missing.values())) if EMPTY in caps else {}
    readings, looks = [], []  # looks: each square's odds of its value by its look (and the group names)
    for i, cell in enumerate(cells):
        value = values[chosen[i]]
        odds = {v: float(P[i, j]) for j, v in enumerate(values)}
        if shown is not None:
            odds = _normalised_odds(shown.get(cell, {}), value)
        looks.append(odds.get(value, 0.0))
        if value == EMPTY and EMPTY in caps and missed_values:
            share = max(1.0 - caps[EMPTY], held.get(i, 0.0))
            odds = {**odds, **_missed_piece_odds(P[i], values, missed_values, share, odds)}
        alts = _next_best(odds, value)
        confidence = min(odds.get(value, 0.0), caps.get(value, 1.0), 1.0 - held.get(i, 0.0))
        readings.append(CellReading(cell=cell, value=value, confidence=confidence,
                                    alternatives=alts, changed_by=changed.get(i)))
    decoded_confidence = [r.confidence for r in readings]
    _doubt_rivals_of_settled(readings, values, P, chosen, changed)
    _doubt_sure_readings(readings, values, cost, first, col_value, col_kind == "required", chosen)
    if EMPTY in caps and missed_values:  # (doubted no further by the exchanges and chains weighed since)
        for r, look, decoded_as in zip(readings, looks, decoded_confidence):
            r.missed_piece = r.value == EMPTY and r.confidence < UNSURE <= look and r.confidence >= decoded_as
    kinds = ["constraints"] * len(warnings)
    for r in readings:
        if r.changed_by:
            warnings.append(f"{r.cell}: read as {r.value} (settled by the {SETTLED_BY[r.changed_by]})")
            kinds.append("settled")
    return Decoded(board=board, cells=readings, warnings=warnings, warning_kinds=kinds)


def _next_best(odds: dict[str, float], value: str) -> list[tuple[str, float]]:
    """A square's alternatives: the MAX_ALTERNATIVES likeliest values other than ``value``
    in ``odds``, likeliest first, each at odds of MIN_ALTERNATIVE_ODDS or more."""
    ranked = sorted(((v, p) for v, p in odds.items() if v != value), key=lambda vp: -vp[1])
    return [(v, p) for v, p in ranked[:MAX_ALTERNATIVES] if p >= MIN_ALTERNATIVE_ODDS]


def _doubt_rivals_of_settled(readings: list[CellReading], values: list[str], P: np.ndarray, chosen: list[int],
                             changed: dict[int, str]) -> None:
    """Make the squares that could have given way in a count-settled square's place no surer
    than the odds that they need not have.

    A square the stash counts moved off its likeliest value (``changed`` "counts": that value
    over its limit, or the value it took short of a full or likely full board's count) could
    have kept it had another square read as that value taken the other instead: exchanging the two
    squares' values keeps every count, and the counts cannot tell which. Such an exchange's
    odds against the reading as it stands are exp(-d), d the nats it costs in both squares'
    odds: cheap when the settled square looked surely like the value it gave up and the rival
    has fair odds of the value taken. Each rival's confidence is capped at 1 minus its
    exchanges' share of the odds of all the exchanges that give the same value up plus the
    reading as it stands (odds 1), and the value it would take is among its alternatives at
    that share. Only exchanges are weighed here; longer chains and free values are weighed by
    ``_doubt_sure_readings``."""
    logp = np.log(P)
    # per value given up, per rival (read as it), per value it would take: the exchanges' odds
    exchange_odds: dict[int, dict[int, dict[int, float]]] = {}
    for j, how in changed.items():
        given_up, taken = int(np.argmax(P[j])), chosen[j]
        if how != "counts" or given_up == taken:
            continue
        settled_cost = logp[j, given_up] - logp[j, taken]
        rivals = exchange_odds.setdefault(given_up, {})
        for i in range(len(chosen)):
            if i != j and chosen[i] == given_up:
                rival_cost = logp[i, given_up] - logp[i, taken]
                to = rivals.setdefault(i, {})
                to[taken] = to.get(taken, 0.0) + float(np.exp(settled_cost - rival_cost))
    for rivals in exchange_odds.values():
        total = 1.0 + sum(sum(to.values()) for to in rivals.values())
        for i, to in rivals.items():
            reading = readings[i]
            reading.confidence = min(reading.confidence, 1.0 - sum(to.values()) / total)
            offer(reading, {values[taken]: odds / total for taken, odds in to.items()})


def offer(reading: CellReading, shares: dict[str, float]) -> None:
    """Put each value of ``shares`` among a reading's alternatives at its share at least."""
    alternatives = dict(reading.alternatives)
    for value, share in shares.items():
        alternatives[value] = max(alternatives.get(value, 0.0), share)
    reading.alternatives = _next_best(alternatives, reading.value)


def _cheapest_allowed(cost: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, float]:
    """The cheapest assignment of ``cost``'s rows to columns through ``allowed`` cells only
    (column per row) and its cost, over BARRED_COST when every assignment needs a cell not
    allowed."""
    barred = np.where(allowed, cost, cost.max() + BARRED_COST)
    _, columns = linear_sum_assignment(barred)
    return columns, float(barred[np.arange(len(columns)), columns].sum())


def _doubt_sure_readings(readings: list[CellReading], values: list[str], cost: np.ndarray, first: np.ndarray,
                         col_value: np.ndarray, required: np.ndarray, chosen: list[int]) -> None:
    """Make each square read at UNSURE or more no surer than the other boards the decoder's
    costs allow: every chain of changes the stash counts allow is weighed (a confident
    misreading that made the counts move two other squares off their likeliest values), as
    are free values, not only the exchanges ``_doubt_rivals_of_settled`` weighs.

    For every square, the cheapest assignment with the square barred from the value it has in
    ``first`` (``cost``'s cheapest assignment, before the parks' symmetry, the rules and the
    turn order settle anything) is another board, d nats dearer than ``first``: odds exp(-d)
    to ``first``'s 1. Boards linked by a square both change (directly or through other such
    boards), or that each fill more ``required`` slots than ``first`` (a park or a piece the
    setup or a full board's counts say is missing, which only one square can hide), share
    their odds out with ``first``; a board linked to none is weighed on its own. A square whose
    reading is still ``first``'s is no surer than 1 minus the shares of the boards that change
    it, which are among its alternatives, summed per value. (A square under UNSURE is flagged
    already; its alternatives come from the over-limit caps and ``_doubt_rivals_of_settled``.)"""
    likeliest = col_value[first]
    reported = tuple(int(v) for v in chosen)
    best, filled = float(cost[np.arange(len(first)), first].sum()), int(required[first].sum())
    boards: dict[tuple, float] = {}
    fills: set[tuple] = set()
    allowed = np.ones(cost.shape, bool)
    for i in range(len(first)):
        allowed[i] = col_value != likeliest[i]
        other, total = _cheapest_allowed(cost, allowed)
        allowed[i] = True
        board = tuple(int(v) for v in col_value[other])
        if total - best < BARRED_COST / 2 and board != reported:
            boards[board] = min(boards.get(board, np.inf), total - best)
            if required[other].sum() > filled:
                fills.add(board)
    if not boards:
        return
    listed = list(boards)
    changed = np.array(listed) != likeliest[None, :]  # (boards, squares)
    filling = np.array([board in fills for board in listed])
    linked = (changed.astype(int) @ changed.T.astype(int) > 0) | np.outer(filling, filling)
    _, group = connected_components(linked, directed=False)
    odds = np.exp(-np.array([boards[board] for board in listed]))
    share = odds / (1.0 + np.bincount(group, weights=odds))[group]
    for i, reading in enumerate(readings):
        if reading.confidence < UNSURE or chosen[i] != likeliest[i] or not changed[:, i].any():
            continue
        doubt = float(share[changed[:, i]].sum())
        if 1.0 - doubt < reading.confidence:
            reading.confidence = 1.0 - doubt
            shares: dict[str, float] = {}
            for a in np.flatnonzero(changed[:, i]):
                shares[values[listed[a][i]]] = shares.get(values[listed[a][i]], 0.0) + float(share[a])
            offer(reading, shares)


def board_symmetries(rows: int, cols: int) -> list:
    """The mirrors and turns that map a rows x cols area onto itself, identity left out, as
    functions of a Square (a square area has seven, a rectangle three)."""
    w, h = cols - 1, rows - 1
    maps = [lambda s: Square(w - s.col, h - s.row), lambda s: Square(w - s.col, s.row),
            lambda s: Square(s.col, h - s.row)]
    if rows == cols:
        maps += [lambda s: Square(s.row, s.col), lambda s: Square(h - s.row, w - s.col),
                 lambda s: Square(h - s.row, s.col), lambda s: Square(s.row, w - s.col)]
    return maps


def symmetry_order(parks: set[Square], rows: int, cols: int) -> int:
    """How many of the area's mirrors and turns, the identity included, keep ``parks``."""
    return 1 + sum({g(p) for p in parks} == parks for g in board_symmetries(rows, cols))


def swaps_to_symmetry(parks: set[Square], rows: int, cols: int) -> list[tuple[Square, Square, int]]:
    """(park, square, order): moving one park to a square gives a pattern that more of the
    area's mirrors and turns keep (``symmetry_order``, ``order`` after the move)."""
    maps = board_symmetries(rows, cols)
    before = symmetry_order(parks, rows, cols)
    swaps = set()
    for g in maps:
        if {g(p) for p in parks} == parks:
            continue
        for gone in parks:
            kept = parks - {gone}
            missing = {g(p) for p in kept} - kept
            if len(missing) != 1:
                continue
            # (missing is gone itself when g keeps the rest: the same pattern, no gain)
            order = symmetry_order(kept | missing, rows, cols)
            if order > before:
                swaps.add((gone, next(iter(missing)), order))
    return sorted(swaps)


def _symmetric_parks_assignment(cost: np.ndarray, assignment: np.ndarray, park_columns: np.ndarray,
                                squares: list[Square], rows: int, cols: int):
    """The assignment (column per square) with one park moved so that more of the area's
    mirrors and turns keep the parks, when it costs less than the log of how many times more
    (``symmetry_order``) in nats more than ``assignment``; None when there is none."""
    parks = {sq for sq, j in zip(squares, assignment) if park_columns[j]}
    if len(parks) < MIN_SYMMETRIC_PARKS:
        return None
    index = {sq: i for i, sq in enumerate(squares)}
    rows_at = np.arange(len(squares))
    base = float(cost[rows_at, assignment].sum())
    before = symmetry_order(parks, rows, cols)
    best, best_gain = None, 0.0
    for gone, new, order in swaps_to_symmetry(parks, rows, cols):
        if new not in index:
            continue
        forced = np.zeros(len(squares), bool)
        forced[[index[sq] for sq in parks - {gone} | {new}]] = True
        # Parks on the forced squares only, and nothing else there.
        allowed = np.where(forced[:, None], park_columns[None, :], ~park_columns[None, :])
        columns, _ = _cheapest_allowed(cost, allowed)
        gain = np.log(order / before) - (float(cost[rows_at, columns].sum()) - base)
        if gain > best_gain:
            best, best_gain = columns, gain
    return best


def _normalised_odds(odds: dict[str, float], value: str) -> dict[str, float]:
    """One cell's odds summing to one (``value`` at least present, at 0)."""
    total = sum(max(float(p), 0.0) for p in odds.values())
    out = {v: max(float(p), 0.0) / total for v, p in odds.items()} if total > 0 else {}
    out.setdefault(value, 0.0)
    return out


def _settle_by_rules(board: Board, cells, values, P, chosen, changed, trios, parks, full=False) -> None:
    """Let unsure squares in rule violations take an alternative that removes violations at a
    cost of at most LEGALITY_MAX_COST nats from the reading decoded (per square changed, over
    all its changes): a square alone, where the counts allow its new value (on a ``full``
    board, never a bare square), or swapped with another unsure square holding that value,
    which keeps every count (a full board's pieces, a stash at its limit): a 3-pip the counts
    put beside its own 3-pip trades places with the 2-pip the photo was less sure of."""
    logp = np.log(P)
    decoded = logp[np.arange(len(cells)), chosen]  # each square's log-odds as decoded
    index = {cell: i for i, cell in enumerate(cells)}
    counts: dict[str, int] = {}
    for i in range(len(cells)):
        counts[values[chosen[i]]] = counts.get(values[chosen[i]], 0) + 1

    def violations_after(moves: list[tuple[int, int]]) -> int:
        before = [(cells[i], board[cells[i]]) for i, _ in moves]
        for i, j in moves:
            board[cells[i]] = content_from_symbol(values[j])
        after = len(placement_violations(board, trios))
        for cell, content in before:
            board[cell] = content
        return after

    for _ in range(4):
        violations = placement_violations(board, trios)
        if not violations:
            return
        involved = {index[c] for violation in violations for c in violation.cells if c in index}
        held = np.asarray(chosen)
        unsure = P[np.arange(len(cells)), held] < SURE_READING
        best = None  # (violations left, cost, moves)
        for i in sorted(involved, key=lambda i: P[i, chosen[i]]):
            if not unsure[i]:
                continue
            old = chosen[i]
            for j in np.flatnonzero(decoded[i] - logp[i] <= LEGALITY_MAX_COST):
                v = values[j]
                if j == old or (v == EMPTY and full):
                    continue
                loss = decoded[i] - logp[i, j]
                limit = parks if v == PARK_TOKEN else (None if v == EMPTY else trios)
                options = []
                if limit is None or counts.get(v, 0) < limit:
                    options.append((loss, [(i, int(j))]))
                if v != EMPTY and not (full and values[old] == EMPTY):  # a swap: k gives up v for i's old value
                    options += [(loss + decoded[k] - logp[k, old], [(i, int(j)), (int(k), old)])
                                for k in np.flatnonzero((held == j) & unsure)]
                for cost, moves in options:
                    if cost > LEGALITY_MAX_COST or (best is not None and (best[0], best[1]) <= (0, cost)):
                        continue
                    after = violations_after(moves)
                    if after < len(violations) and (best is None or (after, cost) < (best[0], best[1])):
                        best = (after, cost, moves)
        if best is None:
            return
        for i, j in best[2]:
            counts[values[chosen[i]]] -= 1
            counts[values[j]] = counts.get(values[j], 0) + 1
            chosen[i] = j
            board[cells[i]] = content_from_symbol(values[j])
            changed[i] = "rules"


def _settle_turn_order(board: Board, cells, values, P, chosen, changed, trios, rounds: int = 3) -> None:
    """Players take turns, so their piece counts stay within one of each other unless some
    had to pass: when the counts read cannot come from turns (``rules.counts_fit_turn_order``),
    a missed or extra piece, or one given the wrong colour, is likelier than the position.
    Change the square whose change costs least (at most TURN_ORDER_MAX_COST nats) that makes
    the counts fit, or failing that brings the colours' counts closer; up to ``rounds`` times."""
    if counts_fit_turn_order(board, trios):
        return
    logp = np.log(P)
    colours = set(board.colours())
    for _ in range(rounds):
        per_value: dict[str, int] = {}
        for i in range(len(cells)):
            per_value[values[chosen[i]]] = per_value.get(values[chosen[i]], 0) + 1
        spread = _count_spread(board)
        best = None
        for i, cell in enumerate(cells):
            if values[chosen[i]] == PARK_TOKEN:
                continue
            for j in range(len(values)):
                v = values[j]
                cost = logp[i, chosen[i]] - logp[i, j]
                if j == chosen[i] or v == PARK_TOKEN or cost > TURN_ORDER_MAX_COST:
                    continue
                if v != EMPTY and (content_from_symbol(v).colour not in colours or per_value.get(v, 0) >= trios):
                    continue
                old = board[cell]
                board[cell] = content_from_symbol(v)
                key = (not counts_fit_turn_order(board, trios), _count_spread(board), cost)
                board[cell] = old
                if (not key[0] or key[1] < spread) and (best is None or key < best[0]):
                    best = (key, i, j)
        if best is None:
            return
        (unfit, _, _), i, j = best
        chosen[i] = j
        board[cells[i]] = content_from_symbol(values[j])
        changed[i] = "turns"
        if not unfit:
            return


def _count_words(missing: dict[str, int]) -> str:
    """``{"clear": 9}`` as "9 more clear pieces"."""
    parts = [f"{n} more {colour} piece{'' if n == 1 else 's'}" for colour, n in sorted(missing.items())]
    return " and ".join(parts)


def _missed_piece_shares(P: np.ndarray, values: list[str], chosen: list[int], missed_values: list[int],
                        missing: int) -> dict[int, float]:
    """Per square read bare (index), its share of the ``missing`` pieces that turn order says
    stand on bare-looking squares: ``missing`` split over them as each one's own odds of
    holding a missed value (``missed_values``, indices into ``values``) against its bare
    look weigh them, at most 1. A faint piece's square, with fair odds of one, takes most of
    it; a plainly bare one almost none."""
    empty = values.index(EMPTY)
    bare = [i for i in range(len(chosen)) if chosen[i] == empty]
    if not bare or not missed_values or missing <= 0:
        return {}
    weight = np.array([P[i, missed_values].sum() / max(P[i, empty], 1e-9) for i in bare])
    if weight.sum() <= 0:
        return {}
    return {i: min(1.0, missing * float(w) / float(weight.sum())) for i, w in zip(bare, weight)}


def _missed_piece_odds(p_cell: np.ndarray, values, missed_values, share: float,
                       odds: dict[str, float]) -> dict[str, float]:
    """Odds of the pieces a bare-looking square may hold when pieces are missing: ``share``
    split over the ``missed_values`` (indices into ``values``) as the square's own odds
    weigh them (evenly when it gives them none), each at least its own odds."""
    weights = np.array([p_cell[j] for j in missed_values], np.float64)
    weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(missed_values), 1.0 / len(missed_values))
    return {values[j]: max(odds.get(values[j], 0.0), share * float(w)) for j, w in zip(missed_values, weights)}


def _count_spread(board: Board) -> int:
    """The most pieces of any colour on the board less the fewest."""
    counts: dict[str, int] = {}
    for _, piece in board.pieces():
        counts[piece.colour] = counts.get(piece.colour, 0) + 1
    return max(counts.values()) - min(counts.values()) if len(counts) > 1 else 0
