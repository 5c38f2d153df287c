#!/usr/bin/env bash
# With Directus running (bench/directus/README.md): tracks the organizations table
# and lets the Public policy read bench01's public, curated rows — what our visitors see.
set -euo pipefail
URL=${DIRECTUS_URL:-http://127.0.0.1:8055}
TOKEN=$(curl -sf "$URL/auth/login" -H 'content-type: application/json' \
  -d '{"email":"admin@example.com","password":"bench-admin-password"}' | jq -r .data.access_token)
AUTH="authorization: Bearer $TOKEN"
curl -sf -X PATCH "$URL/collections/organizations" -H "$AUTH" -H 'content-type: application/json' -d '{"meta":{"note":"bench01"}}' > /dev/null
POLICY=$(curl -sf "$URL/access?filter%5Brole%5D%5B_null%5D=true&filter%5Buser%5D%5B_null%5D=true&fields=policy" -H "$AUTH" | jq -r '.data[0].policy')
# Once: run again (bench/directus/run.sh runs it before every measurement), it adds nothing.
GRANTED=$(curl -sf "$URL/permissions?filter%5Bpolicy%5D%5B_eq%5D=$POLICY&filter%5Bcollection%5D%5B_eq%5D=organizations&filter%5Baction%5D%5B_eq%5D=read&fields=id" -H "$AUTH" | jq '.data | length')
if [ "$GRANTED" = 0 ]; then
  curl -sf -X POST "$URL/permissions" -H "$AUTH" -H 'content-type: application/json' -d "{\"policy\":\"$POLICY\",\"collection\":\"organizations\",\"action\":\"read\",\"fields\":[\"*\"],\"permissions\":{\"_and\":[{\"visibility\":{\"_eq\":\"public\"}},{\"status\":{\"_eq\":\"active\"}}]}}" > /dev/null
fi
curl -sf "$URL/items/organizations?limit=2&sort=name_inc,id&fields=name_inc,visibility" | jq -c .data
