"""Builds a whole world through python-gitlab (Debian's python3-gitlab) from a fresh instance
(`--seed none`), as a test suite written for a real GitLab does, and prints what it saw as JSON,
without tokens or times. Run by test/clients/python-gitlab.test.ts.

As root (GITLAB_TOKEN): two users with personal access tokens, a group and a subgroup, their
memberships. As the maintainer: a project with labels, a milestone, issues, a link, a discussion
and award emoji. As the reporter: reads, and what a reporter is refused. As the maintainer again:
an export, its import beside the project, and a pipeline trigger."""
import json
import os
import time

import gitlab

URL = os.environ["GITLAB_URL"]
MAINTAINER = 40
REPORTER = 20


def refusal(call):
    """The status and message python-gitlab read from a refused call."""
    try:
        call()
    except gitlab.exceptions.GitlabError as err:
        return [err.response_code, err.error_message]
    return None


def until(read, done):
    for _ in range(200):
        value = read()
        if done(value):
            return value
        time.sleep(0.05)
    raise RuntimeError("timed out waiting")


root = gitlab.Gitlab(URL, private_token=os.environ["GITLAB_TOKEN"])


def user(username):
    made = root.users.create(
        {
            "email": f"{username}@example.com",
            "username": username,
            "name": username.capitalize(),
            "password": "a-long-passphrase-1",
            "skip_confirmation": True,
        }
    )
    token = made.personal_access_tokens.create({"name": "suite", "scopes": ["api"], "expires_at": "2099-01-01"})
    return made, gitlab.Gitlab(URL, private_token=token.token)


mia, as_mia = user("mia")  # maintainer
rex, as_rex = user("rex")  # reporter

group = root.groups.create({"name": "Acme", "path": "acme", "visibility": "private"})
sub = root.groups.create({"name": "Backend", "path": "backend", "parent_id": group.id, "visibility": "private"})
group.members.create({"user_id": rex.id, "access_level": REPORTER})
sub.members.create({"user_id": mia.id, "access_level": MAINTAINER})

project = as_mia.projects.create(
    {"name": "Widgets", "namespace_id": sub.id, "visibility": "private", "initialize_with_readme": True}
)
project.labels.create({"name": "bug", "color": "#d9534f"})
project.labels.create({"name": "feature", "color": "#5cb85c"})
milestone = project.milestones.create({"title": "v1"})
first = project.issues.create({"title": "Crash on start", "labels": ["bug"], "milestone_id": milestone.id})
second = project.issues.create({"title": "Dark mode", "labels": ["feature"]})
first.links.create({"target_project_id": project.id, "target_issue_iid": second.iid, "link_type": "relates_to"})
thread = first.discussions.create({"body": "Seen on 1.2"})

# The reporter replies, awards, reads, and is refused what a reporter may not do.
rex_project = as_rex.projects.get(project.id, lazy=True)
rex_first = rex_project.issues.get(first.iid, lazy=True)
reply = rex_first.discussions.get(thread.id, lazy=True).notes.create({"body": "Me too"})
rex_first.awardemojis.create({"name": "thumbsup"})
first.notes.get(reply.id, lazy=True).awardemojis.create({"name": "heart"})

reporter = {
    "issues": [
        [i.iid, i.title, i.labels, i.upvotes]
        # By title: the two issues were made back to back and may tie on created_at, which GitLab
        # breaks by id descending.
        for i in rex_project.issues.list(order_by="title", sort="asc", get_all=True)
    ],
    "links": [[i.iid, i.link_type] for i in rex_first.links.list(get_all=True)],
    "thread": [[n["author"]["username"], n["body"]] for n in rex_first.discussions.get(thread.id).attributes["notes"]],
    "note_emoji": [e.name for e in rex_first.notes.get(reply.id, lazy=True).awardemojis.list(get_all=True)],
    "milestone_issues": [i.title for i in rex_project.milestones.get(milestone.id).issues()],
    # Reporters manage labels; deleting an issue is for planners and owners, triggers and exports for
    # maintainers (app/policies/project_policy.rb).
    "label": rex_project.labels.create({"name": "triage", "color": "#000000"}).name,
    "remove": refusal(lambda: rex_project.issues.delete(second.iid)),
    "trigger": refusal(lambda: rex_project.triggers.create({"description": "mine"})),
    "export": refusal(lambda: rex_project.exports.create()),
}

# The maintainer exports the project, imports it beside it, and triggers a pipeline.
export = project.exports.create()
until(lambda: project.exports.get(), lambda e: e.export_status == "finished")
archive = export.download()
imported = as_mia.projects.import_project(archive, path="widgets-restored", namespace=sub.full_path)
restored = until(
    lambda: as_mia.projects.get(imported["id"], lazy=True).imports.get(),
    lambda i: i.import_status in ("finished", "failed"),
)
# A project made through the API has no .gitlab-ci.yml: GitLab refuses the trigger until one is committed.
trigger = project.triggers.create({"description": "suite"})
missing = refusal(lambda: project.trigger_pipeline(project.default_branch, trigger.token))
project.files.create(
    {
        "file_path": ".gitlab-ci.yml",
        "branch": project.default_branch,
        "content": "build:\n  script: echo build\n",
        "commit_message": "Add CI",
    }
)
pipeline = project.trigger_pipeline(project.default_branch, trigger.token)

members = root.projects.get(project.id, lazy=True).members_all.list(get_all=True)
print(
    json.dumps(
        {
            "users": [mia.id, rex.id],
            "groups": [group.full_path, sub.full_path, sub.parent_id == group.id],
            "project": [project.id, project.path_with_namespace, project.default_branch],
            "issues": [first.iid, second.iid],
            "reporter": reporter,
            "restored": [
                restored.import_status,
                [
                    [i.iid, i.title, i.labels]
                    for i in as_mia.projects.get(imported["id"], lazy=True).issues.list(
                        order_by="title", sort="asc", get_all=True
                    )
                ],
            ],
            "missing_config": missing,
            "pipeline": [pipeline.ref, pipeline.source],
            "members": sorted([m.username, m.access_level] for m in members),
        }
    )
)
