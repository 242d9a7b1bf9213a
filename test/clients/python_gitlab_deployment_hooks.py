"""python-gitlab adds a hook with deployment_events, reads it back and edits it; a deployment it records reaches the hook."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
hook = project.hooks.create({"url": os.environ["RECEIVER_URL"], "push_events": False, "deployment_events": True})
made = hook.deployment_events
listed = [h.deployment_events for h in project.hooks.list(get_all=True)]
sha = project.branches.get("main").commit["id"]
deployment = project.deployments.create(
    {"environment": "production", "sha": sha, "ref": "main", "tag": False, "status": "running"}
)
deployment.status = "success"
deployment.save()
hook.deployment_events = False
hook.save()
print(
    json.dumps(
        {
            "made": made,
            "listed": listed,
            "edited": project.hooks.get(hook.id).deployment_events,
            "deployment": deployment.id,
        }
    )
)
