"""python-gitlab lists events: project.events, gl.events and user.events, with their filters."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
issue = project.issues.create({"title": "Flaky"})
issue.notes.create({"body": "Seen again"})
issue.state_event = "close"
issue.save()
project.files.create({"file_path": "notes.md", "branch": "main", "content": "x", "commit_message": "Add notes"})
project.commits.get("main").comments.create({"note": "Looks good"})
events = project.events.list(get_all=True)
pushed = project.events.list(action="pushed", get_all=True)
try:
    project.events.list(target_type="epic_thing", get_all=True)
    refused = None
except gitlab.exceptions.GitlabListError as err:
    refused = [err.response_code, err.error_message]
mark = gl.users.list(username="mark")[0]
print(
    json.dumps(
        {
            "project": [e.action_name for e in events],
            "push": [pushed[0].push_data["ref"], pushed[0].push_data["commit_title"]],
            "note": [[e.note["body"], e.note["noteable_type"], e.target_title] for e in events if e.target_type == "Note"],
            "mine": [e.target_title for e in gl.events.list(target_type="issue", sort="asc", get_all=True)],
            "user": len(mark.events.list(get_all=True)),
            "refused": refused,
        }
    )
)
