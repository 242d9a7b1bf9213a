"""python-gitlab reads and writes environments and deployments: project.environments, project.deployments."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
review = project.environments.create({"name": "review/py", "external_url": "https://py.example.com"})
review.external_url = "https://py2.example.com"
review.save()
review.stop()
stopped = project.environments.get(review.id)
# `with_action` and no stop action: stop() leaves it available.
kept = project.environments.create(
    {"name": "py-kept", "description": "Made by python", "auto_stop_setting": "with_action"}
)
kept.description = "Edited by python"
kept.save()
kept.stop()
kept = project.environments.get(kept.id)
# None is sent as a JSON null: the description goes (`nullify_if_blank`); a null setting is refused.
edited = project.environments.get(kept.id)
edited.description = None
edited.save()
cleared = project.environments.get(kept.id).description
edited.auto_stop_setting = None
try:
    edited.save()
    null_setting = None
except gitlab.exceptions.GitlabUpdateError as err:
    null_setting = [err.response_code, err.error_message]
sha = project.branches.get("main").commit["id"]
deployment = project.deployments.create(
    {"environment": "production", "sha": sha, "ref": "main", "tag": False, "status": "running"}
)
deployment.status = "success"
deployment.save()
try:
    project.environments.create({"name": "review/py"})
    refused = None
except gitlab.exceptions.GitlabCreateError as err:
    refused = [err.response_code, err.error_message]
stopped.delete()
print(
    json.dumps(
        {
            "stopped": [stopped.name, stopped.state, stopped.external_url],
            "deployment": [deployment.iid, project.deployments.get(deployment.id).status],
            "environments": [e.name for e in project.environments.list(get_all=True)],
            "last": project.environments.list(name="production")[0].id
            == project.deployments.get(deployment.id).environment["id"],
            "refused": refused,
            "kept": [kept.state, kept.description, kept.auto_stop_setting],
            "cleared": cleared,
            "null_setting": null_setting,
        }
    )
)
