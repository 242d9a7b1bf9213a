"""Lists every issue of bench/issues with python-gitlab;
prints `<ms> <count> <maxRSS KiB> <process CPU ms> <main-thread CPU ms>`."""
import resource
import sys
import time

import gitlab

gl = gitlab.Gitlab(sys.argv[1], private_token="glpat-root-token")
started = time.perf_counter()
cpu = time.process_time()
thread = time.thread_time()
count = 0
for issue in gl.projects.get("bench/issues", lazy=True).issues.list(iterator=True, per_page=100):
    count += 1
ms = (time.perf_counter() - started) * 1000
usage = resource.getrusage(resource.RUSAGE_SELF)
print(
    f"{ms:.0f} {count} {usage.ru_maxrss} {(time.process_time() - cpu) * 1000:.0f} "
    f"{(time.thread_time() - thread) * 1000:.0f}"
)
