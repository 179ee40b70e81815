#!/usr/bin/env bash
# Sets up everything the tests need on a fresh machine, then runs the whole suite.
# Usage: bash scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Debian's chromium for the browser tests (Playwright never downloads one);
# libllvm19: LLVM for Mitsuba's fast CPU variant (the studio's renderer, tests/test_studio_render.py).
missing_packages() {
  command -v chromium >/dev/null 2>&1 || echo chromium
  dpkg -s libllvm19 >/dev/null 2>&1 || echo libllvm19
}
mapfile -t need_apt < <(missing_packages)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}" >/dev/null || true
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -q >/dev/null && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}" >/dev/null || true
  fi
  mapfile -t still_missing < <(missing_packages)
  if [ ${#still_missing[@]} -gt 0 ]; then
    case "${CI:-}" in
      1|true|TRUE|True|yes|YES) echo "scripts/test.sh: cannot install ${still_missing[*]}: CI needs them" >&2; exit 1 ;;
      *) echo "scripts/test.sh: cannot install ${still_missing[*]} (the tests that need them skip)" >&2 ;;
    esac
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,studio]'
exec .venv/bin/python -m pytest "$@"
