#!/usr/bin/env bash
# A typed client from /openapi.json (#16): generate it with openapi-typescript and type-check a script
# that creates, reads, lists and refunds a payment without a cast. Its own install (TypeScript 5 for the
# generator), so the project keeps TypeScript 7.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --silent
mkdir -p generated
(cd ../.. && npx tsx tools/openapi-client/dump-openapi.ts) > generated/openapi.json
./node_modules/.bin/openapi-typescript generated/openapi.json -o generated/api.ts
./node_modules/.bin/tsc -p tsconfig.json
echo "typed client: client-check.ts type-checks against the generated types"
