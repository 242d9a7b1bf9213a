"""Works the instance's CI/CD variables through python-gitlab (Debian's python3-gitlab) as a test suite
written for a real GitLab would: `gl.variables.create/list/get/update/delete` as GITLAB_TOKEN's
administrator, GitLab's 400 for a value past 10,000 characters, the 403 of a non-administrator, and a
pipeline of GITLAB_PROJECT whose `rules:if` read an instance variable and one the project overrides;
prints what it saw as JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

made = gl.variables.create({"key": "ONLY_INSTANCE", "value": "yes", "description": "everywhere"})
seen["created"] = [made.key, made.value, made.variable_type, made.protected, made.description]
seen["fields"] = sorted(made.attributes)
gl.variables.create({"key": "CHANNEL", "value": "instance"})
seen["listed"] = sorted(v.key for v in gl.variables.list(get_all=True))
got = gl.variables.get("CHANNEL")
got.value = "instance-wide"
got.save()
seen["saved"] = gl.variables.get("CHANNEL").value
try:
    gl.variables.create({"key": "HUGE", "value": "x" * 10_001})
except gitlab.exceptions.GitlabCreateError as err:
    seen["huge"] = [err.response_code, err.error_message]

guest = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_GUEST_TOKEN"])
try:
    guest.variables.list()
except gitlab.exceptions.GitlabListError as err:
    seen["guest"] = err.response_code

project.variables.create({"key": "CHANNEL", "value": "project"})
config = (
    'everywhere:\n  rules:\n    - if: $ONLY_INSTANCE == "yes"\n  script: [echo everywhere]\n'
    'overridden:\n  rules:\n    - if: $CHANNEL == "project"\n  script: [echo project wins]\n'
    'instance_wins:\n  rules:\n    - if: $CHANNEL == "instance-wide"\n  script: [echo instance wins]\n'
)
project.files.create({"file_path": ".gitlab-ci.yml", "branch": "main", "content": config, "commit_message": "CI"})
pipeline = project.pipelines.create({"ref": "main"})
seen["jobs"] = sorted(j.name for j in pipeline.jobs.list())

project.variables.delete("CHANNEL")
gl.variables.delete("CHANNEL")
gl.variables.delete("ONLY_INSTANCE")
seen["left"] = [v.key for v in gl.variables.list()]
print(json.dumps(seen))
