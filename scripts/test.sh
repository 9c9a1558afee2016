#!/usr/bin/env bash
# Every test: typecheck, lint, unit, integration (real PostgreSQL), end-to-end (Playwright in
# Debian's Chromium). Installs what is missing: npm packages, and as root Debian's postgresql and
# chromium. Uses the PostgreSQL server on 127.0.0.1:5432 when there is one (in databases of its
# own that it creates and drops), otherwise a throwaway cluster that it stops at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
log() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# --- npm packages -------------------------------------------------------------------------
# `npm install`, not `npm ci`: npm 11 here rejects its own lock files in `npm ci` (it reports the
# other platforms' optional packages as missing); install still follows package-lock.json.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm install"
  npm install --no-audit --no-fund
fi

# --- Debian packages ----------------------------------------------------------------------
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "apt-get install -y ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  else
    echo "missing: ${need[*]} (run as root, or: sudo apt-get install -y ${need[*]})" >&2
    exit 1
  fi
fi

# --- PostgreSQL ---------------------------------------------------------------------------
# the machine's server on 127.0.0.1:5432 when it answers; otherwise (or with
# YARDSTICK_TEST_THROWAWAY=1) a throwaway cluster: see scripts/test-postgres.sh
E2E_DB=""
source scripts/test-postgres.sh
cleanup() {
  local status=$?
  if [ -n "$E2E_DB" ]; then
    psql "$YARDSTICK_TEST_PG_URL" -qAtc "DROP DATABASE IF EXISTS \"$E2E_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  stop_test_postgres
  exit $status
}
trap cleanup EXIT
start_test_postgres
echo "PostgreSQL for tests: $YARDSTICK_TEST_PG_URL"

# --- the tests ----------------------------------------------------------------------------
log "typecheck"
npx tsc --noEmit

log "lint"
npx eslint . --max-warnings=0
npx prettier --check "**/*.{ts,tsx,mjs,js,css}" --log-level warn

log "command line (dist/cli, built once)"
node scripts/build-cli.mjs --if-stale

log "unit tests"
npx vitest run --project unit

log "integration tests (PostgreSQL)"
npx vitest run --project integration

log "production build"
npx next build

# fault injection, fuzzing, headers and sessions against the build: own servers, own databases,
# throwaway PostgreSQL clusters (SIGKILL, restarts, a full disk); tests/faults/, SECURITY.md
log "fault and security tests (production build)"
npx vitest run --project faults

log "end-to-end tests (Chromium)"
E2E_DB="yardstick_e2e_$$_$(date +%s)"
psql "$YARDSTICK_TEST_PG_URL" -qAtc "CREATE DATABASE \"$E2E_DB\"" >/dev/null
export DATABASE_URL="${YARDSTICK_TEST_PG_URL%/*}/$E2E_DB"
npx tsx scripts/db-migrate.ts
npx playwright test

log "all tests passed"
