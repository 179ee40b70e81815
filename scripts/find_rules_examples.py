"""Search for boards consistent with the rules' worked examples (the images are lost).

The rules list, for each complete game, every player's groups and the 3-pips that lose
points (with how many 1-pips are Near them). This script finds full boards that match every
line of those breakdowns, satisfy the placement rules, hold 5/5/5 stashes, and can be played
out in turn order; it prints each board with a legal order of play. The boards in
``sample_boards/`` came from it:

    .venv/bin/python scripts/find_rules_examples.py [--seed N] [game_2p|game_3p|best_29]
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from scorer.board import PARK, Board, Piece, Square
from scorer.rules import default_parks, move_violation, placement_violations, remaining_stash
from scorer.scoring import score_board

# Each target: players (seat order), parks, the 3-pips the rules name with their exact
# 1-pip counts, the group counts; any 3-pip not named loses nothing (at most one 1-pip).
TARGETS = {
    "game_2p": {
        "colours": ["red", "blue"],
        "parks": default_parks(2),
        "threes": {"F2": ("red", 2), "E4": ("red", 2), "C2": ("blue", 5), "B4": ("blue", 2)},
        "groups": {"red": 4, "blue": 3},
    },
    "game_3p": {
        "colours": ["red", "blue", "green"],
        "parks": default_parks(3),
        "threes": {
            "D4": ("red", 2), "B7": ("red", 2), "C2": ("red", 3),
            "E6": ("blue", 4), "G6": ("blue", 2), "D3": ("blue", 2), "D1": ("blue", 2),
            "E2": ("green", 4), "E4": ("green", 4), "A2": ("green", 3), "E7": ("green", 2), "B6": ("green", 2),
        },
        "groups": {"red": 6, "blue": 7, "green": 6},
    },
    "best_29": {
        "colours": ["red", "blue"],
        "parks": default_parks(2),
        "threes": {},
        "groups": {"red": 1},
    },
}


def cost(board: Board, target: dict) -> int:
    """How far ``board`` is from the target: 0 when every line of the breakdown matches."""
    report = score_board(board)
    total = 0
    for colour, want in target["groups"].items():
        total += abs(len(report.players[colour].groups) - want)
    named = {Square.parse(name): n for name, (_, n) in target["threes"].items()}
    for colour, player in report.players.items():
        for d in player.deductions:
            ones = len(d.one_pips)
            total += abs(ones - named[d.cell]) if d.cell in named else max(0, ones - 1)
    total += 2 * len(placement_violations(board))
    return total


def anneal(target: dict, rng: random.Random, steps: int = 200_000) -> Board | None:
    colours = target["colours"]
    n = {2: 6, 3: 7, 4: 8}[len(colours)]
    board = Board(n, n)
    for park in target["parks"]:
        board[park] = PARK
    fixed = set()
    for name, (colour, _) in target["threes"].items():
        board[name] = Piece(colour, 3)
        fixed.add(Square.parse(name))
    pool = []
    for colour in colours:
        for pips, left in remaining_stash(board, colour).items():
            pool += [Piece(colour, pips)] * left
    free = board.empty_squares()
    assert len(pool) == len(free), (len(pool), len(free))
    rng.shuffle(pool)
    if not target["threes"]:
        # nothing pinned (the 29-point board): start red as one connected region
        red = [p for p in pool if p.colour == "red"]
        region = [rng.choice(free)]
        while len(region) < len(red):
            region.append(rng.choice([q for sq in region for q in board.neighbours(sq)
                                      if board[q] is None and q not in region]))
        for sq, piece in zip(region, red):
            board[sq] = piece
        pool = [p for p in pool if p.colour != "red"]
    for sq, piece in zip(board.empty_squares(), pool):
        board[sq] = piece
    current = cost(board, target)
    temperature = 2.0
    for step in range(steps):
        if current == 0:
            return board
        a, b = rng.sample(free, 2)
        if board[a] == board[b]:
            continue
        board[a], board[b] = board[b], board[a]
        new = cost(board, target)
        if new <= current or rng.random() < math.exp((current - new) / temperature):
            current = new
        else:
            board[a], board[b] = board[b], board[a]
        temperature = max(0.05, 2.0 * (1 - step / steps))
    return None


def play_order(board: Board, colours: list[str], rng: random.Random, tries: int = 2000) -> list | None:
    """A legal order of play in turns (no passes) that ends on ``board``, found by random DFS."""
    targets = {sq: piece for sq, piece in board.pieces()}

    def search(position: Board, turn: int, order: list, budget: list) -> list | None:
        if len(order) == len(targets):
            return order
        budget[0] -= 1
        if budget[0] < 0:
            return None
        colour = colours[turn % len(colours)]
        options = [
            sq for sq, piece in targets.items()
            if piece.colour == colour and position[sq] is None and move_violation(position, piece, sq) is None
        ]
        # big pieces first keeps 1-pips placeable; shuffle within a size
        rng.shuffle(options)
        options.sort(key=lambda sq: -targets[sq].pips)
        for sq in options:
            position[sq] = targets[sq]
            found = search(position, turn + 1, order + [(targets[sq], sq)], budget)
            if found:
                return found
            position[sq] = None
        return None

    for _ in range(tries):
        start = Board(board.rows, board.cols)
        for park in board.parks():
            start[park] = PARK
        found = search(start, 0, [], [5000])
        if found:
            return found
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(TARGETS), choices=list(TARGETS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    for name in args.names:
        target = TARGETS[name]
        for attempt in range(20):
            board = anneal(target, rng)
            if board is None:
                continue
            order = play_order(board, target["colours"], rng)
            if order is None:
                continue
            print(f"; {name} (seed {args.seed}, attempt {attempt})")
            moves = " ".join(f"{piece.symbol}{sq.name}" for piece, sq in order)
            print(f"; order: {moves}")
            print(board.to_text())
            break
        else:
            print(f"{name}: nothing found", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
