#!/bin/sh
# The container's entrypoint (see Dockerfile): the one-file server on 0.0.0.0, its store in /data (a
# volume), seeded from GITLAB_ACTIONS_SEED (YAML text) or else a mounted /seed/seed.yaml, or else
# the built-in seed. A store in /data that already holds data keeps it and ignores the seed.
# Arguments are passed on to `serve` (e.g. --gitlab-version 17.2.0 --edition ce).
# GITLAB_ACTIONS_ALLOWED_HOSTS (comma- or space-separated): the names other containers reach it by,
# such as its service name (`gitlab` in http://gitlab:8080), each passed as --allowed-host: on
# 0.0.0.0 the server answers IP addresses and localhost, and refuses other names (DNS rebinding).
set -eu
server=${GITLAB_ACTIONS_SERVER:-/app/index.js}
seed_file=${GITLAB_ACTIONS_SEED_FILE:-/seed/seed.yaml}

set -- --host 0.0.0.0 --port "${GITLAB_ACTIONS_PORT:-8080}" --data "${GITLAB_ACTIONS_DATA:-/data}" "$@"
if [ -n "${GITLAB_ACTIONS_SEED:-}" ]; then
  # A file, so that a seed error names it: GITLAB_ACTIONS_SEED.yaml: projects[0].path: ...
  dir=$(mktemp -d)
  printf '%s\n' "$GITLAB_ACTIONS_SEED" > "$dir/GITLAB_ACTIONS_SEED.yaml"
  set -- --seed "$dir/GITLAB_ACTIONS_SEED.yaml" "$@"
elif [ -f "$seed_file" ]; then
  set -- --seed "$seed_file" "$@"
fi
set -f # the names are split on commas and spaces, never expanded as file patterns
for name in $(printf '%s' "${GITLAB_ACTIONS_ALLOWED_HOSTS:-}" | tr ',' ' '); do
  set -- --allowed-host "$name" "$@"
done
set +f
# exec: node becomes PID 1 and gets `docker stop`'s SIGTERM itself (serve then closes the store and exits 0).
exec node "$server" serve "$@"
