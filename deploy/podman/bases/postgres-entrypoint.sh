#!/bin/sh
# The part of the official image's entry point compose.yaml relies on: an empty data directory is
# initialized with POSTGRES_USER / POSTGRES_PASSWORD (scram-sha-256 for every address) and POSTGRES_DB.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pw="$(mktemp)"
  printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > "$pw"
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="$pw" --auth=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
  if [ "$db" != postgres ]; then
    postgres --single -D "$PGDATA" postgres <<SQL >/dev/null
CREATE DATABASE "$db" OWNER "${POSTGRES_USER:-postgres}";
SQL
  fi
fi
[ "${1:-}" = postgres ] && shift && exec postgres -D "$PGDATA" "$@"
exec "$@"
