"""Builds labels, milestones and an issue through python-gitlab (Debian's python3-gitlab), as a test
suite written for a real GitLab would, against the server at GITLAB_URL; prints what it saw as JSON.
Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

label = project.labels.create({"name": "from python", "color": "teal", "description": "Made by python-gitlab"})
seen["label"] = {"name": label.name, "color": label.color, "description": label.description}
label.color = "#0000FF"
label.priority = 2
label.save()
again = project.labels.get("from python")
seen["label_saved"] = {"color": again.color, "priority": again.priority}
again.subscribe()
seen["subscribed"] = project.labels.get(again.id).subscribed

milestone = project.milestones.create({"title": "Py 1", "start_date": "2026-01-01", "due_date": "2026-12-31"})
seen["milestone"] = {"iid": milestone.iid, "title": milestone.title, "state": milestone.state}

issue = project.issues.create({"title": "Filed by python", "labels": ["from python"], "milestone_id": milestone.id})
seen["issue"] = {"labels": issue.labels, "milestone": issue.milestone["title"]}
seen["milestone_issues"] = [i.title for i in milestone.issues()]
seen["filtered"] = [i.title for i in project.issues.list(labels=["from python"], milestone="Py 1", get_all=True)]

milestone.state_event = "close"
milestone.save()
seen["closed"] = [m.title for m in project.milestones.list(state="closed", get_all=True)]

try:
    project.labels.create({"name": "from python", "color": "#000000"})
except gitlab.exceptions.GitlabCreateError as err:
    seen["taken"] = [err.response_code, err.error_message]

print(json.dumps(seen))
