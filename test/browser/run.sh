#!/usr/bin/env bash
# Browser tests of the hosted checkout: Debian's chromium (installed when missing), then the suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x /usr/bin/chromium ]; then
  apt-get update && apt-get install -y chromium
fi
npm run test:browser
