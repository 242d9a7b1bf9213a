"""python-gitlab's project CI lint: create, get (the project's file at a ref) and validate, which raises."""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
made = project.ci_lint.create({"content": "build: { script: make }", "include_jobs": True})
got = project.ci_lint.get(content_ref="ci")
WARNED = "build: { script: make, rules: [{ when: always }] }"
warned = project.ci_lint.create({"content": WARNED})
project.ci_lint.validate({"content": WARNED})  # warnings alone do not raise
try:
    project.ci_lint.validate({"content": "build: { stage: nope, script: make }"})
    refusal = None
except gitlab.exceptions.GitlabCiLintError as e:
    refusal = str(e)
print(
    json.dumps(
        {
            "created": {"valid": made.valid, "jobs": [j["name"] for j in made.jobs], "yaml": made.merged_yaml},
            "got": {"valid": got.valid, "errors": got.errors},
            "refusal": refusal,
            "warned": {"valid": warned.valid, "warnings": warned.warnings},
        }
    )
)
