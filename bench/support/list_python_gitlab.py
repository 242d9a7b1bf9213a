"""Lists every issue of bench/issues with python-gitlab; prints `<ms> <count> <maxRSS KiB>`."""
import resource
import sys
import time

import gitlab

gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-root-token")
started = time.perf_counter()
count = 0
for issue in gl.projects.get("bench/issues", lazy=True).issues.list(iterator=True, per_page=100):
    count += 1
ms = (time.perf_counter() - started) * 1000
print(f"{ms:.0f} {count} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
