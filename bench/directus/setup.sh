#!/usr/bin/env bash
# Directus beside the API on the same data (bench/directus.ts): copies bench01's organizations
# (400,000 rows) from the seeded benchmark database into a Directus database on the same
# PostgreSQL server, installs nothing into the repository (Directus lives in $DIRECTUS_DIR),
# bootstraps Directus there (grant.sh, with Directus running, lets its Public policy read the
# public, curated rows).
# Usage: bench/directus/setup.sh [benchmark database]   (README.md: the steps before and after)
set -euo pipefail
SOURCE_DB=${1:-intelnotes_bench}
DIRECTUS_DIR=${DIRECTUS_DIR:-/tmp/directus}
DIRECTUS_DB=${DIRECTUS_DB:-directus_bench}
PG="psql -h ${PGHOST:-127.0.0.1} -p ${PGPORT:-5432} -U ${PGUSER:-postgres} -v ON_ERROR_STOP=1 -q"
if [ ! -f "$DIRECTUS_DIR/node_modules/directus/cli.js" ]; then
  echo "no Directus in $DIRECTUS_DIR: install it first (bench/directus/README.md, step 1)" >&2
  exit 1
fi
TENANT=$($PG -d "$SOURCE_DB" -Atc "SELECT id FROM tenants WHERE code = 'bench01'")
if [ -z "$TENANT" ]; then
  echo "no tenant bench01 in $SOURCE_DB: seed it first (node --import tsx bench/seed.ts $SOURCE_DB)" >&2
  exit 1
fi

# WITH (FORCE): a Directus still running holds connections to it, which a plain DROP refuses.
$PG -d postgres -c "DROP DATABASE IF EXISTS $DIRECTUS_DB WITH (FORCE)" -c "CREATE DATABASE $DIRECTUS_DB"
# The organization's columns a list shows; arrays as comma-separated text (Directus' "csv").
$PG -d "$DIRECTUS_DB" -c "CREATE TABLE organizations (id uuid PRIMARY KEY, name_inc text, name_dba text,
  ownership_type text, founding_date date, emails text, phones text, associated_urls text, notes text, hq_city text,
  visibility text NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)"
$PG -d "$SOURCE_DB" -c "\copy (SELECT id, name_inc, name_dba, ownership_type, founding_date, array_to_string(emails, ', '),
  array_to_string(phones, ', '), array_to_string(associated_urls, ', '), notes, hq_city, visibility, status, created_at, updated_at
  FROM organizations WHERE tenant_id = '$TENANT') TO STDOUT" | $PG -d "$DIRECTUS_DB" -c "\copy organizations FROM STDIN"
# What a Directus admin would add for this list: its sort and the permission's filter.
$PG -d "$DIRECTUS_DB" -c "CREATE INDEX organizations_name ON organizations (name_inc, id)" \
  -c "CREATE INDEX organizations_visibility ON organizations (visibility, status)" -c "VACUUM ANALYZE organizations"

cd "$DIRECTUS_DIR"
cat > .env <<ENV
DB_CLIENT=pg
DB_HOST=${PGHOST:-127.0.0.1}
DB_PORT=${PGPORT:-5432}
DB_DATABASE=$DIRECTUS_DB
DB_USER=${PGUSER:-postgres}
SECRET=bench-secret-bench-secret-bench-secret
ADMIN_EMAIL=admin@example.com
ADMIN_PASSWORD=bench-admin-password
HOST=127.0.0.1
PORT=${DIRECTUS_PORT:-8055}
PUBLIC_URL=http://127.0.0.1:${DIRECTUS_PORT:-8055}
LOG_LEVEL=warn
TELEMETRY=false
CACHE_ENABLED=false
RATE_LIMITER_ENABLED=false
# Directus answers 503 when its event loop lags (on by default): off, so it is measured, not shed.
PRESSURE_LIMITER_ENABLED=false
ENV
node node_modules/directus/cli.js bootstrap
echo "Directus bootstrapped on $DIRECTUS_DB with bench01's $($PG -d "$DIRECTUS_DB" -Atc 'SELECT count(*) FROM organizations') organizations"
