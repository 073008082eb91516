/*
 * pd_sched.c: a thread's share of the CPU (see pd_sched.h).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pd_error.h"
#include "pd_file.h"
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

/* The first line of cgroup file `path` (pd_file_read, at most 63 bytes:
 * the files read here hold one short line) into buf[64], the newline cut;
 * 0, or -1 when it cannot be read or is longer. */
static int sc_line(const char *path, char buf[64])
{
    char *s = NULL;
    size_t len;

    if (pd_file_read(path, 63, NULL, &s, &len) < 0)
        return -1;
    memcpy(buf, s, len + 1);
    free(s);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* A non-negative decimal number filling s; -1 when s is anything else. */
static long long sc_num(const char *s)
{
    char *end;
    long long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    return errno || *end ? -1 : v;
}

/* The CPUs one cgroup's bandwidth limit allows in directory dir, rounded
 * up; 0 for no limit or no file.  cgroup v2's cpu.max is "$MAX $PERIOD",
 * $MAX "max" for none (Documentation/admin-guide/cgroup-v2.rst, "CPU
 * Interface Files"); v1's cpu.cfs_quota_us is -1 for none, over
 * cpu.cfs_period_us (Documentation/scheduler/sched-bwc.rst). */
static unsigned sc_limit(const char *dir, int v2)
{
    char path[PATH_MAX], a[64], b[64];
    long long quota, period;

    if (v2) {
        char *sp;

        if (snprintf(path, sizeof(path), "%s/cpu.max", dir) >= (int)sizeof(path) ||
            sc_line(path, a) < 0 || !(sp = strchr(a, ' ')))
            return 0;
        *sp = '\0';
        quota = sc_num(a);
        period = sc_num(sp + 1);
    } else {
        if (snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir) >= (int)sizeof(path) ||
            sc_line(path, a) < 0 ||
            snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir) >= (int)sizeof(path) ||
            sc_line(path, b) < 0)
            return 0;
        quota = sc_num(a);
        period = sc_num(b);
    }
    if (quota <= 0 || period <= 0)
        return 0;
    quota = quota / period + (quota % period != 0);   /* no overflow */
    return quota > 4096 ? 4096 : (unsigned)quota;
}

/* The smallest limit of the cgroup at root/cg and of its ancestors up to
 * root.  A path that does not exist under root is the host's name of a
 * cgroup mounted as the root of a container's namespace-less view: its
 * leading components are dropped until it does. */
static unsigned sc_walk(const char *root, const char *cg, int v2)
{
    char dir[PATH_MAX];
    size_t rootlen = strlen(root);
    unsigned best = 0;

    while (*cg == '/')
        cg++;
    for (;;) {
        if (snprintf(dir, sizeof(dir), "%s/%s", root, cg) >= (int)sizeof(dir))
            return 0;
        if (access(dir, F_OK) == 0 || !*cg)
            break;
        cg += strcspn(cg, "/");
        while (*cg == '/')
            cg++;
    }
    for (;;) {
        unsigned n = sc_limit(dir, v2);
        char *slash;

        if (n && (!best || n < best))
            best = n;
        if (strlen(dir) <= rootlen + 1 || !(slash = strrchr(dir + rootlen, '/')))
            break;
        *slash = '\0';
    }
    return best;
}

unsigned pd_sched_quota(const char *proc_cgroup, const char *root)
{
    char line[PATH_MAX + 128], dir[PATH_MAX];
    unsigned best = 0;
    FILE *f = fopen(proc_cgroup, "r");

    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        unsigned n = 0;

        if (!c2)
            continue;
        *c1 = *c2 = '\0';
        c2[1 + strcspn(c2 + 1, "\n")] = '\0';
        if (strcmp(line, "0") == 0 && c1[1] == '\0') {            /* v2 */
            n = sc_walk(root, c2 + 1, 1);
        } else {                                                 /* v1 */
            char *ctl, *save = NULL, list[256];
            int cpu = 0;

            snprintf(list, sizeof(list), "%s", c1 + 1);
            for (ctl = strtok_r(list, ",", &save); ctl; ctl = strtok_r(NULL, ",", &save))
                cpu |= strcmp(ctl, "cpu") == 0;
            if (!cpu || snprintf(dir, sizeof(dir), "%s/%s", root, c1 + 1) >= (int)sizeof(dir))
                continue;
            n = sc_walk(dir, c2 + 1, 0);
        }
        if (n && (!best || n < best))
            best = n;
    }
    fclose(f);
    return best;
}

unsigned pd_sched_cpus(void)
{
    cpu_set_t set;
    unsigned n, quota;
    long on;

    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
        n = (unsigned)CPU_COUNT(&set);
    } else {
        on = sysconf(_SC_NPROCESSORS_ONLN);
        n = on > 0 ? (unsigned)on : 1;
    }
    quota = pd_sched_quota("/proc/self/cgroup", "/sys/fs/cgroup");
    return quota && quota < n ? quota : n;
}
