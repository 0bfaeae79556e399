#!/usr/bin/env bash
# The servers the tests start themselves: PostgreSQL 15 (the store's tests), Redis and nginx
# (shared cache and deploy tests). Installs Debian's packages with apt-get when missing.
set -euo pipefail
missing=()
[ -x "${PG_BIN:-/usr/lib/postgresql/15/bin}/initdb" ] || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ensure-services: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
# The tests start their own instances; keep the packages' own services from starting.
DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
[ -x "${PG_BIN:-/usr/lib/postgresql/15/bin}/initdb" ] || { echo "ensure-services: PostgreSQL 15 still missing (initdb)" >&2; exit 1; }
