"""Works a group's CI/CD variables through python-gitlab (Debian's python3-gitlab) as a test suite
written for a real GitLab would: `group.variables.create/list/get/update/delete` on GITLAB_PROJECT's
group, the 403 of a guest, and a pipeline of the project whose `rules:if` reads the group's variable,
as GITLAB_TOKEN's user; prints what it saw as JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
group = gl.groups.get(project.namespace["full_path"])
seen = {}

made = group.variables.create({"key": "RELEASE_CHANNEL", "value": "beta", "protected": False})
seen["created"] = [made.key, made.value, made.variable_type, made.masked, made.environment_scope]
group.variables.create({"key": "GROUP_TOKEN", "value": "abcdefgh1234", "masked": True})
seen["listed"] = sorted(v.key for v in group.variables.list(get_all=True))
got = group.variables.get("RELEASE_CHANNEL")
got.value = "stable"
got.save()
seen["saved"] = group.variables.get("RELEASE_CHANNEL").value

guest = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_GUEST_TOKEN"])
try:
    guest.groups.get(group.id, lazy=True).variables.list()
except gitlab.exceptions.GitlabListError as err:
    seen["guest"] = err.response_code

config = 'release:\n  rules:\n    - if: $RELEASE_CHANNEL == "stable"\n  script: [echo releasing]\n'
project.files.create({"file_path": ".gitlab-ci.yml", "branch": "main", "content": config, "commit_message": "CI"})
pipeline = project.pipelines.create({"ref": "main"})
seen["jobs"] = [j.name for j in pipeline.jobs.list()]

group.variables.delete("RELEASE_CHANNEL")
group.variables.delete("GROUP_TOKEN")
seen["left"] = [v.key for v in group.variables.list()]
print(json.dumps(seen))
