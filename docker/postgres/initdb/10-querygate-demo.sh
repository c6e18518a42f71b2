#!/bin/sh
# The querygate demo in the postgres service of docker-compose.yml. The postgres
# image runs this once, on the first start with an empty data volume, as user
# postgres against its temporary socket-only server.
#
# The data is not in the repository (about 23 MB of SQL): the one-shot compose
# service demo-sql writes it with `querygate demo-db --postgres` into the shared
# volume mounted here at /querygate-demo, and postgres starts only after that
# service has exited successfully.
#
# What it sets up is what querygate expects of a deployment: the data owned by
# qg_owner (no login), and the gateway's role qg_reader, which may read
# projects, traces, spans and span_annotations and nothing else: not users and
# api_keys (the demo's private tables), not writes (read-only by default too).
set -eu

script=/querygate-demo/demo-postgres.sql
if [ ! -s "$script" ]; then
  echo "querygate demo: $script is missing or empty (the demo-sql service writes it)" >&2
  exit 1
fi

psql -v ON_ERROR_STOP=1 -X -q --username "$POSTGRES_USER" --dbname postgres \
  -v reader_password="${QG_READER_PASSWORD:?set QG_READER_PASSWORD}" <<'SQL'
CREATE ROLE qg_owner NOLOGIN;
CREATE ROLE qg_reader LOGIN PASSWORD :'reader_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE qg_reader SET default_transaction_read_only = on;
-- querygate's start-up posture check warns without it; only a superuser may set it.
ALTER ROLE qg_reader SET temp_file_limit = '1GB';
CREATE DATABASE demo OWNER qg_owner;
REVOKE ALL ON DATABASE demo FROM PUBLIC;
GRANT CONNECT ON DATABASE demo TO qg_reader;
SQL

# As qg_owner, so the tables are its own, in one transaction.
psql -v ON_ERROR_STOP=1 -X -q --username "$POSTGRES_USER" --dbname demo -1 \
  -c 'SET ROLE qg_owner' -f "$script" \
  -c 'GRANT USAGE ON SCHEMA public TO qg_reader' \
  -c 'GRANT SELECT ON projects, traces, spans, span_annotations TO qg_reader'

echo "querygate demo: database demo loaded; qg_reader may read projects, traces, spans, span_annotations"
