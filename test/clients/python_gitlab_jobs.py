"""python-gitlab reads a project's jobs, a job's trace and its artifacts (the archive and one file)."""
import io
import json
import os
import zipfile

import gitlab

gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
project = gl.projects.get("acme/app")
jobs = project.jobs.list(get_all=True)
build = next(j for j in jobs if j.name == "build")
job = project.jobs.get(build.id)
archive = zipfile.ZipFile(io.BytesIO(job.artifacts()))
print(
    json.dumps(
        {
            "jobs": sorted(f"{j.name}:{j.status}" for j in jobs),
            "artifacts_file": job.artifacts_file,
            "trace_tail": job.trace().decode().splitlines()[-1],
            "zip": {name: archive.read(name).decode() for name in archive.namelist()},
            "file": job.artifact("out.txt").decode(),
            "by_ref": project.artifacts.raw("main", "out.txt", "build").decode(),
        }
    )
)
