#!/usr/bin/env bash
# One end-to-end run that can go on beside others in the same checkout: its own build folder,
# port, database and result folders. For development (parallel work); `npm test` runs the lot.
#   scripts/e2e-scoped.sh <name> <port> [playwright args, e.g. e2e/explore.e2e.ts]
# Set SKIP_BUILD=1 to reuse the last build of that name.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1; port=$2; shift 2
export NEXT_DIST_DIR=".next-$name" E2E_PORT=$port E2E_RUN_NAME=$name
PG=${YARDSTICK_TEST_PG_URL:-postgresql://postgres@127.0.0.1:5432/postgres}
db="yardstick_e2e_${name//-/_}_$$"
cleanup() { psql "$PG" -qAtc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true; git checkout -q tsconfig.json 2>/dev/null || true; }
trap cleanup EXIT
if [ "${SKIP_BUILD:-}" != 1 ]; then npx next build >/tmp/e2e-build-$name.log 2>&1 || { tail -40 /tmp/e2e-build-$name.log; exit 1; }; fi
git checkout -q tsconfig.json 2>/dev/null || true
psql "$PG" -qAtc "CREATE DATABASE \"$db\"" >/dev/null
export DATABASE_URL="${PG%/*}/$db"
npx tsx scripts/db-migrate.ts >/dev/null
npx playwright test "$@"
