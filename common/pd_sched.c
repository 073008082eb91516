/*
 * pd_sched.c: a thread's share of the CPU (see pd_sched.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

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
