"""Works a project's pipeline schedules through python-gitlab (Debian's python3-gitlab) as a test suite
written for a real GitLab would: `project.pipelineschedules.create/list/get/save/delete`, the schedule's
`variables` and `inputs` (an array of hashes as a value), `play()`, `take_ownership()` and its pipelines,
GitLab's 400 for a bad cron and the 403 of a guest, in GITLAB_PROJECT as GITLAB_TOKEN's user; prints what
it saw as JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

project.files.create({"file_path": ".gitlab-ci.yml", "branch": "main", "commit_message": "CI",
                      "content": "spec:\n  inputs:\n    services: { type: array, default: [] }\n---\n"
                                 'nightly:\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "schedule"\n'
                                 '  script: [echo "$NIGHTLY"]\n'})
services = [{"name": "web", "ports": [80, 443]}, {"name": "db"}]
made = project.pipelineschedules.create({"description": "nightly", "ref": "main", "cron": "0 1 * * *",
                                         "inputs": [{"name": "services", "value": services}]})
# GitLab presents a created schedule without its caller: neither `inputs` nor `variables`.
seen["created"] = [made.ref, made.cron, made.cron_timezone, made.active, made.owner["username"],
                   sorted(k for k in ("inputs", "variables") if k in made.attributes)]
seen["inputs"] = project.pipelineschedules.get(made.id).attributes["inputs"] == [
    {"name": "services", "value": services}]
made.variables.create({"key": "NIGHTLY", "value": "yes"})
made.cron_timezone = "Europe/Paris"
made.save()
got = project.pipelineschedules.get(made.id)
seen["saved"] = [got.cron_timezone, [[v["key"], v["value"]] for v in got.attributes["variables"]]]
seen["listed"] = [s.description for s in project.pipelineschedules.list(get_all=True)]
try:
    project.pipelineschedules.create({"description": "bad", "ref": "main", "cron": "every day"})
except gitlab.exceptions.GitlabCreateError as err:
    seen["bad_cron"] = [err.response_code, err.error_message]

guest = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_GUEST_TOKEN"])
try:
    guest.projects.get(project.id, lazy=True).pipelineschedules.list()
except gitlab.exceptions.GitlabListError as err:
    seen["guest"] = err.response_code

# play() takes GitLab's body `{"message": "201 Created"}` as the object's attributes: a fresh one each.
seen["play"] = project.pipelineschedules.get(made.id).play()
# `schedule.pipelines` came after Debian's python-gitlab 3.12: the same GET through its HTTP layer.
pipelines = gl.http_list(f"/projects/{project.id}/pipeline_schedules/{made.id}/pipelines")
seen["played"] = [[p["source"], p["ref"]] for p in pipelines]
seen["jobs"] = [j.name for j in project.pipelines.get(pipelines[0]["id"]).jobs.list()]
project.pipelineschedules.get(made.id).take_ownership()
seen["owner"] = project.pipelineschedules.get(made.id).owner["username"]
got.variables.delete("NIGHTLY")
got.delete()
seen["left"] = [s.id for s in project.pipelineschedules.list()]
print(json.dumps(seen))
