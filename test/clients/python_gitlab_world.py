"""Builds a world through python-gitlab (Debian's python3-gitlab), as a test suite written for a real
GitLab would, against the server at GITLAB_URL; prints what it saw as JSON. Run by
test/clients/python-gitlab.test.ts.

With GITLAB_PROJECT: labels, milestones and an issue in that project, as GITLAB_TOKEN's user.
Without: from a fresh instance (`--seed none`), as its administrator root (GITLAB_TOKEN), a user
with a personal access token, and that token at work."""
import json
import os

import gitlab


def users_world():
    root = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
    root.auth()
    seen = {"root": {"username": root.user.username, "is_admin": root.user.is_admin}}
    user = root.users.create(
        {"email": "pat@example.com", "username": "pat", "name": "Pat", "password": "pat-password", "bio": "QA"}
    )
    seen["user"] = {"username": user.username, "name": user.name, "bio": user.bio, "state": user.state}
    token = user.personal_access_tokens.create({"name": "suite", "scopes": ["api"]})
    seen["token"] = {"name": token.name, "scopes": token.scopes, "active": token.active}
    pat = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=token.token)
    pat.auth()
    seen["as_user"] = {"username": pat.user.username, "is_admin": pat.user.is_admin}
    try:
        pat.users.create({"email": "x@example.com", "username": "x", "name": "X", "password": "x-password"})
    except gitlab.exceptions.GitlabCreateError as err:
        seen["not_admin"] = [err.response_code, err.error_message]
    try:
        root.users.create({"email": "pat@example.com", "username": "pat2", "name": "Pat", "password": "pat-password"})
    except gitlab.exceptions.GitlabCreateError as err:
        seen["taken"] = [err.response_code, err.error_message]
    user.block()
    try:
        pat.auth()
    except gitlab.exceptions.GitlabAuthenticationError as err:
        seen["blocked"] = err.response_code
    print(json.dumps(seen))


if "GITLAB_PROJECT" not in os.environ:
    users_world()
    raise SystemExit(0)

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
