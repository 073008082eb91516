/*
 * pd_sched.h: a thread's share of the CPU.
 */
#ifndef PD_SCHED_H
#define PD_SCHED_H

/*
 * Put the calling thread (only it, not the process) under Linux's
 * SCHED_IDLE policy (sched(7)): it runs only on CPU time that no thread of
 * a normal policy wants, whatever their nice values, so that a background
 * ingest's analysis gives way to the server's reads at once.  Lowering a
 * thread's own policy needs no privilege.  0, or PD_ERROR with a message
 * naming the system's error (a system without SCHED_IDLE: the thread keeps
 * its policy and the caller goes on).
 */
int pd_sched_idle(void);

/*
 * The CPUs this process may use: its affinity mask's count
 * (sched_getaffinity(2), what `nproc` prints: `taskset`, a container's
 * cpuset), or the CPUs online where the mask cannot be read; then at most
 * its CPU bandwidth limit, pd_sched_quota() of /proc/self/cgroup under
 * /sys/fs/cgroup (`docker --cpus 2` on a 64-CPU runner gives 2, where
 * nproc says 64); at least 1.  The default thread count of `ingest
 * --threads`, `analyze --threads` and `serve --threads`.
 */
unsigned pd_sched_cpus(void);

/*
 * The CPUs the bandwidth limits of the process's cgroups allow, rounded up
 * (a limit of 1.5 CPUs: 2; the JVM counts them so; Go's runtime too but
 * never below 2), at most 4096; 0 when no cgroup limits it or nothing can
 * be read.  proc_cgroup is a file in
 * the form of /proc/self/cgroup (cgroups(7): "ID:CONTROLLERS:PATH" lines),
 * root the directory cgroup file systems are mounted under (/sys/fs/cgroup;
 * a parameter so that tests can give a tree of their own).  The mount
 * points are the ones systemd and container runtimes use, not read from
 * /proc/self/mountinfo: v2 at root (on a hybrid system the v2 tree, at
 * root/unified, has no cpu controller: the v1 line counts), v1 at
 * root/CONTROLLERS; a hierarchy mounted elsewhere limits nothing here.  cgroup v2
 * ("0::PATH"): root/PATH/cpu.max, "$MAX $PERIOD" with "max" for no limit
 * (the kernel's Documentation/admin-guide/cgroup-v2.rst); v1 (a line whose
 * controllers include "cpu"): root/CONTROLLERS/PATH/cpu.cfs_quota_us
 * over cpu.cfs_period_us, -1 for none (Documentation/scheduler/
 * sched-bwc.rst).  The smallest limit of the cgroup and its ancestors
 * counts.  A PATH missing under root (a container that sees its own cgroup
 * as the root, the host's name in the file) loses leading components until
 * it is found.  Files that do not parse limit nothing.
 */
unsigned pd_sched_quota(const char *proc_cgroup, const char *root);

#endif
