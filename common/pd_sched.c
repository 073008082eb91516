/*
 * pd_sched.c: a thread's share of the CPU (see pd_sched.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "pd_error.h"
#include "pd_sched.h"

int pd_sched_idle(void)
{
#ifdef SCHED_IDLE
    struct sched_param sp;
    int err;

    memset(&sp, 0, sizeof(sp));     /* SCHED_IDLE takes priority 0 */
    if ((err = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp)) != 0)
        return pd_error_set(PD_ERROR, "cannot lower the thread to SCHED_IDLE: %s",
                            strerror(err));
    return 0;
#else
    return pd_error_set(PD_ERROR, "this system has no SCHED_IDLE");
#endif
}

unsigned pd_sched_cpus(void)
{
    cpu_set_t set;
    long n;

    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
