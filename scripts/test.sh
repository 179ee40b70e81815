#!/usr/bin/env bash
# Sets up everything the tests need on a fresh machine, then runs the whole suite.
# Usage: bash scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Debian's chromium for the browser tests (Playwright never downloads one).
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# libllvm19: LLVM for Mitsuba's fast CPU variant (the studio's renderer, tests/test_studio_render.py).
dpkg -s libllvm19 >/dev/null 2>&1 || need_apt+=(libllvm19)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}" >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -q >/dev/null && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}" >/dev/null
  else
    echo "scripts/test.sh: cannot install ${need_apt[*]} (not root, no sudo)" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,studio]'
exec .venv/bin/python -m pytest "$@"
