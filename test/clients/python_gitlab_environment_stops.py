"""python-gitlab stops an environment with a stop action: ProjectEnvironment.stop() plays its on_stop job."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
review = project.environments.list(name="review/ci")[0]
before = project.environments.get(review.id)
review.stop()
after = project.environments.get(review.id)
print(
    json.dumps(
        {
            "before": [before.state, before.auto_stop_at is not None],
            "after": after.state,
            "stopping": [e.name for e in project.environments.list(states="stopping")],
        }
    )
)
