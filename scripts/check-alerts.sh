#!/usr/bin/env bash
# Checks the Prometheus alert rules (decisions 29): their syntax (promtool check rules) and their unit
# tests (promtool test rules), deploy/prometheus/alerts.yml and alerts.test.yml. promtool comes with
# Debian's `prometheus` package (apt-get install prometheus); PROMTOOL names another binary.
# That every metric the rules and the Grafana dashboard read is really exported is checked by
# test/observability/metric-names.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
PROMTOOL=${PROMTOOL:-promtool}
if ! command -v "$PROMTOOL" >/dev/null 2>&1; then
  echo "check-alerts: $PROMTOOL not found (Debian: apt-get install prometheus; or set PROMTOOL)" >&2
  exit 1
fi
"$PROMTOOL" check rules deploy/prometheus/alerts.yml
"$PROMTOOL" test rules deploy/prometheus/alerts.test.yml
