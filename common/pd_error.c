/*
 * pd_error.c: thread-local storage of the last error message (see pd_error.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "pd_error.h"

static _Thread_local char pd_error_msg[1024];

int pd_error_set(int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(pd_error_msg, sizeof(pd_error_msg), fmt, ap);
    va_end(ap);
    return code;
}

const char *pd_error_last(void)
{
    return pd_error_msg;
}

void pd_error_clear(void)
{
    pd_error_msg[0] = '\0';
}

int pd_error_nomem(const char *doing)
{
    return doing ? pd_error_set(PD_ENOMEM, "out of memory %s", doing)
                 : pd_error_set(PD_ENOMEM, "out of memory");
}
