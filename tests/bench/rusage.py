#!/usr/bin/env python3
"""rusage.py [-q] CMD...: run CMD once with its output discarded (-q: its
standard error too) and print "CPU SYSTEM WALL", seconds to the
microsecond: user + system CPU and system CPU from wait4's rusage of that
child, which agrees with `perf stat` (GNU time prints hundredths, and a
push or numpy/core's analysis is tens of milliseconds; Python's
subprocess.run with RUSAGE_CHILDREN did not agree with perf), and the wall
time.  Exits with the command's status.  For ctags.sh and push.sh.
"""
import os
import sys
import time

args = sys.argv[1:]
quiet = args[:1] == ["-q"]
if quiet:
    args = args[1:]
if not args:
    sys.exit("usage: rusage.py [-q] CMD...")
fds = (1, 2) if quiet else (1,)
null = [(os.POSIX_SPAWN_OPEN, fd, "/dev/null", os.O_WRONLY, 0) for fd in fds]
t = time.monotonic()
pid = os.posix_spawnp(args[0], args, os.environ, file_actions=null)
_, status, r = os.wait4(pid, 0)
t = time.monotonic() - t
print("%.6f %.6f %.6f" % (r.ru_utime + r.ru_stime, r.ru_stime, t))
sys.exit(os.waitstatus_to_exitcode(status))
