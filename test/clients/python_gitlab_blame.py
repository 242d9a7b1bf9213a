"""Blames a file through python-gitlab (Debian's python3-gitlab) as a test suite written for a real
GitLab would: `project.files.blame` of a file two commits wrote, whole and a range of its lines,
and the 404 of a missing file, in GITLAB_PROJECT as GITLAB_TOKEN's user; prints what it saw as
JSON. Run by test/clients/python-gitlab.test.ts."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

project.files.create({"file_path": "notes.md", "branch": "main", "content": "a\nb\nc\n", "commit_message": "Notes"})
f = project.files.get(file_path="notes.md", ref="main")
f.content = "a\nB\nc\nd\n"
f.save(branch="main", commit_message="Edit notes")


def ranges(blame):
    return [[r["commit"]["message"], r["lines"]] for r in blame]


seen["blame"] = ranges(project.files.blame(file_path="notes.md", ref="main"))
seen["range"] = ranges(project.files.blame(file_path="notes.md", ref="main", range={"start": 2, "end": 3}))
try:
    project.files.blame(file_path="missing.md", ref="main")
except gitlab.exceptions.GitlabListError as err:
    seen["missing"] = [err.response_code, err.error_message]
print(json.dumps(seen))
