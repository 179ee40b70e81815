"""Decoding per-square probability tables under the stash limits and the placement rules."""

import math
from pathlib import Path

import pytest

from scorer.board import Board, Square
from scorer.vision.decode import UNSURE, CellReading, decode, swaps_to_symmetry, symmetry_order


def _table(board: Board, sure=0.97, others=("r1", "r2", "r3", "b1", "b2", "b3", ".", "#")):
    """A confident table that reads ``board`` exactly."""
    table = {}
    for sq in board.squares():
        content = board[sq]
        token = "." if content is None else content.symbol
        rest = [v for v in others if v != token]
        table[sq.name] = {token: sure, **{v: (1 - sure) / len(rest) for v in rest}}
    return table


LEGAL = """\
# r3 b3 r1
b1 r2 b2 #
r3 b1 r1 b3
# b2 r2 #
"""


def test_confident_table_decodes_to_itself():
    board = Board.from_text(LEGAL)
    decoded = decode(_table(board), 4, 4)
    assert decoded.board == board
    assert not decoded.uncertain
    assert all(c.changed_by is None for c in decoded.cells)


def test_stash_limit_settles_an_unsure_square():
    # Six red 3-pips read; the sixth is unsure between r3 and r2: the limit of 5 settles it.
    text = "r3 . r3 . r3 .\n. . . . . .\nr3 . r3 . r2 .\n" + ". . . . . .\n" * 3
    board = Board.from_text(text)
    table = _table(board)
    table["E4"] = {"r3": 0.55, "r2": 0.40, ".": 0.05}
    decoded = decode(table, 6, 6, use_rules=False)
    assert decoded.board["E4"].symbol == "r2"
    cell = next(c for c in decoded.cells if c.cell == "E4")
    assert cell.changed_by == "counts"
    assert any("E4" in w for w in decoded.warnings)
    assert cell.to_dict()["settled_by"] == "stash counts"
    assert "settled_by" not in next(c for c in decoded.cells if c.cell == "A4").to_dict()


def test_a_piece_over_the_stash_limit_does_not_escape_to_its_groups_other_name():
    # Six white 2-pips read, the white group's other possible name clear (odds 0.2): one
    # piece alone cannot be clear while the rest of its group is white; the unsure sixth
    # takes its size alternative instead, and the clear odds still show.
    text = "w2 . w2 . w2 .\n. . . . . .\nw2 . w2 . w2 .\n" + ". . . . . .\n" * 3
    board = Board.from_text(text)
    table = _table(board, others=("w1", "w2", "w3", ".", "#"))
    shown = {name: {v: p * 0.8 if v[0] == "w" else p for v, p in cells.items()} | {"x2": 0.2 * cells.get("w2", 0)}
             for name, cells in table.items()}
    shown["E4"] = {"w2": 0.45, "x2": 0.25, "w3": 0.2, ".": 0.1}
    assert decode(shown, 6, 6, use_rules=False).board["E4"].symbol == "x2"  # any name goes: the cheap way out
    table["E4"] = {"w2": 0.45 + 0.25, "w3": 0.2, ".": 0.1}  # the group's whole odds on its one name
    decoded = decode(table, 6, 6, use_rules=False, shown=shown)
    assert decoded.board["E4"].symbol == "w3"
    cell = next(c for c in decoded.cells if c.cell == "E4")
    assert cell.changed_by == "counts" and cell.alternatives[0] == ("w2", pytest.approx(0.45))
    assert ("x2", pytest.approx(0.25)) in cell.alternatives and cell.confidence == pytest.approx(0.2)


def test_a_piece_whose_group_name_is_in_doubt_is_still_placed():
    # The group placed as clear is likelier white (odds 0.7 against 0.3 for clear), but white
    # went to another group: each of its pieces is sure to be there, so a square read as one
    # of them at 0.9 is placed as a clear 1-pip, not read bare because only 0.9 x 0.3 of it
    # is "clear".
    table = {"A1": {"x1": 0.9, ".": 0.1}, "B2": {"w3": 0.95, ".": 0.05}}
    shown = {"A1": {"x1": 0.9 * 0.3, "w1": 0.9 * 0.7, ".": 0.1}, "B2": table["B2"]}
    decoded = decode(table, 3, 3, use_rules=False, shown=shown)
    assert decoded.board["A1"].symbol == "x1" and decoded.board["B2"].symbol == "w3"
    cell = decoded.cells[0]
    assert cell.changed_by is None
    assert cell.confidence == pytest.approx(0.27) and cell.alternatives[0] == ("w1", pytest.approx(0.63))


def test_clear_extra_piece_is_kept_and_reported():
    # Six red 3-pips, all read with near certainty: a real over-full stash, not hidden.
    text = "r3 . r3 . r3 .\n. . . . . .\nr3 . r3 . r3 .\n" + ". . . . . .\n" * 3
    board = Board.from_text(text)
    decoded = decode(_table(board, sure=0.995), 6, 6, use_rules=False)
    assert decoded.board == board
    assert any("6 red 3-pips" in w for w in decoded.warnings)
    # At least one of the six is misread (or one too many was placed): which, the photo
    # cannot say, so all six are flagged, each right at most five times in six.
    reds = [c for c in decoded.cells if c.value == "r3"]
    assert len(reds) == 6 and all(c.confidence == pytest.approx(5 / 6) for c in reds)
    assert sorted(decoded.uncertain) == sorted(c.cell for c in reds)


def test_parks_over_the_setups_count_are_all_flagged():
    board = Board.from_text("# . #\n. r1 .\n# . #\n")
    decoded = decode(_table(board, sure=0.999), 3, 3, parks=3, use_rules=False)
    assert decoded.board == board and any("4 park markers read" in w for w in decoded.warnings)
    assert sorted(decoded.uncertain) == ["A1", "A3", "C1", "C3"]
    assert not decode(_table(board, sure=0.999), 3, 3, parks=4, use_rules=False).uncertain
    none = decode(_table(board, sure=0.999), 3, 3, parks=0, use_rules=False)  # a setup without parks
    assert all(0 < c.confidence < 0.95 for c in none.cells if c.value == "#")


def test_rules_fix_an_unsure_square_but_not_a_sure_one():
    # b3 on B2 next to b3 on C3 breaks "3-pip not Near own 3-pip"; unsure B2 -> b2 fixes it.
    board = Board.from_text("r1 . .\n. . b3\n. b3 .\n")
    table = _table(board)
    table["B1"] = {"b3": 0.5, "b2": 0.4, ".": 0.1}
    decoded = decode(table, 3, 3)
    assert decoded.board["B1"].symbol == "b2"
    # The same illegal placement read with confidence stays and is not hidden.
    decoded = decode(_table(board, sure=0.99), 3, 3)
    assert decoded.board["B1"].symbol == "b3"


# Every blue 3-pip and 2-pip of a stash read; B6's 3-pip, beside A6's, less sure than F1's 2-pip.
_THREES_SIDE_BY_SIDE = """\
b3 b3 . b3 . b3
. . . . . .
b3 . . . . .
. . . . . .
b2 b2 b2 b2 . .
. . . . . b2
"""


@pytest.mark.parametrize("f1_odds, swapped", [({"b2": 0.80, "b3": 0.20}, True),  # costs ln 1.5 + ln 4 nats
                                              ({"b2": 0.96, "b3": 0.04}, False)])  # ln 1.5 + ln 24: too dear
def test_rules_swap_two_unsure_squares_when_the_counts_block_a_single_change(f1_odds, swapped):
    board = Board.from_text(_THREES_SIDE_BY_SIDE)
    table = _table(board, sure=0.99)
    table["B6"] = {"b3": 0.6, "b2": 0.4}
    table["F1"] = f1_odds
    decoded = decode(table, 6, 6)
    cells = {c.cell: c for c in decoded.cells}
    if swapped:  # B6 cannot become a sixth b2 alone: it trades with F1, and every count stays 5
        assert decoded.board["B6"].symbol == "b2" and decoded.board["F1"].symbol == "b3"
        assert cells["B6"].changed_by == cells["F1"].changed_by == "rules"
        assert cells["B6"].confidence < 0.95 and cells["F1"].confidence < 0.95  # both flagged
        # at their own odds (the counts settled nothing, so no square is a rival of one they settled)
        assert cells["F1"].confidence == pytest.approx(0.2) and cells["B6"].confidence == pytest.approx(0.4)
    else:  # the photo is too sure of F1: the illegal placement stays, to be seen
        assert decoded.board == board
        assert cells["B6"].changed_by is None and "B6" in decoded.uncertain


def test_alternatives_are_next_best_values():
    board = Board.from_text(LEGAL)
    table = _table(board)
    table["A1"] = {"#": 0.6, "r1": 0.3, ".": 0.1}
    decoded = decode(table, 4, 4)
    cell = next(c for c in decoded.cells if c.cell == "A1")
    assert cell.value == "#"
    assert cell.confidence == pytest.approx(0.6)
    assert [v for v, _ in cell.alternatives][:2] == ["r1", "."]
    assert "A1" in decoded.uncertain
    d = cell.to_dict()
    assert set(d) >= {"cell", "value", "confidence", "alternatives"}
    assert [a["confidence"] for a in d["alternatives"]][:2] == [0.3, 0.1]  # odds that add up: as they were


def test_a_cells_alternatives_from_several_accounts_share_what_its_confidence_leaves_in_its_json():
    # empty at 5% after the counts, its look's park at 78%, a missed piece's 40% and 9%: 132% said
    cell = CellReading(cell="G2", value=".", confidence=0.05, alternatives=[("#", 0.78), ("y1", 0.40), ("k1", 0.09)])
    alternatives = cell.to_dict()["alternatives"]
    assert [a["value"] for a in alternatives] == ["#", "y1", "k1"]
    assert sum(a["confidence"] for a in alternatives) == pytest.approx(0.95, abs=0.002)
    assert alternatives[0]["confidence"] == pytest.approx(0.78 * 0.95 / 1.27, abs=0.001)
    assert cell.alternatives == [("#", 0.78), ("y1", 0.40), ("k1", 0.09)]  # the reading itself unchanged


MID_GAME = """\
# r3 . #
. b1 . .
. r1 b3 .
# . . #
"""


def test_the_setups_parks_go_to_the_squares_with_park_odds():
    board = Board.from_text(MID_GAME)
    table = _table(board)
    # A marker taken for a pyramid keeps some park odds; a bare square has almost none.
    table["D4"] = {"r2": 0.85, "#": 0.1, ".": 0.05}
    table["C3"] = {".": 0.995, "#": 0.003, "r1": 0.002}
    decoded = decode(table, 4, 4, parks=4)
    assert decoded.board == board
    assert next(c for c in decoded.cells if c.cell == "D4").changed_by == "counts"
    # A faint marker that looks bare (clear glass on a light square) is still a park.
    table = _table(board)
    table["A1"] = {".": 0.9, "#": 0.05, "r1": 0.05}
    assert decode(table, 4, 4, parks=4).board == board
    # Without the setup's count, each square keeps its own likeliest value.
    assert decode(table, 4, 4).board["A1"] is None


def test_turn_order_restores_a_missed_piece_but_not_a_clearly_empty_square():
    board = Board.from_text(LEGAL)  # red 6, blue 6
    table = _table(board)
    # Two blue 2-pips read as bare cloth: red 6 against blue 4 cannot come from turns.
    table["C3"] = {".": 0.6, "b2": 0.38, "r2": 0.02}
    table["B1"] = {".": 0.55, "b2": 0.43, "r2": 0.02}
    decoded = decode(table, 4, 4)
    # The cheaper change (B1) makes the counts fit (6 against 5); C3 keeps its own reading.
    assert decoded.board["B1"].symbol == "b2" and decoded.board["C3"] is None
    cell = next(c for c in decoded.cells if c.cell == "B1")
    assert cell.changed_by == "turns" and any("B1" in w and "turn order" in w for w in decoded.warnings)
    # Read clearly as bare cloth, the squares stay so and the counts stay as read.
    table["C3"] = table["B1"] = {".": 0.9, "b2": 0.08, "r2": 0.02}
    decoded = decode(table, 4, 4)
    assert decoded.board["B1"] is None and decoded.board["C3"] is None
    assert all(c.changed_by is None for c in decoded.cells)



def test_pieces_the_turn_order_says_are_missing_put_the_bare_squares_in_doubt():
    # Red 6 against blue 3: three blue pieces read as bare cloth, clearly (faint glassy
    # pieces), so they stay bare, but two of the three bare squares hold a missed piece
    # (red 6 against blue 5 can come from turns), and none of them is sure any more.
    board = Board.from_text(LEGAL)
    table = _table(board)
    for cell in ("C3", "B1", "D2"):
        table[cell] = {".": 0.97, "b2": 0.02, "b1": 0.005, "r2": 0.005}
    decoded = decode(table, 4, 4)
    assert all(decoded.board[c] is None for c in ("C3", "B1", "D2"))
    assert any("cannot come from players taking turns: 2 more blue pieces" in w for w in decoded.warnings)
    bare = [c for c in decoded.cells if c.value == "."]
    assert {c.cell for c in bare} == {"C3", "B1", "D2"} and all(c.confidence == pytest.approx(1 / 3) for c in bare)
    # The pieces they may hold are offered, the blue size the square's own odds favour first.
    assert all(c.alternatives[0][0] == "b2" for c in bare)
    # Each is sure by its look: its doubt is only the pieces missed, which the page drops once
    # the player has put them where they stand (the JSON's "missed_piece").
    assert all(c.missed_piece and c.to_dict()["missed_piece"] is True for c in bare)
    # The other squares are as sure as before; a reading whose counts fit keeps its bare
    # squares sure.
    assert all(c.confidence == pytest.approx(0.97) for c in decoded.cells if c.value != ".")
    assert not any(c.missed_piece for c in decoded.cells if c.value != ".")
    # one in doubt by its look too is not one the missed pieces alone put in doubt
    table["C3"] = {".": 0.9, "b2": 0.09, "b1": 0.005, "r2": 0.005}
    decoded = decode(table, 4, 4)
    assert {c.cell for c in decoded.cells if c.missed_piece} == {"B1", "D2"}
    assert next(c for c in decoded.cells if c.cell == "C3").confidence < UNSURE
    table["C3"], table["B1"], table["D2"] = (_table(board)[c] for c in ("C3", "B1", "D2"))
    table["B4"] = {".": 0.97, "r3": 0.02, "b3": 0.01}
    decoded = decode(table, 4, 4)
    assert decoded.board["B4"] is None and next(c for c in decoded.cells if c.cell == "B4").confidence == pytest.approx(0.97)


def test_a_missing_piece_is_looked_for_most_on_the_bare_square_likeliest_to_hold_it():
    # Red 3 against blue 1 on a 6x6 of 28 bare squares: one blue piece stands on a square
    # read as bare. Spread evenly, each bare square would keep 27/28 of its certainty; the
    # square whose own odds give a blue piece more chance than the others' takes most of the
    # doubt instead.
    board = Board.from_text("""\
# r3 . . . #
. b1 . . r1 .
. . . . . .
. . r2 . . .
. . . b2 . .
# . . . . #
""")
    table = _table(board)
    table["D2"] = {".": 0.96, "b2": 0.035, "r2": 0.005}
    decoded = decode(table, 6, 6)
    assert decoded.board["D2"] is None
    assert any("1 more blue piece likely stands" in w for w in decoded.warnings)
    faint = next(c for c in decoded.cells if c.cell == "D2")
    assert faint.confidence < UNSURE and faint.alternatives[0][0] == "b2"
    assert faint.missed_piece  # sure by its look (0.96): its doubt is the missed piece
    plain = [c for c in decoded.cells if c.value == "." and c.cell != "D2"]
    assert len(plain) == 27 and all(c.confidence == pytest.approx(27 / 28) for c in plain)
    assert not any(c.missed_piece for c in plain)  # not in doubt at all


def test_a_cell_with_no_odds_reads_empty_not_a_crash():
    decoded = decode({"A1": {}}, 3, 3, shown={"A1": {"r2": 1.0}})
    assert decoded.board["A1"] is None and decoded.cells[0].confidence == 0.0
    assert decoded.cells[0].alternatives == [("r2", 1.0)]


FULL = (Path(__file__).resolve().parents[1] / "sample_boards" / "rules_game_2p.txt").read_text()  # 6x6, 5/5/5 each


@pytest.mark.parametrize("e5_odds, how", [
    # Every square of this finished 6x6 is taken, so each player has exactly 5 of each size.
    # E5's r2 looks more like an r1, or a bare square, than an r2. Under the stash limit
    # alone the sixth r1 goes bare (the cheaper way out); on a full board it is the missing r2
    # (the reader, seeing no bare square, says both that the board is full and likely full:
    # the full board's bonus counts) ...
    ({"r1": 0.93, ".": 0.05, "r2": 0.02}, {"full": True}),
    ({"r1": 0.93, ".": 0.05, "r2": 0.02}, {"full": True, "likely_full": True}),
    # ... and where only a square or two look bare on a board the stashes would fill, the
    # missing r2 is still likelier than a gap left by a player who had to pass, but less surely:
    # here r2 costs 1.1 nats more than bare, within LIKELY_FULL_BONUS.
    ({"r1": 0.6, ".": 0.3, "r2": 0.1}, {"likely_full": True}),
])
def test_a_full_board_settles_a_misread_size_by_the_missing_piece(e5_odds, how):
    board = Board.from_text(FULL)
    table = _table(board)
    table["E5"] = e5_odds
    assert decode(table, 6, 6, parks=6).board["E5"] is None
    decoded = decode(table, 6, 6, parks=6, **how)
    assert decoded.board == board
    assert decoded.warnings == ["E5: read as r2 (settled by the stash counts)"]
    assert decoded.warning_kinds == ["settled"]  # a square's, which the web page lists in words while it stands


def test_the_squares_that_could_have_given_way_to_a_settled_one_are_put_in_doubt():
    # E5 looks like an r1 (0.93, r2 0.02), one r1 too many on a full board, so the counts make
    # it the missing r2. A2 looks like an r1 as surely (0.93), but a little less unlike an r2
    # (0.015): exchanging the two keeps every count at odds of 0.75 against E5's reading (the
    # sure r1s at 0.007 each), so A2 is no surer than 1 - 0.75 / (1 + 0.75 + 0.027): flagged.
    board = Board.from_text(FULL)
    table = _table(board, sure=0.999)
    table["E5"] = {"r1": 0.93, ".": 0.05, "r2": 0.02}
    table["A2"] = {"r1": 0.93, ".": 0.055, "r2": 0.015}
    # Blue's own settling (C2's b3 taken for a b2, D1's b2 nearly as like a b3) is another
    # matter: its exchanges weigh against blue's 2-pips alone.
    table["C2"] = {"b2": 0.9, ".": 0.04, "b3": 0.06}
    table["D1"] = {"b2": 0.9, ".": 0.05, "b3": 0.05}
    decoded = decode(table, 6, 6, parks=6, full=True)
    cells = {c.cell: c for c in decoded.cells}
    assert cells["E5"].value == "r2" and cells["E5"].changed_by == "counts"
    weight, sure_weight = (0.93 / 0.02) / (0.93 / 0.015), (0.93 / 0.02) / (0.999 / (0.001 / 7))
    others = [c for c in cells.values() if c.value == "r1" and c.cell != "A2"]
    assert len(others) == 4
    assert cells["A2"].value == "r1"
    assert cells["A2"].confidence == pytest.approx(1 - weight / (1 + weight + 4 * sure_weight), rel=1e-3)
    assert "A2" in decoded.uncertain
    # ... and offers the r2 it would be at that share first, one tap away.
    assert cells["A2"].alternatives[0][0] == "r2"
    assert cells["A2"].alternatives[0][1] == pytest.approx(weight / (1 + weight + 4 * sure_weight), rel=1e-3)
    assert all(c.confidence == pytest.approx(1 - sure_weight / (1 + weight + 4 * sure_weight), rel=1e-3)
               for c in others)
    assert cells["C2"].value == "b3" and cells["C2"].changed_by == "counts"
    blue, blue_sure = (0.9 / 0.06) / (0.9 / 0.05), (0.9 / 0.06) / (0.999 / (0.001 / 7))
    assert cells["D1"].confidence == pytest.approx(1 - blue / (1 + blue + 3 * blue_sure), rel=1e-3)
    assert all(c.confidence > 0.99 for c in cells.values() if c.value[0] in "b#" and c.cell not in ("C2", "D1"))
    # C6 looking like an r1 too, both are settled, and A2 could have given way for either:
    # its exchanges' odds add up against the reading as it stands and all the others.
    table["C6"] = dict(table["E5"])
    cells = {c.cell: c for c in decode(table, 6, 6, parks=6, full=True).cells}
    assert cells["C6"].changed_by == cells["E5"].changed_by == "counts"
    assert cells["A2"].confidence == pytest.approx(1 - 2 * weight / (1 + 2 * weight + 8 * sure_weight), rel=1e-3)
    # With E5 and C6 read as the r2s they are, nothing was settled and A2 keeps its own odds.
    table["E5"] = table["C6"] = {"r2": 0.93, ".": 0.05, "r1": 0.02}
    cells = {c.cell: c for c in decode(table, 6, 6, parks=6, full=True).cells}
    assert cells["A2"].confidence == pytest.approx(0.93)


def test_a_sure_misreading_that_made_the_counts_move_two_other_squares_is_put_in_doubt():
    # A4's r1 looks surely like an r2 (0.98, r1 0.015): one r2 too many and one r1 short on a
    # full board. The cheapest way back to 5/5/5 moves two other squares, not A4: C4's r2 to r3
    # (it looks 0.25 like one) and E4's r3 to r1 (0.35), 1.57 nats against A4's own 4.18. No
    # exchange of two squares undoes that, but the board with A4 read as the r1 it is costs
    # only 2.61 nats more than the reading: at odds exp(-2.61) to 1, shared with the other
    # boards that move C4 or E4, A4 is flagged, with r1 as its alternative at the rest.
    board = Board.from_text(FULL)
    table = _table(board)
    table["A4"] = {"r2": 0.98, "r1": 0.015, ".": 0.005}
    table["C4"] = {"r2": 0.7, "r3": 0.25, ".": 0.05}
    table["E4"] = {"r3": 0.6, "r1": 0.35, ".": 0.05}
    decoded = decode(table, 6, 6, parks=6, full=True)
    cells = {c.cell: c for c in decoded.cells}
    assert (cells["A4"].value, cells["C4"].value, cells["E4"].value) == ("r2", "r3", "r1")
    assert cells["C4"].changed_by == cells["E4"].changed_by == "counts"
    assert "A4" in decoded.uncertain
    odds = math.exp(-(math.log(0.98 / 0.015) - math.log(0.7 / 0.25) - math.log(0.6 / 0.35)))
    assert 1 / (1 + odds) <= cells["A4"].confidence < UNSURE
    assert cells["A4"].alternatives == [("r1", pytest.approx(1 - cells["A4"].confidence))]
    # The squares the counts did not touch keep their own odds.
    assert all(c.confidence == pytest.approx(0.97, abs=0.005) for c in cells.values() if c.cell in ("A1", "B6", "F3"))


def test_a_full_board_missing_a_piece_says_so_and_is_not_filled_against_the_evidence():
    board = Board.from_text(FULL)
    table = _table(board)
    table["E5"] = {".": 1.0}  # plainly bare: no stash count may put a piece there
    decoded = decode(table, 6, 6, parks=6, full=True)
    assert decoded.board["E5"] is None
    assert "4 red 2-pips read on a full board, which holds 5" in decoded.warnings
    assert decoded.warning_kinds[decoded.warnings.index("4 red 2-pips read on a full board, which holds 5")] == "constraints"


def test_a_plainly_bare_square_on_a_board_that_looks_nearly_full_stays_bare_and_no_full_board_is_claimed():
    board = Board.from_text(FULL)
    table = _table(board)
    table["E5"] = {".": 0.995, "r2": 0.005}
    decoded = decode(table, 6, 6, parks=6, likely_full=True)
    assert decoded.board["E5"] is None
    assert not any("full board" in w for w in decoded.warnings)
    # Told it is full as well, the full board's bonus fills it (the reader says so only when no
    # square looks bare).
    assert decode(table, 6, 6, parks=6, full=True, likely_full=True).board["E5"] == board["E5"]


def test_symmetry_order_counts_the_mirrors_and_turns_that_keep_the_parks():
    corners = {Square.parse(s) for s in ("A1", "H1", "A8", "H8")}
    assert symmetry_order(corners, 8, 8) == 8
    assert symmetry_order(corners - {Square.parse("A8")} | {Square.parse("E3")}, 8, 8) == 1
    two_player = {Square.parse(s) for s in ("A1", "F1", "A6", "F6", "C3", "D4")}  # rules.default_parks(2)
    assert symmetry_order(two_player, 6, 6) == 4
    assert symmetry_order({Square.parse(s) for s in ("A1", "F1", "A5", "F5")}, 5, 6) == 4  # a rectangle has 4 at most
    moves = swaps_to_symmetry(corners - {Square.parse("A8")} | {Square.parse("E3")}, 8, 8)
    assert (Square.parse("E3"), Square.parse("A8"), 8) in moves


# Three corners read as parks, the fourth corner as a large pyramid whose park odds are a
# quarter, and a square mid-board as a park at little better odds than the pyramid it holds
# (3-pips, which any square may hold: the placement rules have nothing to say here).
_STRAY_PARK = """\
# . . . . . . r3
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . # . . .
. . . . . . . .
# . . . . . . #
"""


@pytest.mark.parametrize("corner_odds, moved", [({"r3": 0.70, "#": 0.25, ".": 0.05}, True),
                                                ({"r3": 0.96, "#": 0.01, ".": 0.03}, False)])
def test_a_park_and_a_piece_taken_for_each_other_are_put_back_in_a_symmetric_pattern(corner_odds, moved):
    table = _table(Board.from_text(_STRAY_PARK))
    table["H8"] = corner_odds
    table["E3"] = {"#": 0.55, "r3": 0.40, ".": 0.05}
    decoded = decode(table, 8, 8, parks=4)
    cells = {c.cell: c for c in decoded.cells}
    if moved:  # the four corners, 8 times likelier a pattern: the evidence against is under ln 8
        assert decoded.board["H8"] is not None and decoded.board["H8"].symbol == "#"
        assert decoded.board["E3"].symbol == "r3"
        assert cells["H8"].changed_by == cells["E3"].changed_by == "symmetry"
        assert cells["H8"].confidence < 0.95 and cells["E3"].confidence < 0.95  # both flagged
        assert any("H8" in w and "symmetry" in w for w in decoded.warnings)
    else:  # the photo shows the corner's pyramid clearly: the stray park stays
        assert decoded.board["H8"].symbol == "r3" and decoded.board["E3"].symbol == "#"
        assert cells["H8"].changed_by is None
