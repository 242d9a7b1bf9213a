"""python-gitlab posts statuses on a commit (commit.statuses.create), moves one, and lists them."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
commit = project.commits.get("main")
first = commit.statuses.create({"state": "running", "ref": "main", "name": "ci/lint", "target_url": "https://ci.example.com/1"})
moved = commit.statuses.create({"state": "success", "ref": "main", "name": "ci/lint", "coverage": 90.5})
commit.statuses.create({"state": "pending", "ref": "main", "context": "ci/docs"})
try:
    commit.statuses.create({"state": "done", "ref": "main"})
    refused = None
except gitlab.exceptions.GitlabCreateError as err:
    refused = [err.response_code, err.error_message]
statuses = commit.statuses.list(get_all=True)
pipeline = project.pipelines.get(first.pipeline_id)
print(
    json.dumps(
        {
            "same": first.id == moved.id,
            "moved": [moved.status, moved.coverage, moved.target_url, moved.author["username"]],
            "listed": [[s.name, s.status] for s in statuses],
            "refused": refused,
            "pipeline": [pipeline.source, pipeline.status, pipeline.coverage],
        }
    )
)
