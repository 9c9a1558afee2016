# Sourced by scripts/test.sh (and usable alone: `bash scripts/test-postgres.sh <command...>`).
# start_test_postgres sets YARDSTICK_TEST_PG_URL: the machine's PostgreSQL on 127.0.0.1:5432 when
# it answers, else (or with YARDSTICK_TEST_THROWAWAY=1) a throwaway cluster made with initdb in a
# temporary folder on a free port; stop_test_postgres stops and deletes that cluster.
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)}
CLUSTER_DIR=""

start_test_postgres() {
  if [ -n "${YARDSTICK_TEST_PG_URL:-}" ]; then return 0; fi
  if [ "${YARDSTICK_TEST_THROWAWAY:-}" != 1 ] && "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p 5432 -U postgres 2>/dev/null \
    && psql "postgresql://postgres@127.0.0.1:5432/postgres" -qAtc "select 1" >/dev/null 2>&1; then
    export YARDSTICK_TEST_PG_URL="postgresql://postgres@127.0.0.1:5432/postgres"
    return 0
  fi
  echo "starting a throwaway PostgreSQL cluster"
  CLUSTER_DIR=$(mktemp -d /tmp/yardstick-pg.XXXXXX)
  local port
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  local as_pg=()
  if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$CLUSTER_DIR"; as_pg=(runuser -u postgres --); fi
  "${as_pg[@]}" "$PG_BIN/initdb" -D "$CLUSTER_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -o "-p $port -k $CLUSTER_DIR -c listen_addresses=127.0.0.1" -l "$CLUSTER_DIR/log" -w start >/dev/null
  export YARDSTICK_TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
}

stop_test_postgres() {
  if [ -z "$CLUSTER_DIR" ]; then return 0; fi
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  else
    "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$CLUSTER_DIR"
  CLUSTER_DIR=""
}

# run alone: start, run the command, stop
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  trap stop_test_postgres EXIT
  start_test_postgres
  echo "PostgreSQL for tests: $YARDSTICK_TEST_PG_URL"
  "$@"
fi
