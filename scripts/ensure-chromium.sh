#!/usr/bin/env bash
# The /docs page test drives a real headless browser: Debian's `chromium` package (never a
# browser downloaded by a library). Installs it when missing on a Debian machine where we may;
# otherwise says what to do. CHROMIUM_PATH names another Chromium binary.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi; }
  echo "ensure-chromium: installing Debian's chromium (for the /docs page test)" >&2
  if as_root apt-get update >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >&2; then
    exit 0
  fi
fi
echo "ensure-chromium: no Chromium at $chromium; install your system's chromium package or set CHROMIUM_PATH" >&2
exit 1
