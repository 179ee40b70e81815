#!/usr/bin/env bash
# Sets up the app on a fresh machine and runs it. Usage: bash scripts/serve.sh [serve options]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/subdivision serve "$@"
