#!/usr/bin/env bash
# Runs a command with Node.js >= 22.15 first on PATH. When the machine's node is older (or
# missing), Node 24 LTS is installed from the npm registry into .cache/node (git-ignored).
#   scripts/with-node.sh npm install && scripts/with-node.sh npm start
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=15)?0:1)'
}

cached_bin="$root/.cache/node/node_modules/node-linux-$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')/bin"
if [ -x "$cached_bin/node" ]; then
  export PATH="$cached_bin:$PATH"
fi
if ! node_ok; then
  arch="$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')"
  echo "with-node: installing Node 24 (node-linux-$arch) into .cache/node" >&2
  mkdir -p "$root/.cache/node"
  npm install --prefix "$root/.cache/node" --no-save --no-audit --no-fund "node-linux-$arch@24" >&2
  export PATH="$root/.cache/node/node_modules/node-linux-$arch/bin:$PATH"
  node_ok || { echo "with-node: could not get Node >= 22.15" >&2; exit 1; }
fi
exec "$@"
