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
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  npm ci --no-audit --no-fund
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
CLUSTER_DIR=""
cleanup() {
  local status=$?
  if [ -n "${E2E_DB:-}" ]; then
    psql "$YARDSTICK_TEST_PG_URL" -qAtc "DROP DATABASE IF EXISTS \"$E2E_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  if [ -n "$CLUSTER_DIR" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate stop >/dev/null 2>&1 || "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$CLUSTER_DIR"
  fi
  exit $status
}
trap cleanup EXIT

if [ -z "${YARDSTICK_TEST_PG_URL:-}" ]; then
  if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p 5432 -U postgres 2>/dev/null && psql "postgresql://postgres@127.0.0.1:5432/postgres" -qAtc "select 1" >/dev/null 2>&1; then
    export YARDSTICK_TEST_PG_URL="postgresql://postgres@127.0.0.1:5432/postgres"
  else
    log "starting a throwaway PostgreSQL cluster"
    CLUSTER_DIR=$(mktemp -d /tmp/yardstick-pg.XXXXXX)
    PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    as_pg=()
    if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$CLUSTER_DIR"; as_pg=(runuser -u postgres --); fi
    "${as_pg[@]}" "$PG_BIN/initdb" -D "$CLUSTER_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -o "-p $PORT -k $CLUSTER_DIR -c listen_addresses=127.0.0.1" -l "$CLUSTER_DIR/log" -w start >/dev/null
    export YARDSTICK_TEST_PG_URL="postgresql://postgres@127.0.0.1:$PORT/postgres"
  fi
fi
echo "PostgreSQL for tests: $YARDSTICK_TEST_PG_URL"

# --- the tests ----------------------------------------------------------------------------
log "typecheck"
npx tsc --noEmit

log "lint"
npx eslint . --max-warnings=0

log "unit tests"
npx vitest run --project unit

log "integration tests (PostgreSQL)"
npx vitest run --project integration

log "end-to-end tests (Chromium)"
npx next build
E2E_DB="yardstick_e2e_$$_$(date +%s)"
psql "$YARDSTICK_TEST_PG_URL" -qAtc "CREATE DATABASE \"$E2E_DB\"" >/dev/null
export DATABASE_URL="${YARDSTICK_TEST_PG_URL%/*}/$E2E_DB"
npx tsx scripts/db-migrate.ts
npx playwright test

log "all tests passed"
