"""A project archived with python-gitlab refuses the client's writes as GitLab does, until unarchived.

argv: base URL, an administrator's token, the project's path. Prints JSON.
"""
import json
import sys

import gitlab

url, token, path = sys.argv[1:4]
gl = gitlab.Gitlab(url, private_token=token)
project = gl.projects.get(path)
issue = project.issues.create({"title": "Before"})
issue.notes.create({"body": "a note"})
project.archive()


def refused(write):
    """The status and message of a refused write; None when it went through."""
    try:
        write()
        return None
    except gitlab.exceptions.GitlabError as e:
        return [e.response_code, e.error_message]


def rename():
    issue.title = "Renamed"
    issue.save()


answers = {
    "archived": gl.projects.get(path).archived,
    "note": refused(lambda: issue.notes.create({"body": "another"})),
    "edit": refused(rename),
    "award": refused(lambda: issue.awardemojis.create({"name": "thumbsup"})),
    "spend": refused(lambda: issue.add_spent_time("1h")),
    "label": refused(lambda: project.labels.create({"name": "new", "color": "#123456"})),
    "milestone": refused(lambda: project.milestones.create({"title": "v2.0"})),
    "trigger": refused(lambda: project.triggers.create({"description": "deploy"})),
    "notes": [n.body for n in issue.notes.list(get_all=True)],
}
project.unarchive()
answers["after"] = refused(lambda: issue.notes.create({"body": "another"}))
answers["notes_after"] = sorted(n.body for n in issue.notes.list(get_all=True) if not n.system)
print(json.dumps(answers))
