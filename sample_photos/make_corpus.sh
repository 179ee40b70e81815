#!/usr/bin/env bash
# Renders the committed corpus (sample_photos/dev, test, full) with the studio; resumable.
# Needs: pip install -e '.[studio]' and Debian's libllvm19. Takes about 1-2 hours on 2 busy cores.
# Usage: bash sample_photos/make_corpus.sh [dev|test|full|all]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
studio() { nice -n 10 "$PY" -m scorer studio --skip-existing "$@"; }
part=${1:-all}

if [ "$part" = dev ] || [ "$part" = all ]; then
  D="--out sample_photos/dev"
  # every kind of board
  studio $D --seed 1000 --count 4 --board bandanna --megapixels 3
  studio $D --seed 1004 --count 4 --board bandanna --megapixels 2
  studio $D --seed 1100 --count 3 --board printed --megapixels 2
  studio $D --seed 1200 --count 3 --board wood --megapixels 3
  studio $D --seed 1300 --count 3 --board vinyl --megapixels 2
  studio $D --seed 1400 --count 3 --board area_sized --megapixels 4
  # light
  studio $D --seed 1500 --count 3 --light dim --megapixels 2
  studio $D --seed 1510 --count 3 --light lamp --megapixels 2
  studio $D --seed 1520 --count 2 --light window --megapixels 2 --tilt 55
  studio $D --seed 1530 --count 2 --light window_and_lamp --megapixels 3
  studio $D --seed 1540 --count 2 --light ceiling --megapixels 2 --tilt 0
  # positions: mid-game, ThreeHouse, four players
  studio $D --seed 1600 --count 4 --stage mid --megapixels 2
  studio $D --seed 1610 --count 4 --threehouse --megapixels 2
  studio $D --seed 1620 --count 2 --players 4 --standard --megapixels 3
  # park markers
  studio $D --seed 1700 --count 2 --tokens coin --megapixels 2
  studio $D --seed 1710 --count 2 --tokens glass_stone --megapixels 2
  studio $D --seed 1720 --count 1 --tokens chip --megapixels 2
  studio $D --seed 1730 --count 1 --tokens token --megapixels 2
  # a busy table
  studio $D --seed 1800 --count 2 --clutter hand,unplayed_pieces,cards,phone,mug --megapixels 2
fi

if [ "$part" = test ] || [ "$part" = all ]; then
  T="--out sample_photos/test"
  studio $T --seed 5000 --count 6 --board bandanna --megapixels 2
  studio $T --seed 5006 --count 6 --board bandanna --megapixels 3
  studio $T --seed 5100 --count 4 --board printed --megapixels 2
  studio $T --seed 5200 --count 4 --board wood --megapixels 2
  studio $T --seed 5300 --count 4 --board vinyl --megapixels 3
  studio $T --seed 5400 --count 3 --board area_sized --megapixels 2
  studio $T --seed 5500 --count 3 --light dim --megapixels 4
fi

if [ "$part" = full ] || [ "$part" = all ]; then
  studio --out sample_photos/full --seed 9000 --count 3 --megapixels 12 --spp 6
fi
