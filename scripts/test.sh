#!/usr/bin/env bash
# Sets up everything the tests need on a fresh machine, then runs the whole suite.
# Usage: bash scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Debian's chromium for the browser tests (Playwright never downloads one);
# libllvm19: LLVM for Mitsuba's fast CPU variant (the studio's renderer, tests/test_studio_render.py).
missing_packages() {
  command -v chromium >/dev/null 2>&1 || printf 'chromium '
  dpkg -s libllvm19 >/dev/null 2>&1 || printf 'libllvm19 '
}
# CI as the tests take it (tests/in_ci.py): CI set to 1, true or yes, any case, spaces aside.
in_ci() { case "$(printf '%s' "${CI:-}" | tr -d '[:space:]' | tr '[:upper:]' '[:lower:]')" in 1|true|yes) return 0 ;; esac; return 1; }
need_apt=$(missing_packages)
if [ -n "$need_apt" ]; then
  # shellcheck disable=SC2086  # the names split into words on purpose
  if [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need_apt >/dev/null || true
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -q >/dev/null && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need_apt >/dev/null || true
  fi
  still_missing=$(missing_packages)
  if [ -n "$still_missing" ]; then
    if in_ci; then
      echo "scripts/test.sh: cannot install ${still_missing% }: CI needs them" >&2
      exit 1
    fi
    echo "scripts/test.sh: cannot install ${still_missing% } (the tests that need them skip)" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,studio]'
exec .venv/bin/python -m pytest "$@"
