"""Forks a project through python-gitlab (Debian's python3-gitlab) as a test suite written for a real
GitLab would: `project.forks.create`, waiting for `import_status` to be `finished`, the fork's
branches and `forked_from_project`, `project.forks.list`, `forks_count`, the 409 of a taken path,
`delete_fork_relation` (the import status kept), `create_fork_relation`, `mr_default_target_self` saved,
and a compare across the two, in GITLAB_PROJECT as
GITLAB_TOKEN's user; prints what it saw as JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os
import time

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

project.files.create({"file_path": "README.md", "branch": "main", "content": "hi\n", "commit_message": "Readme"})
made = project.forks.create({"path": "widgets-fork", "name": "Widgets fork"})
seen["created"] = [made.path_with_namespace, made.import_status]
fork = gl.projects.get(made.id)
for _ in range(50):
    if fork.import_status == "finished":
        break
    time.sleep(0.1)
    fork = gl.projects.get(made.id)
seen["fork"] = {
    "import_status": fork.import_status,
    "forked_from": fork.forked_from_project["path_with_namespace"],
    "branches": [b.name for b in fork.branches.list()],
}
seen["forks"] = [p.path_with_namespace for p in project.forks.list()]
seen["forks_count"] = gl.projects.get(project.id).forks_count
try:
    project.forks.create({"path": "widgets-fork", "name": "Widgets fork"})
except gitlab.exceptions.GitlabCreateError as err:
    seen["taken"] = [err.response_code, err.error_message]

fork.files.create({"file_path": "fork.md", "branch": "main", "content": "mine\n", "commit_message": "In the fork"})
compare = fork.repository_compare("main", "main", from_project_id=project.id)
seen["compare"] = [c["title"] for c in compare["commits"]]

fork.delete_fork_relation()
unlinked = gl.projects.get(fork.id)
seen["unlinked"] = ["forked_from_project" in unlinked.attributes, unlinked.import_status]
fork.create_fork_relation(project.id)
linked = gl.projects.get(fork.id)
linked.mr_default_target_self = True
linked.save()
seen["linked"] = [linked.forked_from_project["id"] == project.id, gl.projects.get(fork.id).mr_default_target_self]
print(json.dumps(seen))
