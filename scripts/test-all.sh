#!/usr/bin/env bash
# npm test: every check, overlapped so a 2-core CI machine is never idle while a step waits.
#
#   validate                                  (seconds; a broken brand file stops everything early)
#   lint ‖ typecheck ‖ build                  (the build skips its own type check: typecheck runs it)
#   e2e (after the build)  ‖  unit            (the unit tests fill the gaps the browser tests leave;
#                                               lint's and typecheck's output follow the e2e's)
#
# Each step's output is kept and printed whole when it ends (the e2e tests stream as they run),
# so the logs read as if the steps had run one after another; each step's wall time is printed,
# and the exit status is non-zero when any step failed. TEST_SERIAL=1 runs them one at a time.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=()
now() { date +%s; }

# run NAME CMD…: in the background, output to $logs/NAME.log, status and seconds to $logs/NAME.rc
run() {
  local name=$1
  shift
  (
    start=$(now)
    "$@" >"$logs/$name.log" 2>&1
    echo "$? $(($(now) - start))" >"$logs/$name.rc"
  ) &
}
# finish NAME: wait for it, print its output and its time, note a failure
finish() {
  local name=$1
  while [ ! -f "$logs/$name.rc" ]; do wait -n 2>/dev/null || sleep 0.2; done
  read -r rc secs <"$logs/$name.rc"
  echo "━━ npm run $name ━━"
  cat "$logs/$name.log"
  echo "━━ $name: $([ "$rc" -eq 0 ] && echo ok || echo "FAILED (exit $rc)") in ${secs}s ━━"
  [ "$rc" -eq 0 ] || failed+=("$name")
}

start=$(now)
npm run --silent validate || exit 1

if [ -n "${TEST_SERIAL:-}" ]; then
  for step in lint typecheck test:unit build; do
    run "$step" npm run --silent "$step"
    finish "$step"
  done
else
  # The unit tests need no build: they start now and use the CPU the other steps leave (the
  # browser tests wait on pages, servers and timers much of the time). Not niced: on a machine
  # shared with other jobs a niced run starves and its child-process tests time out.
  run test:unit npm run --silent test:unit
  run lint npm run --silent lint
  run typecheck npm run --silent typecheck
  run build env LOANSITES_BUILD_SKIP_TYPECHECK=1 npm run --silent build
  # The browser tests need only the build: they start when it is done, and lint and the type
  # check (often still running on a loaded machine) are reported after them.
  finish build
fi

if [[ " ${failed[*]} " == *" build "* ]]; then
  echo "━━ test:e2e skipped: the build failed ━━"
else
  echo "━━ npm run test:e2e ━━"
  e2e_start=$(now)
  # kept as well as streamed: its failures are printed again at the very end (below)
  npm run --silent test:e2e 2>&1 | tee "$logs/e2e.log"
  rc=${PIPESTATUS[0]}
  echo "━━ test:e2e: $([ "$rc" -eq 0 ] && echo ok || echo "FAILED (exit $rc)") in $(($(now) - e2e_start))s ━━"
  [ "$rc" -eq 0 ] || failed+=(test:e2e)
fi
[ -n "${TEST_SERIAL:-}" ] || for step in lint typecheck test:unit; do finish "$step"; done

# The unit tests' output follows the browser tests', so a browser test's failure would be far up a
# long log, out of sight of whoever reads its end: each failure's first lines (the assertion, the
# line of the test) are repeated here. The reporter numbers them "  1) tests/e2e/…".
if [[ " ${failed[*]} " == *" test:e2e "* ]] && [ -f "$logs/e2e.log" ]; then
  echo "━━ test:e2e failures, again (in full above) ━━"
  sed 's/\x1b\[[0-9;]*m//g' "$logs/e2e.log" | awk '/^ +[0-9]+\) /{ p = 1; n = 0 } /^ +[0-9]+ (passed|failed|flaky|skipped|did not run)/{ p = 0 } p && n < 30 { print; n++ }' | head -150
fi

echo "━━ npm test: $([ ${#failed[@]} -eq 0 ] && echo ok || echo "FAILED: ${failed[*]}") in $(($(now) - start))s ━━"
[ ${#failed[@]} -eq 0 ]
