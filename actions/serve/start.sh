#!/usr/bin/env bash
# actions/serve: starts dist/serve/index.js (the one-file server, no node_modules) in the background,
# detached from the step so that the step can end, and waits for GitLab's /-/readiness. Everything
# the server prints goes to one log file, printed when it fails to start and named in the job summary.
set -euo pipefail

log="${RUNNER_TEMP:-/tmp}/gitlab-actions-serve.log"
: > "$log" # made (or emptied) now: the server's own redirection may come after the first read below
echo "log=$log" >> "$GITHUB_OUTPUT"
echo "The reference server's log (stdout and stderr): \`$log\`" >> "$GITHUB_STEP_SUMMARY"

fail() {
  echo "::error title=gitlab-actions serve::$1"
  if [ -s "$log" ]; then
    echo "::group::$log"
    cat "$log"
    echo "::endgroup::"
  fi
  exit 1
}

[[ "$INPUT_TIMEOUT" =~ ^[0-9]+$ ]] || fail "Input 'timeout' must be a whole number of seconds, got '$INPUT_TIMEOUT'"
# The same Node the other actions use (actions/node.sh: a Node >= 24 on PATH, else the runner's own
# node24); it says what is missing when there is none.
node=(bash "$(dirname "$0")/../node.sh")
"${node[@]}" -e 0 || exit 1

args=(serve --port "$INPUT_PORT" --host "$INPUT_HOST" --edition "$INPUT_EDITION")
[ -z "$INPUT_SEED" ] || args+=(--seed "$INPUT_SEED")
[ -z "$INPUT_DATA" ] || args+=(--data "$INPUT_DATA")
[ -z "$INPUT_GITLAB_VERSION" ] || args+=(--gitlab-version "$INPUT_GITLAB_VERSION")
IFS=$', \t\n' read -ra hosts <<< "${INPUT_ALLOWED_HOSTS:-}"
# (${a[@]+...}: an empty array under set -u, which bash 3.2 on macOS would call unbound)
for name in ${hosts[@]+"${hosts[@]}"}; do args+=(--allowed-host "$name"); done

# nohup and no inherited stdio: the server outlives this step and the shell that started it. Without
# npm_lifecycle_event: under `npx` serve stops when its parent goes (src/cli/serve.ts), and this parent goes now.
nohup env -u npm_lifecycle_event "${node[@]}" "$SERVE_BUNDLE" "${args[@]}" > "$log" 2>&1 < /dev/null &
pid=$!
echo "pid=$pid" >> "$GITHUB_OUTPUT"

ready() {
  "${node[@]}" -e 'fetch(process.argv[1] + "/-/readiness").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$1"
}

deadline=$((SECONDS + INPUT_TIMEOUT))
url=''
while :; do
  if ! kill -0 "$pid" 2> /dev/null; then
    wait "$pid" && code=0 || code=$?
    fail "the server exited with $code before it was ready: $(grep -v '^$' "$log" | tail -n 1)"
  fi
  # The first line says where it listens: "... listening on ADDRESS (API at URL/api/v4)".
  [ -n "$url" ] || url=$(sed -n 's|.*listening on .* (API at \(http[^ ]*\)/api/v4).*|\1|p' "$log" | head -n 1)
  if [ -n "$url" ] && ready "$url"; then break; fi
  [ "$SECONDS" -lt "$deadline" ] || fail "not ready after ${INPUT_TIMEOUT}s"
  sleep 0.2
done

token=''
[ -n "$INPUT_SEED" ] || token=$(sed -n 's|.*default seed: administrator root, token \([^ ]*\) .*|\1|p' "$log" | head -n 1)
# Off loopback the token is a random one (src/server/seed/default.ts): a secret, kept out of the logs.
[ -z "$token" ] || [ "$token" = glpat-emulator-root-token ] || echo "::add-mask::$token"
{
  echo "url=$url"
  echo "api-url=$url/api/v4"
  echo "token=$token"
} >> "$GITHUB_OUTPUT"
echo "GitLab reference server ready at $url (pid $pid), log in $log"
