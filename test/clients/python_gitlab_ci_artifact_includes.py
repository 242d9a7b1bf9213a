"""python-gitlab runs a dynamic child pipeline: a job writes the child's YAML into its artifacts, a bridge
includes it (trigger: include: artifact); the client lists the bridge, the child and the child's jobs."""
import json
import os

import gitlab

url = os.environ["GITLAB_URL"]
gl = gitlab.Gitlab(url, private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
made = project.pipelines.create({"ref": "ci"})
# The emulator's settle (administrators) runs the generating job, the bridge and the child to their end.
gl.session.post(f"{url}/-/emulator/settle", headers={"PRIVATE-TOKEN": os.environ["ROOT_TOKEN"]}).raise_for_status()
bridge = made.bridges.list(get_all=True)[0]
child = project.pipelines.get(bridge.downstream_pipeline["id"])
print(
    json.dumps(
        {
            "jobs": [j.name for j in made.jobs.list(get_all=True)],
            "bridge": [bridge.name, bridge.status],
            "child": [child.source, child.status],
            "child_jobs": [[j.name, j.status] for j in child.jobs.list(get_all=True)],
        }
    )
)
