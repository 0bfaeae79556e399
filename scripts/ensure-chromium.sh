#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (never a Playwright-downloaded browser).
# Installs it with apt-get when it is missing; CHROMIUM_PATH points elsewhere if you have one.
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$path" ]; then exit 0; fi
echo "ensure-chromium: $path not found; installing Debian's chromium package" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
[ -x "$path" ] || { echo "ensure-chromium: chromium still missing at $path" >&2; exit 1; }
