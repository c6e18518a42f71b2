#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests (CI runs it from test.sh).
#
#   scripts/pg-test-cluster.sh start    initdb + start + roles + data (reuses a cluster already running there)
#   scripts/pg-test-cluster.sh stop     stop it and remove its folder
#   scripts/pg-test-cluster.sh status   exit 0 when our cluster is running there, 1 otherwise
#   scripts/pg-test-cluster.sh env      print: export QG_TEST_PG_HOST=127.0.0.1 QG_TEST_PG_PORT=...
#   scripts/pg-test-cluster.sh load-demo FILE.sql
#                                       (re)load database demo from `querygate demo-db --postgres FILE.sql`
#                                       (test.sh runs it after the build; skipped when FILE is loaded already)
#
# Port ${QG_PG_PORT:-5499} (private: other jobs on these machines use 5432), folder
# ${QG_PG_DIR:-/tmp/querygate-pg-$PORT}. Listens on 127.0.0.1 only, trust auth, fsync off:
# the data is rebuilt on every start, so durability buys nothing.
#
# Roles (passwords equal the role name, though trust auth does not check them):
#   qg_owner   LOGIN, not superuser: owns every database and all loaded data.
#   qg_reader  LOGIN, NOSUPERUSER NOCREATEDB NOCREATEROLE, default_transaction_read_only,
#              temp_file_limit 1GB:
#              CONNECT on the databases, USAGE on their schemas, SELECT on their tables,
#              nothing else (PUBLIC loses CONNECT/TEMP). The role the gateway should run as.
#   qg_writer  LOGIN: owns posture.public.notes, so a test can check that the gateway
#              refuses to start as a role able to write an allowlisted table. In demo: the
#              write tools' role (INSERT on span_annotations, SELECT on spans and span_annotations).
# Databases (owned by qg_owner):
#   chinook        /work/shared/data/chinook/Chinook_PostgreSql_v1.4.2.sql (album, albumid, invoiceline ...)
#   defog_<db>     the 11 files in shared/data/defog/pg (ewallet lives in schema consumer_div)
#   posture        notes (owned by qg_writer), readable (owned by qg_owner); both readable by qg_reader
#   demo           (load-demo only) the querygate demo; qg_reader may read projects, traces, spans and
#                  span_annotations but NOT users and api_keys: the demo shows the gateway keeping them out
#
# Must run as root (initdb runs as the postgres user via runuser) or as postgres itself.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data_root="${QG_SHARED_DATA_DIR:-$root/../shared/data}"
port="${QG_PG_PORT:-5499}"
dir="${QG_PG_DIR:-/tmp/querygate-pg-$port}"
bin="${QG_PG_BIN:-/usr/lib/postgresql/15/bin}"
pgdata="$dir/data"
log="$dir/server.log"
ready_marker="$dir/loaded"  # written last by a successful start: data complete

die() {
  echo "pg-test-cluster: $*" >&2
  exit 1
}

# initdb and pg_ctl refuse to run as root; run them as postgres when we are root.
as_pg() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

psql_su() { psql -X -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 -q "$@"; }

running_here() {
  [[ -f "$pgdata/postmaster.pid" ]] && as_pg "$bin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

# True when every entry of $dir is one this script makes (a leftover of a failed start).
only_our_files() {
  local f
  for f in "$dir"/* "$dir"/.[!.]*; do
    [[ -e "$f" ]] || continue
    case "${f##*/}" in
      data | server.log | initdb.log | loaded | load-*.log | .s.PGSQL.*) ;;
      *) return 1 ;;
    esac
  done
}

do_stop() {
  if [[ -d "$pgdata" ]] && running_here; then
    as_pg "$bin/pg_ctl" -D "$pgdata" -m fast -w -t 30 stop >/dev/null
  fi
  # Only remove a folder that is ours (an initdb folder, or a leftover of ours), never an arbitrary path.
  if [[ -d "$dir" ]]; then
    if [[ -f "$pgdata/PG_VERSION" ]] || only_our_files; then
      rm -rf "$dir"
    else
      die "not removing $dir: it does not look like a cluster folder made by this script"
    fi
  fi
}

# Grants for qg_reader in one database: CONNECT, USAGE on the given schemas, SELECT on their tables.
grant_reader_sql() {
  local db="$1"
  shift
  local sql="REVOKE ALL ON DATABASE $db FROM PUBLIC; GRANT CONNECT ON DATABASE $db TO qg_reader;"
  local s
  for s in "$@"; do
    sql+=" GRANT USAGE ON SCHEMA $s TO qg_reader; GRANT SELECT ON ALL TABLES IN SCHEMA $s TO qg_reader;"
  done
  echo "$sql"
}

# Creates database $1 owned by qg_owner and loads file $2 into it as qg_owner (one transaction).
load_db() {
  local db="$1" file="$2"
  psql_su -d postgres -c "CREATE DATABASE $db OWNER qg_owner"
  psql -X -h 127.0.0.1 -p "$port" -U qg_owner -d "$db" -v ON_ERROR_STOP=1 -q -1 -f "$file" \
    >"$dir/load-$db.log" 2>&1 || {
    cat "$dir/load-$db.log" >&2
    return 1
  }
}

do_start() {
  local t0
  t0=$(date +%s%N)
  [[ -x "$bin/initdb" ]] || die "no PostgreSQL 15 server binaries in $bin (apt-get install postgresql, or scripts/install-deps.sh --test)"
  [[ -f "$data_root/chinook/Chinook_PostgreSql_v1.4.2.sql" ]] || die "no Chinook script under $data_root/chinook"

  if [[ -d "$pgdata" ]] && running_here; then
    if [[ -f "$ready_marker" ]] && pg_isready -q -h 127.0.0.1 -p "$port"; then
      echo "pg-test-cluster: reusing the cluster already running on 127.0.0.1:$port ($dir)"
      return 0
    fi
    # Running but not (or not fully) loaded, or on another port: start over.
    do_stop
  fi
  if port_busy; then
    die "port $port on 127.0.0.1 is already in use by something else (not the cluster in $dir); set QG_PG_PORT to a free port"
  fi
  # A leftover folder from a killed run: throw it away.
  [[ -e "$dir" ]] && do_stop

  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres:postgres "$dir"
    runuser -u postgres -- test -x "$dir" || die "user postgres cannot reach $dir (every parent folder must be traversable); set QG_PG_DIR"
  fi
  as_pg "$bin/initdb" -D "$pgdata" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
    {
      cat "$dir/initdb.log" >&2
      die "initdb failed"
    }
  as_pg "$bin/pg_ctl" -D "$pgdata" -l "$log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || {
    tail -20 "$log" >&2 || true
    die "the server did not start (log: $log)"
  }

  psql_su -d postgres <<'SQL'
CREATE ROLE qg_owner LOGIN PASSWORD 'qg_owner' NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE ROLE qg_reader LOGIN PASSWORD 'qg_reader' NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE ROLE qg_writer LOGIN PASSWORD 'qg_writer' NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE qg_reader SET default_transaction_read_only = on;
-- What the gateway's start-up posture check asks for (only a superuser may set it).
ALTER ROLE qg_reader SET temp_file_limit = '1GB';
ALTER ROLE qg_writer SET temp_file_limit = '1GB';
SQL

  # Load every database in parallel (the server and psql share the 2 cores; chinook dominates).
  local pids=() names=() db f
  load_db chinook "$data_root/chinook/Chinook_PostgreSql_v1.4.2.sql" &
  pids+=($!)
  names+=(chinook)
  for f in "$data_root"/defog/pg/*.sql; do
    db="defog_$(basename "$f" .sql)"
    load_db "$db" "$f" &
    pids+=($!)
    names+=("$db")
  done
  local failed=() i
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${names[$i]}")
  done
  ((${#failed[@]} == 0)) || die "loading failed: ${failed[*]} (logs in $dir/load-*.log)"

  # The posture database: a table qg_writer owns (so it can write it) next to one it cannot.
  psql_su -d postgres -c "CREATE DATABASE posture OWNER qg_owner"
  psql_su -d posture <<'SQL'
CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO notes VALUES (1, 'owned by qg_writer'), (2, 'second');
ALTER TABLE notes OWNER TO qg_writer;
CREATE TABLE readable (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO readable VALUES (1, 'owned by qg_owner');
ALTER TABLE readable OWNER TO qg_owner;
GRANT USAGE ON SCHEMA public TO qg_writer;
SQL
  # Owners grant, so the grants read as the owner's (as in a real deployment).
  psql -X -h 127.0.0.1 -p "$port" -U qg_writer -d posture -v ON_ERROR_STOP=1 -q -c "GRANT SELECT ON notes TO qg_reader"

  local schemas
  for db in "${names[@]}"; do
    schemas=(public)
    [[ "$db" == defog_ewallet ]] && schemas+=(consumer_div)
    psql -X -h 127.0.0.1 -p "$port" -U qg_owner -d "$db" -v ON_ERROR_STOP=1 -q -c "$(grant_reader_sql "$db" "${schemas[@]}")"
  done
  psql -X -h 127.0.0.1 -p "$port" -U qg_owner -d posture -v ON_ERROR_STOP=1 -q \
    -c "REVOKE ALL ON DATABASE posture FROM PUBLIC" -c "GRANT CONNECT ON DATABASE posture TO qg_reader, qg_writer" \
    -c "GRANT USAGE ON SCHEMA public TO qg_reader" -c "GRANT SELECT ON readable TO qg_reader"
  # template1/postgres keep PUBLIC's default CONNECT; the reader is granted nothing there.

  local counts
  counts=$(psql -X -h 127.0.0.1 -p "$port" -U qg_reader -d chinook -At -c \
    "SELECT (SELECT count(*) FROM track) || ' tracks, ' || (SELECT count(*) FROM invoiceline) || ' invoice lines'")
  touch "$ready_marker"
  local ms=$((($(date +%s%N) - t0) / 1000000))
  printf 'pg-test-cluster: PostgreSQL %s on 127.0.0.1:%s (%s): %d databases (chinook: %s; posture), roles qg_owner/qg_reader/qg_writer, ready in %d.%01d s\n' \
    "$(psql_su -d postgres -At -c 'SHOW server_version')" "$port" "$dir" $((${#names[@]} + 1)) "$counts" \
    $((ms / 1000)) $((ms % 1000 / 100))
}

# The demo database from FILE. Loaded under a temporary name and renamed into
# place, so tests reading demo never see half of it; its sha256 is kept as the
# database's comment, so loading the same script again costs one query.
do_load_demo() {
  local file="${1:-}" sum current tmp="demo_loading_$$"
  [[ -n "$file" && -f "$file" ]] || die "load-demo needs FILE.sql, written by: querygate demo-db --postgres FILE.sql"
  { running_here && pg_isready -q -h 127.0.0.1 -p "$port"; } || die "no cluster running on 127.0.0.1:$port: run $0 start first"
  sum="sha256:$(sha256sum "$file" | cut -d' ' -f1)"
  current=$(psql_su -d postgres -At -c "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = 'demo'")
  if [[ "$current" == "$sum" ]]; then
    echo "pg-test-cluster: database demo already holds $file"
    return 0
  fi
  psql_su -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $tmp"
  load_db "$tmp" "$file" || die "loading $file failed (log: $dir/load-$tmp.log)"
  # Owner's grants, as in a deployment: users and api_keys get none.
  psql -X -h 127.0.0.1 -p "$port" -U qg_owner -d "$tmp" -v ON_ERROR_STOP=1 -q \
    -c "REVOKE ALL ON DATABASE $tmp FROM PUBLIC" -c "GRANT CONNECT ON DATABASE $tmp TO qg_reader" \
    -c "GRANT USAGE ON SCHEMA public TO qg_reader" \
    -c "GRANT SELECT ON projects, traces, spans, span_annotations TO qg_reader" \
    -c "GRANT CONNECT ON DATABASE $tmp TO qg_writer" -c "GRANT USAGE ON SCHEMA public TO qg_writer" \
    -c "GRANT SELECT ON projects, traces, spans, span_annotations TO qg_writer" \
    -c "GRANT INSERT ON span_annotations TO qg_writer"
  psql_su -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS demo WITH (FORCE)" -c "ALTER DATABASE $tmp RENAME TO demo" \
    -c "COMMENT ON DATABASE demo IS '$sum'"
  echo "pg-test-cluster: database demo loaded from $file ($(psql_su -d demo -At -c 'SELECT count(*) FROM spans') spans)"
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop ;;
  status) running_here && pg_isready -q -h 127.0.0.1 -p "$port" ;;
  env) echo "export QG_TEST_PG_HOST=127.0.0.1 QG_TEST_PG_PORT=$port" ;;
  load-demo) do_load_demo "${2:-}" ;;
  *)
    echo "usage: $0 start|stop|status|env|load-demo FILE.sql   (QG_PG_PORT=${port}, QG_PG_DIR=${dir})" >&2
    exit 2
    ;;
esac
