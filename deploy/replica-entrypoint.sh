#!/bin/sh
# docker-compose.yml's read replica: on first start, copy the primary with pg_basebackup -R (which
# writes the standby settings), then run PostgreSQL as a hot standby streaming from it.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h db -U "$POSTGRES_USER" -d "$POSTGRES_DB"; do sleep 1; done
  mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
  gosu postgres sh -c "PGPASSWORD='$REPLICATION_PASSWORD' pg_basebackup -h db -U replicator -D '$PGDATA' -R -X stream -c fast"
fi
exec gosu postgres postgres -c hot_standby=on
