"""Scoring: the rules' worked examples, the 29-point maximum, parks, ranking, invariances."""

import random
from pathlib import Path

from hypothesis import given, settings, strategies as st

from scorer.board import COLOURS, PARK, Board, Piece, Square
from scorer.rules import check_position, default_parks, move_violation, play_random_game, random_game
from scorer.scoring import score_board

SAMPLES = Path(__file__).resolve().parent.parent / "sample_boards"


def load(name: str) -> tuple[Board, str]:
    text = (SAMPLES / name).read_text()
    return Board.from_text(text), text


def order_of_play(text: str) -> list[tuple[Piece, Square]]:
    """The ``; order: r3E6 b3B6 ...`` comment of a sample board."""
    (line,) = [line for line in text.splitlines() if line.startswith("; order:")]
    return [(Piece.from_symbol(m[:2]), Square.parse(m[2:])) for m in line.split(":", 1)[1].split()]


def deductions_by_cell(report, colour) -> dict[str, tuple[int, int]]:
    """3-pip cell -> (1-pips Near it, points)."""
    return {d.cell.name: (len(d.one_pips), d.points) for d in report.players[colour].deductions}


def test_three_pip_example():
    board, _ = load("rules_three_pip_example.txt")
    report = score_board(board)
    assert deductions_by_cell(report, "red") == {"A2": (1, 0), "F2": (2, -1)}
    assert deductions_by_cell(report, "blue") == {"C2": (4, -3)}
    # the 3-pips are worth 3, 0 and 2
    assert [3 + p for _, p in (deductions_by_cell(report, "red")["A2"], deductions_by_cell(report, "blue")["C2"],
                               deductions_by_cell(report, "red")["F2"])] == [3, 0, 2]
    assert check_position(board, players=2).violations == []


def test_group_example():
    board, _ = load("rules_group_example.txt")
    report = score_board(board)
    red, blue = report.players["red"], report.players["blue"]
    assert len(red.groups) == 1 and red.total == red.pips - 1
    assert len(blue.groups) == 2 and blue.total == blue.pips - 2


def check_complete_game(name, colours, totals, groups, named_threes):
    board, text = load(name)
    report = score_board(board)
    assert [c for c, _, _ in report.ranking()] == colours
    for colour in colours:
        player = report.players[colour]
        assert player.total == totals[colour]
        assert player.pips == 30 and player.pips_by_size == {1: 5, 2: 10, 3: 15}
        assert len(player.groups) == groups[colour]
        for cell, (ones, points) in deductions_by_cell(report, colour).items():
            if (colour, cell) in named_threes:
                assert (ones, points) == named_threes[(colour, cell)], cell
            else:
                assert ones <= 1 and points == 0, cell  # no other 3-pip loses points
    assert {(c, cell) for c in colours for cell in deductions_by_cell(report, c)} >= set(named_threes)
    assert report.winners == [colours[0]]
    # a legal finished position: no violation, stashes spent, the setup's parks, game over
    check = check_position(board)
    assert check.violations == [] and check.game_over
    assert check.players == len(colours) and check.players_source == "board size"
    assert all(sum(s.values()) == 0 for s in check.stash.values())
    assert board.parks() == default_parks(len(colours))
    assert_order_of_play_reaches(board, text)


def assert_order_of_play_reaches(board: Board, text: str) -> None:
    """The order of play written in the file replays legally, in turn, from an empty board."""
    seats = colours_in_seat_order(text)
    replay = Board(board.rows, board.cols)
    for park in board.parks():
        replay[park] = PARK
    for i, (piece, square) in enumerate(order_of_play(text)):
        assert piece.colour == seats[i % len(seats)]
        assert move_violation(replay, piece, square) is None, (piece, square)
        replay[square] = piece
    assert replay == board


def colours_in_seat_order(text: str) -> list[str]:
    seats = []
    for piece, _ in order_of_play(text):
        if piece.colour in seats:
            break
        seats.append(piece.colour)
    return seats


def test_first_complete_game_red_24_blue_23():
    check_complete_game(
        "rules_game_2p.txt",
        ["red", "blue"],
        {"red": 24, "blue": 23},
        {"red": 4, "blue": 3},
        {
            ("red", "F2"): (2, -1), ("red", "E4"): (2, -1),
            ("blue", "C2"): (5, -3), ("blue", "B4"): (2, -1),
        },
    )


def test_second_complete_game_red_20_blue_17_green_14():
    check_complete_game(
        "rules_game_3p.txt",
        ["red", "blue", "green"],
        {"red": 20, "blue": 17, "green": 14},
        {"red": 6, "blue": 7, "green": 6},
        {
            ("red", "D4"): (2, -1), ("red", "B7"): (2, -1), ("red", "C2"): (3, -2),
            ("blue", "E6"): (4, -3), ("blue", "G6"): (2, -1), ("blue", "D3"): (2, -1), ("blue", "D1"): (2, -1),
            ("green", "E2"): (4, -3), ("green", "E4"): (4, -3), ("green", "A2"): (3, -2),
            ("green", "E7"): (2, -1), ("green", "B6"): (2, -1),
        },
    )


def test_the_best_possible_score_is_29():
    board, text = load("rules_best_29.txt")
    report = score_board(board)
    assert report.players["red"].total == 29
    assert len(report.players["red"].groups) == 1
    check = check_position(board)
    assert check.violations == [] and check.game_over
    assert board.parks() == default_parks(2)
    assert_order_of_play_reaches(board, text)


def test_deduction_is_capped_at_three_and_counts_one_pips_of_every_colour():
    board = Board.from_text("""
r1 b1 g1
b1 r3 r1
g1 b1 .
""")
    (d,) = score_board(board).players["red"].deductions
    assert len(d.one_pips) == 7 and d.points == -3  # the owner's own 1-pips count too


# --- Private Parks ------------------------------------------------------------------------

PARKS = """
# r2 . b2 #
r2 r3 . b2 b2
. . . . .
b1 r1 . r2 .
# b1 . r2 #
"""


def test_private_parks_strict_and_loose():
    board = Board.from_text(PARKS)
    plain = score_board(board)
    assert all(p.park_bonus == 0 for p in plain.players.values()) and "park_results" not in plain.to_dict()
    strict = score_board(board, private_parks=True)
    owners = {r.park.name: r.owner for r in strict.park_results}
    # A5: one red group (B5, A4, B4) holds A4, B4, B5; E5: blue holds D5, D4, E4 in one group;
    # A1: A2 and B2 hold blue and red, B1 blue: nobody; E1: D1, D2 red but E2 empty: nobody
    assert owners == {"A5": "red", "E5": "blue", "A1": None, "E1": None}
    assert strict.players["red"].park_bonus == 3 and strict.players["blue"].park_bonus == 3
    assert strict.players["red"].total == plain.players["red"].total + 3


def test_two_groups_around_a_park_pay_only_under_the_loose_reading():
    board = Board.from_text(". . .\nr2 # .\n# r2 .")  # park A1: A2 and B1 red, not Neighbouring
    strict = {r.park.name: r for r in score_board(board, private_parks=True).park_results}
    loose = score_board(board, private_parks=True, loose_parks=True)
    assert strict["A1"].owner is None and "2 groups" in strict["A1"].reason
    assert {r.park.name: r.owner for r in loose.park_results} == {"A1": "red", "B2": None}
    assert loose.players["red"].park_bonus == 3
    # loose_parks alone changes nothing
    assert score_board(board, loose_parks=True).players["red"].park_bonus == 0


def test_a_parks_reason_says_which_squares_near_it_count():
    strict = {r.park.name: r.reason for r in score_board(Board.from_text(PARKS), private_parks=True).park_results}
    assert strict["A5"] == "red holds every square Near it with one group"
    board = Board.from_text(". . . .\nr2 r2 . .\n# # b2 b2")  # A1's Near squares: A2, B2 and the park B1
    reasons = {r.park.name: r.reason for r in score_board(board, private_parks=True).park_results}
    assert reasons["A1"] == "red holds every square Near it but the parks with one group"
    loose = Board.from_text(". . .\nr2 # .\n# r2 .")
    reasons = {r.park.name: r.reason for r in score_board(loose, private_parks=True, loose_parks=True).park_results}
    assert reasons["A1"] == "red holds every square Near it but the parks with 2 groups, as the loose reading allows"


def test_a_three_pips_deduction_says_where_the_most_it_loses_stops_it():
    board = Board.from_text("r1 r1 r1\nb1 r3 b1\n. . .")
    (many,) = score_board(board).players["red"].deductions
    assert many.points == -3 and many.capped  # 5 1-pips Near: the first free, 4 more, at most 3
    board["A3"] = None
    board["B3"] = None
    (four,) = score_board(board).players["red"].deductions
    assert four.points == -2 and not four.capped and four.to_dict()["capped"] is False


def test_a_park_with_no_free_square_near_gives_nothing():
    board = Board.from_text("# # .\n# # .\nr2 r2 r2")
    results = score_board(board, private_parks=True).park_results
    assert {r.park.name: r.owner for r in results} == {"A3": None, "B3": None, "A2": "red", "B2": None}
    assert [r.reason for r in results if r.park.name == "A3"] == ["no non-park square is Near it"]


# --- ranking ------------------------------------------------------------------------------

def test_ties_share_a_rank_and_all_win():
    board = Board.from_text("r2 . b2\n. . .\ng3 . .")
    report = score_board(board)
    assert report.ranking() == [("green", 2, 1), ("red", 1, 2), ("blue", 1, 2)]
    assert report.winners == ["green"] and not report.to_dict()["tie"]
    board["C1"] = Piece("red", 2)  # red: 4 pips in 2 groups = 2, level with green
    report = score_board(board)
    assert report.ranking() == [("red", 2, 1), ("green", 2, 1), ("blue", 1, 3)]
    assert report.winners == ["red", "green"] and report.to_dict()["tie"]


def test_empty_board_has_no_winner():
    report = score_board(Board(6, 6))
    assert report.players == {} and report.winners == [] and report.to_dict()["ranking"] == []


def test_report_json_shape():
    board, _ = load("rules_game_2p.txt")
    data = score_board(board).to_dict()
    red = data["players"]["red"]
    assert red["total"] == 24 and red["pips"] == 30 and red["pips_by_size"] == {"1": 5, "2": 10, "3": 15}
    assert {"cells", "points"} <= set(red["groups"][0]) and all(g["points"] == -1 for g in red["groups"])
    assert {"cell", "one_pips", "points"} <= set(red["deductions"][0])
    assert red["park_bonus"] == 0 and red["parks"] == []
    # with Private Parks, red holds F1 (E1, E2, F2 are one red group)
    with_parks = score_board(board, private_parks=True).to_dict()
    assert with_parks["players"]["red"]["parks"] == [{"park": "F1", "cells": ["E1", "E2", "F2"], "points": 3}]
    assert with_parks["players"]["red"]["total"] == 27 and with_parks["players"]["red"]["park_bonus"] == 3
    assert len(with_parks["park_results"]) == 6
    assert data["ranking"][0] == {"colour": "red", "total": 24, "rank": 1}
    assert data["winners"] == ["red"]


# --- properties of random legal games -----------------------------------------------------

def totals(report) -> dict[str, int]:
    return {c: s.total for c, s in report.players.items()}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    threehouse=st.booleans(),
    finished=st.booleans(),
    private_parks=st.booleans(),
)
def test_scores_do_not_depend_on_how_the_board_is_turned_or_coloured(seed, players, threehouse, finished, private_parks):
    rng = random.Random(seed)
    moves = None if finished else rng.randrange(0, 3 * players * 5)
    board = random_game(rng, players, threehouse, moves=moves)
    base = totals(score_board(board, private_parks=private_parks))
    turned = board
    for _ in range(4):
        turned = turned.rotated()
        assert totals(score_board(turned, private_parks=private_parks)) == base
        assert totals(score_board(turned.mirrored(), private_parks=private_parks)) == base
    renaming = dict(zip(board.colours(), rng.sample(COLOURS, len(board.colours()))))
    renamed = totals(score_board(board.recoloured(renaming), private_parks=private_parks))
    assert renamed == {renaming[c]: t for c, t in base.items()}
    for colour, player in score_board(board).players.items():
        assert player.total <= player.pips - 1 <= 29


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_finished_two_player_games_score_at_most_29(seed):
    record = play_random_game(random.Random(seed), 2)
    for player in score_board(record.board).players.values():
        assert player.total <= 29
        pieces = sum(n // size for size, n in player.pips_by_size.items())
        assert sum(len(g.cells) for g in player.groups) == pieces  # the groups share out the pieces
        assert len(player.deductions) == player.pips_by_size.get(3, 0) // 3  # one per 3-pip
        assert player.total >= player.pips - len(player.groups) - 3 * len(player.deductions)
