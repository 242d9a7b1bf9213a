"""python-gitlab creates pipelines whose .gitlab-ci.yml includes another project's file (its location with
$VARIABLES too), and reads the refusal."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
made = project.pipelines.create({"ref": "ci"})
jobs = sorted(j.name for j in made.jobs.list(get_all=True))
# Variables in the include's location: a predefined one and one of the pipeline's.
expanded = project.pipelines.create({"ref": "vars", "variables": [{"key": "SHARED", "value": "shared"}]})
expanded_jobs = sorted(j.name for j in expanded.jobs.list(get_all=True))
try:
    project.pipelines.create({"ref": "denied"})
    refusal = None
except gitlab.exceptions.GitlabCreateError as e:
    refusal = {"status": e.response_code, "message": e.error_message}
print(json.dumps({"status": made.status, "jobs": jobs, "expanded": expanded_jobs, "refusal": refusal}))
