"""python-gitlab turns a project's `public_jobs` ("Project-based pipeline visibility") off as a suite would
(`project.public_jobs = False`, `project.save()`), as GITLAB_TOKEN's user (a Maintainer or more) in
GITLAB_PROJECT; GITLAB_GUEST_TOKEN's user, a Guest of the private project, lists its pipelines before and
is refused after. Prints what it saw as JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

url, path = os.environ["GITLAB_URL"], os.environ["GITLAB_PROJECT"]
gl = gitlab.Gitlab(url, private_token=os.environ["GITLAB_TOKEN"])
guest = gitlab.Gitlab(url, private_token=os.environ["GITLAB_GUEST_TOKEN"]).projects.get(path)
project = gl.projects.get(path)
seen = {"default": project.public_jobs, "guest_before": guest.pipelines.list(get_all=True)}
project.public_jobs = False
project.save()
seen["saved"] = gl.projects.get(path).public_jobs
try:
    guest.pipelines.list(get_all=True)
except gitlab.exceptions.GitlabListError as err:
    seen["guest_after"] = [err.response_code, err.error_message]
print(json.dumps(seen))
