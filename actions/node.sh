#!/usr/bin/env bash
# Runs an action bundle (`node.sh dist/<name>/index.js`) with a Node.js of at least version 24, on
# GitHub-hosted runners, self-hosted runners and `container:` jobs alike. The first that works wins:
#   1. $GITLAB_ACTIONS_NODE, when set (a path to a node binary; must be >= 24, else the step fails);
#   2. `node` on PATH, when it is >= 24;
#   3. the runner's own node24: `/__e/node24/bin/node` in a container job (the runner mounts its
#      `externals` directory at /__e), else `<runner>/externals/node24/bin/node`, where <runner> is
#      found from the Runner.Worker process that started this step (a composite step's shell is its child);
#   4. otherwise the step fails with one sentence saying what is needed.
# `exec`: node replaces this shell, so the runner's SIGINT/SIGTERM reach the action.
set -u
want=24

# The major version of the node at $1, or nothing when it does not run.
major() {
  local v
  v=$("$1" --version 2>/dev/null) || return 1
  v=${v#v}
  [[ $v =~ ^[0-9]+ ]] && echo "${BASH_REMATCH[0]}"
}
fits() {
  local m
  m=$(major "$1") && [ -n "$m" ] && [ "$m" -ge "$want" ]
}

# The executable of process $1 (Linux /proc, else ps).
exe_of() {
  if [ -e "/proc/$1/exe" ]; then
    readlink "/proc/$1/exe" 2>/dev/null
  else
    ps -o comm= -p "$1" 2>/dev/null
  fi
}
# The parent of process $1.
parent_of() {
  if [ -r "/proc/$1/stat" ]; then
    local stat
    stat=$(<"/proc/$1/stat")
    stat=${stat##*) } # after the command name, which may hold spaces
    set -- $stat
    echo "$2"
  else
    ps -o ppid= -p "$1" 2>/dev/null | tr -d ' '
  fi
}
# `<runner>/externals`, from the first Runner.Worker among this shell's ancestors.
runner_externals() {
  local pid=$$ exe depth
  for depth in 1 2 3 4 5 6 7 8; do
    pid=$(parent_of "$pid") || return 1
    [ -n "$pid" ] && [ "$pid" -gt 1 ] || return 1
    exe=$(exe_of "$pid") || continue
    case "$exe" in
      */bin/Runner.Worker | */bin/Runner.Worker.exe)
        exe=${exe%/bin/Runner.Worker*}
        echo "$exe/externals"
        return 0
        ;;
    esac
  done
  return 1
}

if [ -n "${GITLAB_ACTIONS_NODE:-}" ]; then
  node=$GITLAB_ACTIONS_NODE
  if fits "$node"; then exec "$node" "$@"; fi
  # Say which: no such file, a file that cannot run, or a node too old (or not a node at all).
  if command -v "$node" >/dev/null 2>&1; then
    v=$("$node" --version 2>/dev/null)
    v=${v%%$'\n'*}
    [ -n "$v" ] || v='no version'
    echo "::error::GITLAB_ACTIONS_NODE ($node) is not a Node.js $want or later: it says $v"
  elif [ -e "$node" ]; then
    echo "::error::GITLAB_ACTIONS_NODE ($node) is not an executable file: set it to the path of a Node.js $want or later"
  else
    echo "::error::GITLAB_ACTIONS_NODE ($node) was not found: set it to the path of a Node.js $want or later"
  fi
  exit 1
fi
if command -v node >/dev/null 2>&1 && fits node; then exec node "$@"; fi
for candidate in /__e/node$want/bin/node "$(runner_externals)/node$want/bin/node"; do
  if [ -x "$candidate" ] && fits "$candidate"; then exec "$candidate" "$@"; fi
done
found=$(command -v node 2>/dev/null) && found="; the node on PATH is $("$found" --version 2>/dev/null || echo 'not runnable') ($found)" || found='; there is no node on PATH'
echo "::error::gitlab-actions needs Node.js $want or later: put it on PATH (actions/setup-node with node-version: $want), or set GITLAB_ACTIONS_NODE to its path; the runner's own node$want was not found either$found"
exit 1
