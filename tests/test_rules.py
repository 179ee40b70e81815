"""Placement legality, stashes, whose turn, passes, game end and the position check."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from scorer.board import PARK, Board, Piece, Square, infer_stash, setup_for
from scorer.rules import (
    RULE_NOT_IN_STASH,
    RULE_OCCUPIED,
    RULE_ONE_UNROOTED,
    RULE_ONE_UNSUPPORTED,
    RULE_PARK,
    RULE_THREE_NEAR_THREE,
    RULE_TOO_MANY_COLOURS,
    RULE_TOO_MANY_PIECES,
    RULE_TURN_ORDER,
    check_position,
    counts_fit_turn_order,
    default_parks,
    legal_moves,
    merged_violations,
    move_violation,
    placeable_one_pips,
    placement_problem,
    play_random_game,
    random_game,
    remaining_stash,
)


def board(text: str) -> Board:
    return Board.from_text(text)


def rules_broken(b: Board, **kwargs) -> dict[str, set[str | None]]:
    """rule -> the cells flagged for it."""
    found: dict[str, set] = {}
    for v in check_position(b, **kwargs).violations:
        found.setdefault(v.rule, set()).add(v.cell)
    return found


# --- single placements --------------------------------------------------------------------

SMALL = board("""
. . . .
. r3 . #
. . b2 .
r1 . . .
""")


@pytest.mark.parametrize(
    "piece, square, rule",
    [
        ("b2", "B3", RULE_OCCUPIED),
        ("b2", "D3", RULE_PARK),
        ("r3", "C4", RULE_THREE_NEAR_THREE),  # Near the red 3-pip on B3
        ("r3", "A2", RULE_THREE_NEAR_THREE),
        ("b1", "D1", RULE_ONE_UNSUPPORTED),  # nothing Near
        ("r1", "A4", RULE_ONE_UNSUPPORTED),  # Near only its own colour's 3-pip
        ("r1", "D2", RULE_ONE_UNSUPPORTED),  # Near a blue 2-pip only: 2-pips give no support
    ],
)
def test_illegal_placements_name_their_rule(piece, square, rule):
    problem = placement_problem(SMALL, Piece.from_symbol(piece), square)
    assert problem is not None and problem[0] == rule
    assert square in move_violation(SMALL, Piece.from_symbol(piece), square)


@pytest.mark.parametrize(
    "piece, square",
    [
        ("b3", "C4"),  # another colour's 3-pip may sit Near it
        ("r3", "D1"),  # two squares away from the red 3-pip
        ("b1", "A4"),  # Near the red 3-pip
        ("b1", "B2"),  # Near the red 1-pip on A1 (and the red 3-pip)
        ("r2", "D4"),  # 2-pips go anywhere empty
        ("b2", "A2"),
    ],
)
def test_legal_placements(piece, square):
    assert move_violation(SMALL, Piece.from_symbol(piece), square) is None


def test_a_player_cannot_place_what_it_no_longer_holds():
    b = board("r2 r2 r2 . .\nr2 r2 . . .\n. . . . .")
    assert placement_problem(b, Piece("red", 2), "E1")[0] == RULE_NOT_IN_STASH
    assert legal_moves(b, "red", 2) == []
    assert legal_moves(b, "red", 2, stash={2: 1}) != []  # a stash given explicitly wins
    assert legal_moves(b, "red", 2, stash={"2": 0}) == []  # JSON-style keys work too
    assert remaining_stash(b, "red") == {1: 5, 2: 0, 3: 5}
    assert remaining_stash(b, "red", trios=3) == {1: 3, 2: 0, 3: 3}


def test_legal_moves_agree_with_move_violation():
    rng = random.Random(7)
    for _ in range(5):
        b = random_game(rng, 3, moves=rng.randrange(5, 30))
        for colour in ("red", "blue", "green"):
            for pips in (1, 2, 3):
                piece = Piece(colour, pips)
                expected = [sq for sq in b.empty_squares() if move_violation(b, piece, sq) is None]
                assert legal_moves(b, colour, pips) == expected


# --- the position check: 1-pips -----------------------------------------------------------

def test_a_chain_of_one_pips_rooted_at_an_other_colour_three_pip_is_fine():
    b = board("""
. . . . .
. . . . b1
. . . r1 .
. . b1 . .
. r3 . . .
""")
    assert placeable_one_pips(b) == {Square.parse(n) for n in ("C2", "D3", "E4")}
    assert rules_broken(b, players=2) == {}


def test_a_chain_of_one_pips_with_no_three_pip_at_its_root_is_flagged():
    b = board("""
. . . . .
. . . . b1
. . . r1 .
. . b1 . .
. b2 r2 . r3
""")
    broken = rules_broken(b, players=2)
    assert broken == {RULE_ONE_UNROOTED: {"C2", "D3", "E4"}}


def test_a_ring_of_one_pips_supporting_only_each_other_is_flagged():
    b = board("""
. . . . .
. r1 b1 . .
. b1 r1 . .
. . . . .
. . . . b3
""")
    assert rules_broken(b, players=2) == {RULE_ONE_UNROOTED: {"B3", "C3", "B4", "C4"}}
    # an other-colour 3-pip Near one member roots the whole ring
    b["A2"] = Piece("red", 3)
    assert rules_broken(b, players=2) == {}


def test_a_three_pip_of_the_same_colour_does_not_root_a_chain():
    b = board("""
. . . .
. . b1 .
. r1 . .
r3 . b3 .
""")
    # B2 red is Near red A1 (own colour: no support) and blue C3 1-pip; C3 leans only on B2.
    # But the blue 3-pip on C1 is Near B2, so B2 is rooted after all.
    assert rules_broken(b, players=2) == {}
    b["C1"] = Piece("blue", 2)
    assert rules_broken(b, players=2) == {RULE_ONE_UNROOTED: {"B2", "C3"}}


def test_a_lone_one_pip_and_same_colour_three_pips_are_flagged():
    b = board("""
r1 . . .
. . . .
. b3 . .
b3 . . r2
""")
    broken = rules_broken(b, players=2)
    assert broken == {RULE_ONE_UNSUPPORTED: {"A4"}, RULE_THREE_NEAR_THREE: {"A1", "B2"}}


def test_a_three_pip_near_two_others_names_them_in_the_plural():
    messages = {v.cell: v.message for v in check_position(board("r3 r3 .\nr3 b1 .\nb3 . r1\n"), players=2).violations
                if v.rule == RULE_THREE_NEAR_THREE}
    assert messages["A2"] == "the red 3-pip on A2 is Near the red 3-pips on A3 and B3"
    assert messages["B3"] == "the red 3-pip on B3 is Near the red 3-pips on A2 and A3"


def test_problems_tell_a_rule_broken_on_the_same_squares_once():
    # a pair of red 3-pips, a chain of three blue ones, a lone unsupported 1-pip, and a whole-board rule
    b = board("r3 r3 . . . .\n. . . . . .\n. . . . . .\n. . . . . g1\nb3 b3 b3 . . .\n. . . . . .\n")
    report = check_position(b, players=2)
    assert len([v for v in report.violations if v.rule == RULE_THREE_NEAR_THREE]) == 5  # one a square
    problems = [(v.cell, v.rule, v.message, v.cells) for v in report.problems]
    assert set(problems[:5]) == {
        # a chain: a problem a square (B2's the middle one's), as one of them may be misread
        ("A2", RULE_THREE_NEAR_THREE, "the blue 3-pip on A2 is Near the blue 3-pip on B2", ("A2", "B2")),
        ("B2", RULE_THREE_NEAR_THREE, "the blue 3-pip on B2 is Near the blue 3-pips on A2 and C2", ("B2", "A2", "C2")),
        ("C2", RULE_THREE_NEAR_THREE, "the blue 3-pip on C2 is Near the blue 3-pip on B2", ("C2", "B2")),
        (None, RULE_THREE_NEAR_THREE, "the red 3-pips on A6 and B6 are Near each other", ("A6", "B6")),
        ("F3", RULE_ONE_UNSUPPORTED, "the green 1-pip on F3 has no 1-pip or 3-pip of another colour Near it", ("F3",)),
    }
    assert {v.rule for v in report.problems[5:]} == {RULE_TOO_MANY_COLOURS, RULE_TURN_ORDER}
    assert ["A6", "B6"] in [p["cells"] for p in report.to_dict()["problems"]]
    # the 1-pips of an unrooted cluster: one problem naming them all
    ring = board("r1 b1 .\nb1 r1 .\n. . .\n")
    (problem,) = [v for v in merged_violations(ring, check_position(ring, players=2).violations) if v.rule == RULE_ONE_UNROOTED]
    assert problem.cells == ("A2", "B2", "A3", "B3") and problem.message.startswith(
        "the 1-pips on A2, B2, A3 and B3 lean only on each other")
    assert merged_violations(b, []) == []
    # a T of 3-pips (diagonals are Near): B4's and B5's violations name the same four squares,
    # but A4 and C4 are not Near each other: a problem a square
    tee = board("r3 r3 r3 .\n. r3 . .\n. . . .\n. . . b1\n")
    tee_problems = merged_violations(tee, check_position(tee, players=2).violations)
    assert sorted(v.cell for v in tee_problems if v.rule == RULE_THREE_NEAR_THREE) == ["A4", "B3", "B4", "C4"]


def test_too_many_pieces_of_one_size():
    b = board("""
b2 b2 b2 . . .
b2 b2 . . . .
r3 . r3 . r3 .
. . . . . .
r3 . r3 . r3 .
. . . . . .
""")
    flagged = [v for v in check_position(b, players=2).violations if v.rule == RULE_TOO_MANY_PIECES]
    assert [v.message for v in flagged] == ["red has 6 3-pips on the board; a stash holds 5"]
    assert flagged[0].cell is None and len(flagged[0].cells) == 6
    # ThreeHouse stashes hold 3 of each size: the five blue 2-pips are then too many as well
    messages = [v.message for v in check_position(b, players=2, threehouse=True).violations]
    assert "blue has 5 2-pips on the board; a stash holds 3" in messages


def test_more_colours_than_players():
    b = board("r2 . .\n. b2 .\n. . g2")
    assert RULE_TOO_MANY_COLOURS in rules_broken(b, players=2)
    assert RULE_TOO_MANY_COLOURS not in rules_broken(b, players=3)


# --- whose turn and turn order ------------------------------------------------------------

EMPTY_2P = "# . . . . #\n. . . . . .\n. . . # . .\n. . # . . .\n. . . . . .\n# . . . . #\n"  # default parks


def test_whose_turn_from_the_counts():
    b = board(EMPTY_2P)
    report = check_position(b)
    assert report.players == 2 and report.players_source == "board size"
    assert report.unseen_players == 2 and report.unseen_player_may_move and report.to_move is None
    assert not report.game_over and report.must_pass == []
    b["B2"] = Piece("red", 2)
    report = check_position(b)
    assert report.unseen_players == 1 and report.to_move is None and report.unseen_player_may_move
    b["E5"] = Piece("blue", 3)
    report = check_position(b)
    # equal counts: whoever went first moves, and the board cannot say who that was
    assert report.to_move is None and report.to_move_candidates == ["red", "blue"]
    b["E2"] = Piece("blue", 2)
    report = check_position(b)
    assert report.to_move == "red" and report.to_move_candidates == ["red"]
    assert report.stash["blue"] == {1: 5, 2: 4, 3: 4}
    assert not report.violations and not report.game_over


def test_counts_two_apart_are_impossible_while_both_players_hold_two_pips():
    b = board(EMPTY_2P)
    for name in ("B2", "B3", "E2"):
        b[name] = Piece("red", 2)
    b["E5"] = Piece("blue", 2)
    assert RULE_TURN_ORDER in rules_broken(b)
    assert check_position(b).to_move is None


def test_nobody_is_far_ahead_of_a_player_who_still_holds_a_two_pip():
    # blue still holds a 2-pip so it never passed; red is 2 placements ahead of it
    b = board("""
r3 r2 r3 r2 r3
r2 . . . .
r3 . r3 . r2
r1 b1 r1 b2 .
. . . . .
""")
    assert RULE_TURN_ORDER in rules_broken(b, players=2)


def test_a_player_out_of_options_may_fall_behind():
    # Blue holds only 1-pips and no square they could go on is free (F6 is Near no red
    # 1-pip or 3-pip): blue had to pass while red kept placing, so red may be 2 ahead.
    b = board("""
b3 r1 b3 r1 b3 .
b2 b2 b2 b2 b2 #
r3 b3 # r3 b3 #
# # # # # #
r3 r2 r3 r2 r3 #
r2 # r2 # r2 #
""")
    report = check_position(b, players=2)
    assert report.violations == []
    assert report.must_pass == ["blue"]
    assert report.to_move == "red"
    assert [sq.name for sq in report.legal_moves["red"][1]] == ["F6"]
    assert not report.game_over
    # the same counts while blue still holds a 2-pip are impossible: blue never passed
    b["E5"] = Piece("blue", 1)
    assert RULE_TURN_ORDER in rules_broken(b, players=2)


def test_the_game_ends_when_nobody_can_place():
    full = random_game(random.Random(3), 2)
    assert full.empty_squares() == []
    report = check_position(full)
    assert report.game_over and report.to_move is None
    assert set(report.must_pass) == {"red", "blue"}
    # a game can end with empty squares, when nobody's remaining pieces may go on them
    ended = [b for b in (random_game(random.Random(seed), 2) for seed in range(40)) if b.empty_squares()]
    assert ended
    for b in ended:
        report = check_position(b)
        assert report.game_over and not report.violations
        assert sum(sum(s.values()) for s in report.stash.values()) >= len(b.empty_squares())


# --- random play --------------------------------------------------------------------------

@pytest.mark.parametrize("players, threehouse", [(2, False), (3, False), (4, False), (2, True), (3, True), (4, True)])
def test_default_parks_fill_the_board_to_the_stash(players, threehouse):
    setup = setup_for(players, threehouse)
    parks = default_parks(players, threehouse)
    assert len(parks) == setup.parks
    b = random_game(random.Random(players), players, threehouse)
    assert b.rows == b.cols == setup.size and b.parks() == parks


def test_default_parks_for_two_players_are_abstract_plays():
    assert [sq.name for sq in default_parks(2)] == ["A1", "A6", "C3", "D4", "F1", "F6"]
    assert [sq.name for sq in default_parks(4)] == ["A1", "A8", "H1", "H8"]


def test_random_game_options():
    b = random_game(random.Random(1), ["cyan", "white"], parks=["A1", "B2"], moves=6)
    assert b.colours() == ["cyan", "white"] and b.parks() == [Square.parse("A1"), Square.parse("B2")]
    assert len(list(b.pieces())) == 6
    with pytest.raises(ValueError):
        random_game(random.Random(1), ["red", "red"])


def replay(record):
    """Replay a random game's turns, checking each against the rules and the position check."""
    b = Board(record.board.rows, record.board.cols)
    for park in record.board.parks():
        b[park] = PARK
    stashes = {c: remaining_stash(b, c, record.trios) for c in record.colours}
    turns = record.turns
    for i, (colour, piece, square) in enumerate(turns):
        if piece is None:
            assert not any(legal_moves(b, colour, p, stashes[colour]) for p in (1, 2, 3)), "passed with a move"
            continue
        assert move_violation(b, piece, square, stashes[colour]) is None
        b[square] = piece
        stashes[colour][piece.pips] -= 1
        yield i, b


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), threehouse=st.booleans())
def test_positions_from_legal_play_are_never_flagged_and_the_next_player_is_a_candidate(seed, players, threehouse):
    record = play_random_game(random.Random(seed), players, threehouse)
    assert record.finished
    turns = record.turns
    for i, b in replay(record):
        report = check_position(b, players=players, threehouse=threehouse)
        assert report.violations == [], (b.to_text(), report.violations)
        later = [t for t in turns[i + 1:] if t[1] is not None]
        seated = check_position(b, threehouse=threehouse, seats=record.colours)
        if later:
            actual = later[0][0]
            assert actual in report.to_move_candidates or report.unseen_player_may_move
            assert report.to_move in (None, actual) and seated.to_move in (None, actual)
            assert not report.game_over
            if not any(piece is None for _, piece, _ in turns[:i + 1]):  # nobody has passed: the likeliest is right
                assert report.to_move_likeliest in (None, actual) and seated.to_move_likeliest in (None, actual)
                assert actual in (seated.to_move, seated.to_move_likeliest)  # the order of play known: always said
        else:
            assert report.game_over
        for colour, stash in report.stash.items():
            placed = sum(1 for _, p in b.pieces() if p.colour == colour)
            assert sum(stash.values()) == 3 * record.trios - placed


def turn_analysis_by_seat_orders(counts, steady, can_move, orders=None):
    """Reference for ``turn_analysis``: every seat order, turn count and seat, spelled out."""
    from itertools import permutations

    players = sorted(counts)
    orders = list(permutations(players)) if orders is None else orders
    if not any(counts.values()):
        firsts = [next((p for p in order if p in can_move), None) for order in orders]
        return True, {p for p in firsts if p}
    feasible, candidates = False, set()
    for order in orders:
        for r in range(len(players)):
            for k in range(0, max(counts.values()) + 2):
                turns = {p: k + 1 if i < r else k for i, p in enumerate(order)}
                if any(counts[p] > turns[p] or (p in steady and counts[p] != turns[p]) for p in players):
                    continue
                if counts[order[r - 1] if r else order[-1]] == 0:
                    continue
                feasible = True
                for step in range(len(players)):
                    p = order[(r + step) % len(players)]
                    if p in can_move:
                        candidates.add(p)
                        break
    return feasible, candidates


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["red", "blue", "green", "yellow"]), st.integers(0, 6), min_size=1, max_size=4),
    st.data(),
)
def test_turn_analysis_matches_the_seat_order_reference(counts, data):
    from scorer.rules import turn_analysis

    steady = data.draw(st.sets(st.sampled_from(sorted(counts))))
    can_move = data.draw(st.sets(st.sampled_from(sorted(counts))))
    result = turn_analysis(counts, steady, can_move)
    assert (result.feasible, set(result.candidates)) == turn_analysis_by_seat_orders(counts, steady, can_move)


def test_players_come_from_the_setup_table_or_the_colours():
    assert check_position(Board(7, 7)).players == 3
    assert check_position(Board(8, 8)).players == 4
    assert check_position(Board(5, 5), threehouse=True).players == 2
    # ThreeHouse 6x6 is for 3 players (9 parks) or 4 (none): the parks decide when clear,
    report = check_position(board("r2 b2 . . . .\n" + ". . . . . .\n" * 5), threehouse=True)
    assert (report.players, report.players_source, report.trios, report.unseen_players) == (4, "board size and parks", 3, 2)
    # else the colours, at least 3
    four_parks = board("r2 b2 g2 y2 # #\n# . . . . .\n# . . . . .\n" + ". . . . . .\n" * 3)
    report = check_position(four_parks, threehouse=True)
    assert (report.players, report.players_source) == (4, "colours on board")
    assert check_position(board("# # # . . .\n" + ". . . . . .\n" * 5), threehouse=True).players == 3
    assert check_position(Board(6, 6), players=3).players_source == "given"
    assert not any("setup table's" in note for note in report.notes)  # 4 players fit ThreeHouse 6x6


def test_more_colours_than_the_boards_setup_has_players_is_noted():
    # Standard 6x6 is the 2-player setup: three colours on it are checked as a 3-player game, and said.
    three = board("# . . . . #\n. . . . . .\n. . # . . .\n. . . # . .\n. . . . . .\n# r2 b2 g2 . #")
    report = check_position(three)
    assert (report.players, report.players_source, report.violations) == (3, "colours on board", [])
    assert "the setup table's 6x6 board is for 2 players, but 3 colours are on this one: " \
           "checked as a 3-player game" in report.notes
    two = board("# . . . . #\n. . . . . .\n. . # . . .\n. . . # . .\n. . . . . .\n# r2 b2 . . #")
    assert not any("setup table's" in note for note in check_position(two).notes)
    assert not any("setup table's" in note for note in check_position(three, players=3).notes)  # told


def test_stash_is_inferred_from_the_boards_size_and_parks():
    assert infer_stash(5, 7).threehouse and not infer_stash(5, 7).close  # 5x5 is only ThreeHouse
    assert not infer_stash(7, 4).threehouse and not infer_stash(8, 3).threehouse  # only standard
    # 6x6: standard for two (6 parks), ThreeHouse for three (9) or four (none)
    assert (infer_stash(6, 6).threehouse, infer_stash(6, 9).threehouse, infer_stash(6, 0).threehouse) == (False, True, True)
    assert not any(infer_stash(6, n).close for n in (0, 1, 5, 6, 9, 10))
    assert infer_stash(6, 7).close and infer_stash(6, 8).close and infer_stash(6, 3).close
    assert infer_stash(6, 7).doubt().startswith("unsure of the stash: 7 parks on a 6x6 board")
    assert infer_stash(6, 6).doubt() is None
    assert not infer_stash(6, 9, players=2).threehouse and infer_stash(6, 6, players=3).threehouse
    assert not infer_stash(9, 0).threehouse  # off the setup table: standard
    assert infer_stash(5, 0, players=3).threehouse  # no 3-player 5x5: the size alone decides


def test_the_colours_seen_settle_a_close_stash_call():
    # 7 parks: one off a standard game's 6, two off ThreeHouse's 9 (three players).
    assert infer_stash(6, 7).contenders == (2, 3) and not infer_stash(6, 7).threehouse
    settled = infer_stash(6, 7, colours_seen=3)
    assert settled.threehouse and settled.close  # still marked close: the player may know better
    assert settled.doubt().startswith("unsure of the stash: 7 parks and 3 colours on a 6x6 board "
                                      "(standard for 2 players has 6 parks, ThreeHouse for 3 players 9), read as ThreeHouse")
    assert infer_stash(6, 3).why() == "3 parks on a 6x6 board (standard for 2 players has 6 parks, ThreeHouse for 4 players none)"
    assert infer_stash(6, 6).why() is None  # not a close call
    # 8 parks fit ThreeHouse's 9 better: two colours there are likelier two players' pieces
    # seen as one colour (cyan and clear) than two pieces or bare squares read as parks
    assert infer_stash(6, 8, colours_seen=2).threehouse and infer_stash(6, 8, colours_seen=2).close
    assert not infer_stash(6, 7, colours_seen=2).threehouse  # 7 fit a standard game's 6 better
    assert infer_stash(6, 3).contenders == (2, 4) and infer_stash(6, 3, colours_seen=4).threehouse
    # a count no contender has says nothing
    assert not infer_stash(6, 7, colours_seen=4).threehouse and "colours" not in infer_stash(6, 7, colours_seen=4).doubt()
    assert infer_stash(6, 7, players=2, colours_seen=3).threehouse is False  # players given: not inferred


def test_more_colours_than_the_parks_setup_has_players_outvote_a_few_markers_taken_for_pieces():
    # 6 parks fit a standard two-player game exactly, and the call is not close, but three
    # colours shown clearly say three players: ThreeHouse's 9 parks, three markers (odd tokens)
    # read as pieces. Still warned, with the colours in the warning.
    plain = infer_stash(6, 6)
    assert not plain.threehouse and not plain.close and plain.contenders == (2, 3)
    outvoted = infer_stash(6, 6, colours_seen=3)
    assert outvoted.threehouse and outvoted.close and outvoted.colours_seen == 3
    assert outvoted.doubt().startswith("unsure of the stash: 6 parks and 3 colours on a 6x6 board "
                                       "(standard for 2 players has 6 parks, ThreeHouse for 3 players 9), read as ThreeHouse")
    # Two colours agree with the parks; four players' ThreeHouse (no parks) is too far off 6.
    assert not infer_stash(6, 6, colours_seen=2).threehouse and infer_stash(6, 6, colours_seen=2).doubt() is None
    assert not infer_stash(6, 6, colours_seen=4).threehouse and infer_stash(6, 6, colours_seen=4).doubt() is None
    # Parks further than COLOURS_OVER_PARKS off ThreeHouse's 9 are not outvoted (nothing to ask).
    assert infer_stash(6, 5).contenders == () and not infer_stash(6, 5, colours_seen=3).threehouse
    # Fewer colours than the parks' setup has players do not outvote it.
    assert infer_stash(6, 9, colours_seen=2).threehouse and not infer_stash(6, 9, colours_seen=2).close
    assert not infer_stash(6, 6, players=2, colours_seen=3).threehouse  # players given: not inferred
    # A board's text keeps its stash from its parks: its colours settle close calls only.
    board = Board.from_text("# r3 b2 g1 . #\n. r1 b1 g3 . .\ng2 . b3 . r2 .\n. . . . . .\n. # . g1 b1 r1\n# r2 . # . #\n")
    assert len(board.parks()) == 6 and check_position(board, threehouse=None).trios == 5



def test_a_fifth_colour_is_one_too_many():
    five = Board.from_text("r2 b2 g2\ny2 p2 .\n. . .\n")
    report = check_position(five)
    assert report.players == 4
    assert [v.rule for v in report.violations if v.cell is None][:1] == ["too_many_colours"]
    assert "5 colours on the board" in report.violations[0].message

def test_check_position_infers_the_stash_when_not_given():
    five = check_position(Board(5, 5), threehouse=None)
    assert (five.trios, five.players, five.stash_inferred) == (3, 2, True)
    assert five.to_dict()["threehouse"] and five.to_dict()["stash_inferred"]
    assert check_position(board(EMPTY_2P), threehouse=None).trios == 5  # 6 parks: standard
    nine = board(EMPTY_2P)
    for name in ("B2", "E5", "C5"):
        nine[name] = PARK
    assert check_position(nine, threehouse=None).trios == 3  # 9 parks: ThreeHouse for three
    seven = board(EMPTY_2P)
    seven["B2"] = PARK
    close = check_position(seven, threehouse=None)
    assert close.trios == 5 and any(n.startswith("unsure of the stash") for n in close.notes)
    assert close.stash_unsure and close.to_dict()["stash_unsure"] and not five.stash_unsure
    seven["A2"], seven["C2"], seven["E2"] = Piece("red", 1), Piece("blue", 1), Piece("green", 1)
    three = check_position(seven, threehouse=None)  # three colours on it: ThreeHouse for three
    assert three.trios == 3 and any(n.startswith("unsure of the stash: 7 parks and 3 colours") for n in three.notes)
    eight = board(EMPTY_2P)
    eight["B2"], eight["E5"] = PARK, PARK
    eight["A2"], eight["C2"] = Piece("red", 1), Piece("blue", 1)
    early = check_position(eight, threehouse=None)  # two colours two moves in: a third player may be next
    assert early.trios == 3 and any(n.startswith("unsure of the stash: 8 parks on a 6x6") for n in early.notes)
    # four of one colour and size: no ThreeHouse stash holds them, whatever the parks say
    for name in ("B1", "C1", "D1", "E1"):
        eight[name] = Piece("red", 2)
    counted = check_position(eight, threehouse=None)
    assert counted.trios == 5 and not any(v.rule == "too_many_pieces" for v in counted.violations)
    assert any(n.startswith("red has 4 2-pips on the board, more than a ThreeHouse stash holds (3): checked as a "
                            "standard game") for n in counted.notes)
    assert not any(n.startswith("unsure of the stash") for n in counted.notes) and not counted.stash_unsure
    three = check_position(eight, threehouse=None, players=3)  # three players on a 6x6 play ThreeHouse only
    assert three.trios == 3 and any(v.rule == "too_many_pieces" for v in three.violations)
    crowded = Board(5, 5)  # a 5x5 is only ThreeHouse: there the count is a violation
    for name in ("A1", "B1", "C1", "D1"):
        crowded[name] = Piece("red", 2)
    assert any(v.rule == "too_many_pieces" for v in check_position(crowded, threehouse=None).violations)
    # the seats narrow it like a player count: three players on a 6x6 with 7 parks play ThreeHouse
    assert check_position(seven, threehouse=None, seats=["red", "blue", "green"]).trios == 3
    # given, it is not inferred: a 5x5 checked as standard stays standard
    given = check_position(Board(5, 5), players=2, threehouse=False)
    assert (given.trios, given.stash_inferred) == (5, False)


def test_a_turn_order_violation_names_the_order_of_play_it_was_checked_with():
    b = board(EMPTY_2P)
    b["B2"], b["E5"], b["B5"] = Piece.from_symbol("r2"), Piece.from_symbol("r2"), Piece.from_symbol("b2")
    assert check_position(b).violations == []  # red first, then blue: red is a placement ahead
    (violation,) = check_position(b, seats=["blue", "red"]).violations  # blue first: red cannot be ahead
    assert violation.rule == RULE_TURN_ORDER
    assert violation.message == ("the pieces placed (blue 1, red 2) cannot come from players taking turns in the "
                                 "order of play given (blue, red): nobody gets more than one piece ahead of a player "
                                 "who never had to pass, nor ahead of one who plays before them")


def test_a_turn_order_violation_names_the_players_furthest_apart():
    b = board(EMPTY_2P)
    for cell, symbol in [("B2", "r2"), ("E5", "r2"), ("B5", "r2"), ("E2", "b2")]:
        b[cell] = Piece.from_symbol(symbol)
    (violation,) = check_position(b).violations
    assert violation.rule == RULE_TURN_ORDER and violation.message == (
        "red has placed 2 more pieces than blue, but players take turns: nobody gets more than one piece ahead "
        "of a player who never had to pass (pieces placed: red 3, blue 1)")
    b["C2"] = Piece.from_symbol("p2")  # not a player, with the order of play given: not named as one
    turn = [v for v in check_position(b, seats=["red", "blue"]).violations if v.rule == RULE_TURN_ORDER]
    assert len(turn) == 1 and turn[0].message.startswith("red has placed 2 more pieces than blue, but players take "
                                                          "turns in the order of play given (red, blue): ")
    b["C2"] = None
    b["E2"] = None  # blue not down yet: the player with none
    (violation,) = check_position(b, players=2).violations
    assert violation.message.startswith("red has placed 3 more pieces than the player with none, but")
    b["B5"] = None  # red one placement ahead of blue, who played first: nothing more to say
    b["E2"] = Piece.from_symbol("b2")
    (violation,) = check_position(b, seats=["blue", "red"]).violations
    assert violation.message.startswith("the pieces placed (blue 1, red 2) cannot come from players taking turns")


def test_a_park_count_off_the_setup_table_is_noted_not_flagged():
    b = board(EMPTY_2P)
    b["C3"] = None
    report = check_position(b)
    assert report.violations == []
    assert report.notes == ["2 players have no piece on the board yet",
                            "the setup table has 6 parks for 2 players on 6x6: place them before the first move "
                            "(this board has 5)"]
    assert report.usual_parks == default_parks(2) and report.to_dict()["usual_parks"] == ["A1", "A6", "C3", "D4", "F1", "F6"]
    b["A2"] = Piece.from_symbol("r1")
    assert check_position(b).notes[-1] == "the setup table has 6 parks for 2 players on 6x6; this board has 5"
    assert check_position(b).usual_parks is None  # the game has begun: the parks stand where they are
    own = board(EMPTY_2P)
    own["C3"] = None
    own["B2"] = PARK
    own["A1"] = None
    assert check_position(own).usual_parks is None  # 5 parks laid out another way: not topped up to 7
    many = board(EMPTY_2P)
    many["B2"] = PARK
    assert check_position(many).notes[-1] == "the setup table has 6 parks for 2 players on 6x6; this board has 7"


def test_a_player_count_taken_from_the_board_size_yields_to_the_counts():
    # 7x7 says three players, but two colours with 3 and 2 pieces fit only two players
    b = Board(7, 7)
    for name, symbol in (("B2", "r2"), ("D2", "r2"), ("F2", "r2"), ("B5", "b2"), ("D5", "b2")):
        b[name] = Piece.from_symbol(symbol)
    report = check_position(b)
    assert report.violations == [] and report.players == 2 and report.to_move == "blue"
    assert "the piece counts fit only" in report.notes[0]
    # a player count given on purpose is believed
    assert RULE_TURN_ORDER in rules_broken(b, players=3)


@settings(max_examples=200, deadline=None)
@given(
    st.permutations(["red", "blue", "green", "yellow"]).flatmap(
        lambda order: st.integers(2, 4).map(lambda n: order[:n])
    ),
    st.data(),
)
def test_turn_analysis_in_known_seats_matches_the_reference(seats, data):
    from scorer.rules import turn_analysis

    counts = {p: data.draw(st.integers(0, 6)) for p in seats}
    steady = data.draw(st.sets(st.sampled_from(seats)))
    can_move = data.draw(st.sets(st.sampled_from(seats)))
    result = turn_analysis(counts, steady, can_move, seats=seats)
    expected = turn_analysis_by_seat_orders(counts, steady, can_move, orders=[tuple(seats)])
    assert (result.feasible, set(result.candidates)) == expected


LATE_2P = """\
# b3 b1 b2 b3 #
r1 r3 r2 r3 . b2
b3 r2 r2 # b2 .
r2 r3 # r2 r1 r3
b2 b3 b1 r3 b3 b1
# r1 b1 b1 r1 #
"""


def test_late_in_a_game_the_turn_if_nobody_passed_is_said_first():
    # 14 pieces each; blue still holds a 2-pip (it never passed), red only a 1-pip: red may
    # once have had no legal move and passed, when blue would move now
    b = board(LATE_2P)
    seated = check_position(b, seats=["red", "blue"])
    assert seated.to_move is None and seated.to_move_candidates == ["red", "blue"]
    assert seated.to_move_likeliest == "red" and seated.to_dict()["to_move_likeliest"] == "red"
    assert check_position(b, seats=["blue", "red"]).to_move == "blue"  # red ahead of a first seat that never passed: no
    unseated = check_position(b)  # who started is not known: no likelier player
    assert unseated.to_move is None and unseated.to_move_likeliest is None
    b["E5"] = Piece("red", 1)  # red places its last: blue to move, whatever the history
    report = check_position(b, seats=["red", "blue"])
    assert report.to_move == "blue" and report.to_move_likeliest is None


def test_known_seats_say_whose_turn_it_is():
    b = board(EMPTY_2P)
    report = check_position(b, seats=["blue", "red"])
    assert report.to_move == "blue" and report.stash["red"] == {1: 5, 2: 5, 3: 5}
    assert report.players_source == "seats" and report.unseen_players == 0
    b["B2"] = Piece("red", 2)
    b["E5"] = Piece("blue", 3)
    assert check_position(b).to_move is None  # equal counts, first player unknown
    assert check_position(b, seats=["red", "blue"]).to_move == "red"
    assert check_position(b, seats=["blue", "red"]).to_move == "blue"
    # red cannot be ahead when blue sits first and never had to pass
    b["E2"] = None
    b["B5"] = Piece("red", 2)
    assert RULE_TURN_ORDER in rules_broken(b, seats=["blue", "red"])
    assert RULE_TURN_ORDER not in rules_broken(b, seats=["red", "blue"])
    # a colour on the board that is not seated
    b["D6"] = Piece("green", 2)
    report = check_position(b, seats=["red", "blue"])
    assert [v.cells for v in report.violations if v.rule == RULE_TOO_MANY_COLOURS] == [("D6",)]
    assert report.to_dict()["seats"] == ["red", "blue"]


def test_the_setup_of_a_play_area_comes_from_its_parks_when_they_are_clear():
    from scorer.board import setup_of_area

    assert setup_of_area(7, 7, False, None, 0).players == 3  # one setup for the size
    assert setup_of_area(6, 6, True, 3, 0).players == 3  # given
    # ThreeHouse 6x6: 9 parks for three players, none for four; parks are there from the start
    assert setup_of_area(6, 6, True, None, 1).players == 4
    assert setup_of_area(6, 6, True, None, 8).players == 3
    assert setup_of_area(6, 6, True, None, 2).players == 4 and setup_of_area(6, 6, True, None, 7).players == 3
    assert setup_of_area(6, 6, True, None, 3) is None and setup_of_area(6, 6, True, None, 6) is None  # left to the colours
    # a full board: 27 pieces and 9 parks, or 36 pieces
    assert setup_of_area(6, 6, True, None, 6, pieces_seen=30).players == 3
    assert setup_of_area(6, 6, True, None, 3, pieces_seen=33).players == 4
    assert setup_of_area(9, 9, False, None, 0) is None


def test_counts_fit_turn_order_for_every_reachable_position_and_agrees_with_the_check():
    rng = random.Random(11)
    for _ in range(40):
        players = rng.choice([2, 3, 4])
        board = random_game(rng, players, moves=rng.randrange(0, 15 * players + 1))
        assert counts_fit_turn_order(board)
    # Red three placements ahead of blue while both still hold 2-pips: impossible.
    board = Board.from_text("r2 r2 r2 .\n. . . .\n. . . .\nb2 . . .\n")
    assert not counts_fit_turn_order(board)
    assert any(v.rule == RULE_TURN_ORDER for v in check_position(board, players=2).violations)
    board["C4"] = None  # red one ahead (it went first): fine
    assert counts_fit_turn_order(board)
    assert not any(v.rule == RULE_TURN_ORDER for v in check_position(board, players=2).violations)


def test_turn_order_fix_is_the_smallest_change_to_the_counts():
    from scorer.rules import turn_order_fix
    rng = random.Random(12)
    for _ in range(20):
        board = random_game(rng, rng.choice([2, 3]), moves=rng.randrange(0, 31))
        assert turn_order_fix(board) == {}
    # Red three placements ahead of blue while both still hold 2-pips: one blue piece too
    # few is the smallest change, as small as one red piece too many (red went first), and
    # likelier (a missed piece against one that is not there).
    board = Board.from_text("r2 r2 r2 .\n. . . .\n. . . .\nb2 . . .\n")
    assert turn_order_fix(board) == {"blue": 1}
    board["D4"] = Piece("red", 1)  # four against one: two blue missed, or red's two extra, or one each
    assert turn_order_fix(board) == {"blue": 2}
    # Two full stashes beside a short one: only more pieces of the short colour fit (red and
    # blue cannot have more than 15, and taking 18 away costs more than adding 9).
    board = Board(7, 7)
    squares = list(board.squares())
    pieces = [Piece(c, pips) for c in ("red", "blue") for pips in (1, 2, 3)] * 5 + [Piece("clear", 1)] * 5
    for piece in pieces:
        board[squares.pop()] = piece
    assert turn_order_fix(board) == {"clear": 9}
    for piece in [Piece("clear", 2)] * 5 + [Piece("clear", 3)] * 4:
        board[squares.pop()] = piece
    assert counts_fit_turn_order(board) and turn_order_fix(board) == {}


def test_piece_counts_that_fit_only_the_colours_on_the_board_say_so_in_words():
    one = Board.from_text("# . . . . . #\n. . . . . . .\n. . r1 . . . .\n. . . . . . .\n. . . . r2 . .\n. . . . . . .\n# . . . . . #\n")
    # one colour alone is no game: the other players, with no piece yet, would have placed one
    report = check_position(one)
    assert RULE_TURN_ORDER in [v.rule for v in report.violations]
    assert not any("fit only" in note for note in report.notes)
    one["D4"] = Piece("blue", 1)
    assert check_position(one).notes[-1].endswith("fit only the 2 colours on the board")


def test_check_position_with_more_players_than_colours_exist_still_reports():
    rows = [f"{letter}1" + " ." * 9 for letter in "ryogcbpxkw"]  # every colour once, down column A
    report = check_position(Board.from_text("\n".join(rows)), players=11)
    assert report.unseen_players == 1 and report.unseen_legal_moves is None  # no colour left to stand for theirs
