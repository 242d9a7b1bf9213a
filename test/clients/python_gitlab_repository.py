"""Works a repository through python-gitlab (Debian's python3-gitlab) as a test suite written for a
real GitLab would: branches, files, commits with actions, the tree, tags, comparisons, diffs,
blobs, archives, and branch and tag protection, in
GITLAB_PROJECT as GITLAB_TOKEN's user (a Maintainer); prints what it saw as JSON. Run by
test/clients/python-gitlab.test.ts."""
import io
import json
import os
import zipfile

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get(os.environ["GITLAB_PROJECT"])
seen = {}

branch = project.branches.create({"branch": "feature", "ref": "main"})
seen["branch"] = {"name": branch.name, "protected": branch.protected, "merged": branch.merged}
project.files.create(
    {"file_path": ".gitlab-ci.yml", "branch": "feature", "content": "build:\n  script: [make]\n", "commit_message": "Add CI"}
)
f = project.files.get(file_path=".gitlab-ci.yml", ref="feature")
seen["file"] = {"name": f.file_name, "text": f.decode().decode(), "size": f.size}
f.content = "build:\n  script: [make test]\n"
f.save(branch="feature", commit_message="Update CI")
seen["raw"] = project.files.raw(file_path=".gitlab-ci.yml", ref="feature").decode()
try:
    project.files.create({"file_path": ".gitlab-ci.yml", "branch": "feature", "content": "x", "commit_message": "again"})
except gitlab.exceptions.GitlabCreateError as err:
    seen["taken"] = [err.response_code, err.error_message]
commit = project.commits.create(
    {
        "branch": "feature",
        "commit_message": "Two files",
        "actions": [
            {"action": "create", "file_path": "docs/a.md", "content": "a\n"},
            {"action": "create", "file_path": "docs/b.md", "content": "b\n"},
        ],
    }
)
seen["commit"] = {"title": commit.title, "stats": project.commits.get(commit.id).stats}
seen["commits"] = [c.title for c in project.commits.list(ref_name="feature", get_all=True)]
seen["tree"] = [e["path"] for e in project.repository_tree(ref="feature", recursive=True, get_all=True)]
project.files.delete(file_path="docs/b.md", branch="feature", commit_message="Remove b")
seen["after_delete"] = [e["path"] for e in project.repository_tree(path="docs", ref="feature", get_all=True)]
tag = project.tags.create({"tag_name": "v1.0", "ref": "feature", "message": "First"})
seen["tag"] = {"name": tag.name, "message": tag.message, "commit": tag.commit["title"]}
compare = project.repository_compare("main", "feature")
seen["compare"] = {
    "commits": [c["title"] for c in compare["commits"]],
    "diffs": [[d["new_path"], d["new_file"], d["diff"]] for d in compare["diffs"]],
}
seen["diff"] = [d["diff"] for d in project.commits.get(commit.id).diff()]
seen["merge_base"] = project.repository_merge_base(["main", "feature"])["title"]
blob = next(e for e in project.repository_tree(path="docs", ref="feature") if e["name"] == "a.md")
seen["blob"] = [project.repository_blob(blob["id"])["size"], project.repository_raw_blob(blob["id"]).decode()]
archive = zipfile.ZipFile(io.BytesIO(project.repository_archive(sha="feature", format="zip")))
seen["archive"] = sorted(name.split("/", 1)[1] for name in archive.namelist())
project.protectedtags.create({"name": "v*", "create_access_level": 0})
seen["protected_tags"] = [[t.name, t.create_access_levels[0]["access_level"]] for t in project.protectedtags.list()]
try:
    project.tags.create({"tag_name": "v2.0", "ref": "feature"})
except gitlab.exceptions.GitlabCreateError as err:
    seen["refused_tag"] = [err.response_code, err.error_message]
project.protectedtags.delete("v*")
rule = project.protectedbranches.create({"name": "feature", "push_access_level": 30})
seen["protected"] = [rule.name, rule.push_access_levels[0]["access_level"]]
seen["branches"] = [b.name for b in project.branches.list(get_all=True)]
project.protectedbranches.delete("feature")
project.branches.delete("feature")
seen["left"] = [b.name for b in project.branches.list(get_all=True)]
print(json.dumps(seen))
