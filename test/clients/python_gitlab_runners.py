"""python-gitlab works runners: created with POST /user/runners, listed, read, edited, enabled in a
second project and disabled there, verified by token, and deleted."""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
admin = gitlab.Gitlab(url, private_token=os.environ["ADMIN_TOKEN"])
gl = gitlab.Gitlab(url, private_token=os.environ["GITLAB_TOKEN"])
widgets = gl.projects.get("acme/widgets")
gadgets = gl.projects.get("acme/gadgets")

shared = admin.http_post("/user/runners", post_data={"runner_type": "instance_type", "description": "shared"})
made = gl.http_post(
    "/user/runners",
    post_data={"runner_type": "project_type", "project_id": widgets.id, "tag_list": "docker,linux"},
)
try:
    gl.http_post("/user/runners", post_data={"runner_type": "instance_type"})
    refused = None
except gitlab.exceptions.GitlabHttpError as err:
    refused = [err.response_code, err.error_message]

runner = gl.runners.get(made["id"])
runner.description = "edited"
runner.paused = True
runner.save()
again = gl.runners.get(made["id"])
gl.runners.verify(made["token"])
gadgets.runners.create({"runner_id": made["id"]})
in_gadgets = [r.id for r in gadgets.runners.list(get_all=True)]
gadgets.runners.delete(made["id"])
jobs = again.jobs.list(get_all=True)
print(
    json.dumps(
        {
            "token": made["token"].startswith("glrt-"),
            "refused": refused,
            "mine": [r.id == made["id"] for r in gl.runners.list(get_all=True)],
            "all": [r.id == shared["id"] for r in admin.runners.all(scope="shared", get_all=True)],
            "details": [again.description, again.paused, again.tag_list, again.status, again.projects[0]["id"] == widgets.id],
            "in_gadgets": [i == made["id"] for i in in_gadgets],
            "after": [r.id == made["id"] for r in gadgets.runners.list(get_all=True, type="project_type")],
            "jobs": len(jobs),
            "deleted": gl.runners.delete(made["id"]) is None and len(gl.runners.list(get_all=True)) == 0,
        }
    )
)
