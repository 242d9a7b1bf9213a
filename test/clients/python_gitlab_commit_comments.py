"""Comments on a commit through python-gitlab (Debian's python3-gitlab) as a test suite written for a real
GitLab would: `project.commits.get(sha).comments.create()` on the commit and on lines of its diff, then
`comments.list()`, and the 404 of an unknown commit, in GITLAB_PROJECT as GITLAB_TOKEN's user; prints
what it saw as JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])

project.files.create({"file_path": "notes.md", "branch": "main", "content": "a\nb\n", "commit_message": "Notes"})
f = project.files.get(file_path="notes.md", ref="main")
f.content = "a\nB\n"
f.save(branch="main", commit_message="Edit notes")

commit = project.commits.get("main")
made = [
    commit.comments.create({"note": "Looks good"}),
    commit.comments.create({"note": "Capital", "path": "notes.md", "line": 2, "line_type": "new"}),
    commit.comments.create({"note": "Was small", "path": "notes.md", "line": 2, "line_type": "old"}),
]
listed = commit.comments.list(get_all=True)
try:
    project.commits.get("0" * 40, lazy=True).comments.list()
    missing = None
except gitlab.exceptions.GitlabListError as err:
    missing = [err.response_code, err.error_message]
print(
    json.dumps(
        {
            "made": [[c.note, c.path, c.line, c.line_type, c.author["username"]] for c in made],
            "listed": [c.note for c in listed],
            "missing": missing,
        }
    )
)
