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
 * Give the calling thread (only it: Linux keeps a nice value per thread,
 * setpriority(2) on its thread id) the lowest share the normal policy has,
 * nice 19: its weight is 15 against a nice-0 thread's 1024 (the kernel's
 * sched_prio_to_weight), where nice 10's is 110.  For a thread that must
 * keep moving, however slowly, because it holds a lock others may wait for
 * (SCHED_IDLE could stop it for as long as the machine is busy).  Raising
 * it back needs CAP_SYS_NICE, so call it only on a thread whose remaining
 * work is all background.  0, or PD_ERROR naming the system's error (the
 * thread keeps its value).
 */
int pd_sched_nice_lowest(void);

#endif
