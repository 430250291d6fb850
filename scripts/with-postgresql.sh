#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster, then stops the cluster and removes it.
#
#   scripts/with-postgresql.sh swift test
#   scripts/with-postgresql.sh swift test --filter PostgreSQL
#
# The cluster lives in a fresh `mktemp -d` folder, listens on a Unix socket in that folder only
# (listen_addresses is empty: no TCP), and is stopped and deleted when the command ends, fails or
# is interrupted. initdb refuses to run as root, so as root the cluster belongs to `nobody`.
# Lock tables live in shared memory: max_pred_locks_per_transaction (the predicate locks of
# `SERIALIZABLE` writes) is raised from 64 to 1,024 and max_locks_per_transaction from 64 to 256
# (docs/postgresql.md), since the reliability suites run side by side once failed with "out of
# shared memory" (SQLSTATE 53200) under the defaults.
# The command sees:
#   NAVDB_TEST_POSTGRESQL           postgresql:///navdb?host=<folder>&user=navdb (trusted, superuser)
#   NAVDB_TEST_POSTGRESQL_PASSWORD  a role that must give a password (scram-sha-256): navdb_pw,
#                                   whose password is in NAVDB_TEST_POSTGRESQL_SECRET
# Needs Debian's `postgresql` package (server binaries in /usr/lib/postgresql/<version>/bin).
set -euo pipefail

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
  bindir="$(pg_config --bindir)"
fi
if [ -z "$bindir" ]; then
  bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "Error: no PostgreSQL server binaries (initdb) found; install Debian's postgresql package" >&2
  exit 1
fi

dir="$(mktemp -d /tmp/navdb-pg.XXXXXX)"
owner=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$dir"
  owner=(runuser -u nobody --)
fi
stop() {
  "${owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

"${owner[@]}" "$bindir/initdb" -D "$dir/data" -U navdb --auth-local=trust --encoding=UTF8 --locale=C \
  >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
# The password role's line goes first: pg_hba.conf is read top-down, first match wins.
hba="$dir/data/pg_hba.conf"
"${owner[@]}" bash -c "printf 'local all navdb_pw scram-sha-256\nlocal all all trust\n' > '$hba'"
"${owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=200 -c fsync=off -c max_pred_locks_per_transaction=1024 -c max_locks_per_transaction=256" \
  start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }

secret="pw-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 "host=$dir user=navdb dbname=postgres" \
  -c "CREATE DATABASE navdb" \
  -c "CREATE ROLE navdb_pw LOGIN SUPERUSER PASSWORD '$secret'"

export NAVDB_TEST_POSTGRESQL="postgresql:///navdb?host=$dir&user=navdb"
export NAVDB_TEST_POSTGRESQL_PASSWORD="postgresql://navdb_pw@/navdb?host=$dir"
export NAVDB_TEST_POSTGRESQL_SECRET="$secret"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') at $dir (Unix socket only)" >&2
"$@"
