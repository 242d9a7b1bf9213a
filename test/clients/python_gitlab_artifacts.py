"""python-gitlab keeps a job's artifacts, deletes a project's (the locked pipeline's stay), then a job's."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
older, latest = sorted((j.id for j in project.jobs.list(get_all=True) if j.name == "build"))


def file_types(job_id):
    # `artifacts` is a method of ProjectJob: the attribute is read from the record.
    return [a["file_type"] for a in project.jobs.get(job_id).attributes["artifacts"]]


# A job without artifacts: GitLab's `not_found!(build)`, raised as python-gitlab's create error.
lint = max(j.id for j in project.jobs.list(get_all=True) if j.name == "test")
try:
    project.jobs.get(lint, lazy=True).keep_artifacts()
    no_archive = None
except gitlab.exceptions.GitlabCreateError as err:
    no_archive = [err.response_code, err.error_message]
project.jobs.get(latest).keep_artifacts()
kept = project.jobs.get(latest).artifacts_expire_at
project.artifacts.delete()
after_project = {"older": file_types(older), "latest": file_types(latest)}
project.jobs.get(latest).delete_artifacts()
print(
    json.dumps(
        {
            "kept_expire_at": kept,
            "after_project_delete": after_project,
            "after_job_delete": file_types(latest),
            "keep_without_archive": no_archive,
        }
    )
)
