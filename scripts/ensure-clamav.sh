#!/usr/bin/env bash
# The malware-scanner tests start a real clamd of their own (test/support/clamd-server.ts):
# Debian's clamav-daemon package. Installs it when missing on a Debian machine where we may,
# without letting apt start its clamd and freshclam services (ours runs on a port of its own, with
# a signature database the tests write; freshclam could not download anything offline anyway).
# Never fails the test run: without clamd those tests are skipped and say why. CLAMD_PATH names
# another clamd binary.
set -uo pipefail
clamd="${CLAMD_PATH:-/usr/sbin/clamd}"
[ -x "$clamd" ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi; }
  echo "ensure-clamav: installing Debian's clamav-daemon (for the clamd scanner tests)" >&2
  # policy-rc.d answering 101 tells the packages' maintainer scripts not to start their services
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ] && printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null && as_root chmod 755 "$policy"; then
    trap 'as_root rm -f "$policy"' EXIT
  fi
  if as_root apt-get update >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clamav-daemon >&2 && [ -x "$clamd" ]; then
    exit 0
  fi
fi
echo "ensure-clamav: no clamd at $clamd, so the clamd scanner tests will be skipped; install your system's clamav-daemon package or set CLAMD_PATH" >&2
exit 0
