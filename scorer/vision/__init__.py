"""The photo reader's stages: load a photo, find the board's grid, read each square.

Each stage is a pure function from arrays to arrays or small dataclasses, tested and measured
on its own (``load``: decode and orient a photo; ``grid``: find the checkerboard and fit every
square; the later stages read squares, sizes, colours and the play area).
"""
