"""An administrator marks a user external with python-gitlab; that user then lists and reads as one.

argv: base URL, the administrator's token, the user's username, the user's token. Prints JSON.
"""
import json
import sys

import gitlab

url, admin_token, username, token = sys.argv[1:5]
admin = gitlab.Gitlab(url, private_token=admin_token)
user = admin.users.list(username=username)[0]
before = sorted(p.path_with_namespace for p in gitlab.Gitlab(url, private_token=token).projects.list(get_all=True))
user.external = True
user.save()

gl = gitlab.Gitlab(url, private_token=token)
try:
    gl.projects.get("corp/shared")
    hidden = None
except gitlab.exceptions.GitlabGetError as e:
    hidden = [e.response_code, e.error_message]
print(json.dumps({
    "external": admin.users.get(user.id).external,
    "before": before,
    "projects": sorted(p.path_with_namespace for p in gl.projects.list(get_all=True)),
    "groups": sorted(g.full_path for g in gl.groups.list(get_all=True, all_available=True)),
    "issues": sorted(i.title for i in gl.issues.list(get_all=True, scope="all")),
    "hidden": hidden,
}))
