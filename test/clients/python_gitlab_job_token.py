"""python-gitlab (Debian's python3-gitlab) authenticated by a CI/CD job token, as a job's script would be:
acme/app's branches, tags and a commit with the running job's token (GITLAB_JOB_TOKEN), another project
hidden from it, and a finished job's token (GITLAB_FINISHED_JOB_TOKEN) refused; prints what it saw as JSON.
Run by test/clients/job-token-clients.test.ts."""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
gl = gitlab.Gitlab(url, job_token=os.environ["GITLAB_JOB_TOKEN"])
project = gl.projects.get("acme/app", lazy=True)
seen = {
    "branches": sorted(b.name for b in project.branches.list(get_all=True)),
    "tags": [t.name for t in project.tags.list(get_all=True)],
    "commit": project.commits.get("main").id,
}
try:
    gl.projects.get("acme/other", lazy=True).branches.list()
except gitlab.exceptions.GitlabListError as err:
    seen["other"] = [err.response_code, err.error_message]
finished = gitlab.Gitlab(url, job_token=os.environ["GITLAB_FINISHED_JOB_TOKEN"])
try:
    finished.projects.get("acme/app", lazy=True).branches.list()
except gitlab.exceptions.GitlabAuthenticationError as err:
    seen["finished"] = [err.response_code, err.error_message]
print(json.dumps(seen))
