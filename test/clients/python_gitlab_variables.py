"""Works a project's CI/CD variables through python-gitlab (Debian's python3-gitlab) as a test suite
written for a real GitLab would: `project.variables.create/list/get/update/delete`, GitLab's 400 for a
masked value too short, the 403 of a guest, and a pipeline whose `rules:if` reads a project variable,
in GITLAB_PROJECT as GITLAB_TOKEN's user; prints what it saw as JSON. Run by
test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

made = project.variables.create({"key": "DEPLOY_TARGET", "value": "staging", "description": "where to"})
seen["created"] = [made.key, made.value, made.variable_type, made.protected, made.masked, made.environment_scope]
project.variables.create({"key": "API_TOKEN", "value": "abcdefgh1234", "masked": True})
seen["listed"] = sorted(v.key for v in project.variables.list(get_all=True))
got = project.variables.get("DEPLOY_TARGET")
got.value = "production"
got.save()
seen["saved"] = project.variables.get("DEPLOY_TARGET").value
try:
    project.variables.create({"key": "SHORT", "value": "short", "masked": True})
except gitlab.exceptions.GitlabCreateError as err:
    seen["short"] = [err.response_code, err.error_message]

guest = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_GUEST_TOKEN"])
try:
    guest.projects.get(project.id, lazy=True).variables.list()
except gitlab.exceptions.GitlabListError as err:
    seen["guest"] = err.response_code

config = 'deploy:\n  rules:\n    - if: $DEPLOY_TARGET == "production"\n  script: [echo deploying]\n'
project.files.create({"file_path": ".gitlab-ci.yml", "branch": "main", "content": config, "commit_message": "CI"})
pipeline = project.pipelines.create({"ref": "main"})
seen["jobs"] = [j.name for j in pipeline.jobs.list()]

project.variables.delete("DEPLOY_TARGET")
project.variables.delete("API_TOKEN")
seen["left"] = [v.key for v in project.variables.list()]
print(json.dumps(seen))
