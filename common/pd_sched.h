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
 * The CPUs this process may run on: its affinity mask's count
 * (sched_getaffinity(2), what `nproc` prints), so that `taskset` or a
 * container's cpuset gives fewer default threads than the machine's CPUs;
 * the CPUs online where the mask cannot be read; at least 1.  The default
 * thread count of `ingest --threads`, `analyze --threads` and `serve
 * --threads`.  A CPU quota (cgroup cpu.max) is not counted, as nproc does
 * not count it.
 */
unsigned pd_sched_cpus(void);

#endif
