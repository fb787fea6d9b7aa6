#!/usr/bin/env bash
# CI's container check (decisions 29): build the image from the Containerfile, start deploy/compose.yaml with
# podman-compose, run the smoke test (register, a test payment, its webhook received outside the containers,
# the worker SIGKILLed mid-delivery and the delivery still arriving), stop the stack. Prints the image's size
# and the stack's start-to-ready time. Bounded: the smoke test gives up after 4 minutes.
# Without a registry the public images are replaced by local stand-ins (make-bases.sh). If podman cannot run
# containers on this machine, it says so and why, and exits 0 only when SKIP_CONTAINERS_OK=1; else it fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/podman"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"

skip() {
  echo "== containers: SKIPPED: $1"
  [ "${SKIP_CONTAINERS_OK:-0}" = 1 ] && exit 0
  echo "   (set SKIP_CONTAINERS_OK=1 to accept a machine where podman cannot run)"
  exit 1
}
need=()
for tool in podman podman-compose mmdebstrap runc; do command -v "$tool" >/dev/null || need+=("$tool"); done
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc mmdebstrap podman-compose \
      >/dev/null || skip "installing ${need[*]} failed"
  else
    skip "missing ${need[*]} and cannot install them here"
  fi
fi
podman info >/dev/null 2>&1 || skip "podman info fails: $(podman info 2>&1 | tail -1)"

echo "== containers: stand-in base images"
bash "$here/make-bases.sh"
podman run --rm localhost/tolem-ci/debian:bookworm true || skip "podman cannot start a container on this machine"

tag="localhost/tolem:ci-$$"
echo "== containers: build $tag"
started=$(date +%s)
podman build -q --format docker --build-arg BASE=localhost/tolem-ci/node:24 -t "$tag" -f "$root/Containerfile" "$root" \
  >/dev/null
echo "   built in $(($(date +%s) - started)) s; size $(podman image inspect "$tag" --format '{{.Size}}' | numfmt --to=si)B"

project="tolemci$$"
port=$((20000 + $$ % 20000))
work="$(mktemp -d)"
cp -r "$root/deploy/." "$work/"
rm -rf "$work/secrets"
(cd "$work" && sh ./make-secrets.sh >/dev/null)
export TOLEM_IMAGE="$tag" TOLEM_PORT="$port" PUBLIC_BASE_URL="http://127.0.0.1:$port" WEBHOOKS_ALLOW_PRIVATE=true \
  POSTGRES_IMAGE=localhost/tolem-ci/postgres:latest REDIS_IMAGE=localhost/tolem-ci/redis:latest \
  NGINX_IMAGE=localhost/tolem-ci/nginx:latest POSTGRES_PASSWORD="ci-$RANDOM-$RANDOM"
compose() { (cd "$work" && podman-compose -p "$project" -f compose.yaml "$@"); }
cleanup() {
  compose down -v >/dev/null 2>&1 || true
  podman rmi -f "$tag" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== containers: compose up ($project on port $port)"
started=$(date +%s%N)
compose up -d >/dev/null 2>&1 || { compose logs 2>&1 | tail -50; exit 1; }
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do
  if [ $(( ($(date +%s%N) - started) / 1000000000 )) -gt 180 ]; then
    echo "   not ready after 180 s"; compose ps; compose logs 2>&1 | tail -80; exit 1
  fi
  sleep 0.5
done
echo "   start to ready through the proxy: $(( ($(date +%s%N) - started) / 1000000 )) ms"

echo "== containers: smoke test"
if ! node "$here/smoke.mjs" --base "http://127.0.0.1:$port" --worker "${project}_worker_1"; then
  compose ps; compose logs 2>&1 | tail -80; exit 1
fi
echo "== containers: compose down"
