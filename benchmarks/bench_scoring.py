"""Median time to score (and to check) an 8x8 four-player board, in-process.

    .venv/bin/python benchmarks/bench_scoring.py [--runs N] [--boards B]

Boards come from random legal play (fixed seeds). Each timing is the median over N runs of
scoring every one of B boards once, divided by B. Times are CPU time of this process
(time.process_time), so other work on a shared machine inflates them less.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorer.rules import check_position, random_game
from scorer.scoring import score_board


def median_seconds(func, boards, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        for board in boards:
            func(board)
        times.append((time.process_time() - start) / len(boards))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--boards", type=int, default=20)
    args = parser.parse_args(argv)
    boards = [random_game(random.Random(seed), 4) for seed in range(args.boards)]
    score = median_seconds(score_board, boards, args.runs)
    parks = median_seconds(lambda b: score_board(b, private_parks=True), boards, args.runs)
    check = median_seconds(check_position, boards, max(3, args.runs // 10))
    mid_game = [random_game(random.Random(seed), 4, moves=30) for seed in range(args.boards)]
    check_mid = median_seconds(check_position, mid_game, max(3, args.runs // 10))
    print(f"score_board, 8x8 finished 4-player board: median {score * 1e6:.0f} us ({args.runs} runs x {args.boards} boards)")
    print(f"score_board with Private Parks:             median {parks * 1e6:.0f} us")
    print(f"check_position (violations, turn, moves):   median {check * 1e3:.2f} ms")
    print(f"check_position, mid-game (30 pieces down):  median {check_mid * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
