/*
 * pd_file.c: reading a whole file (see pd_file.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_file.h"

int pd_file_read(const char *path, size_t max, const char *what, char **out, size_t *len)
{
    int in = strcmp(path, "-") == 0;
    FILE *f = in ? stdin : fopen(path, "rb");
    const char *sp = what ? " " : "";
    size_t cap = 0, n = 0, got;
    char *buf = NULL;
    int rc = 0;

    *out = NULL;
    if (len)
        *len = 0;
    if (!what)
        what = "";
    if (!f)
        return pd_error_set(PD_EIO, "cannot open %s%s%s", what, sp, path);
    for (;;) {
        if (cap - n < 4096) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *p = realloc(buf, ncap + 1);

            if (!p) {
                rc = pd_error_set(PD_ENOMEM, "out of memory reading %s", path);
                break;
            }
            buf = p;
            cap = ncap;
        }
        if ((got = fread(buf + n, 1, cap - n, f)) == 0)
            break;
        n += got;
        if (max && n > max) {
            rc = pd_error_set(PD_EINVAL, "%s is over %zu bytes", path, max);
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = pd_error_set(PD_EIO, "cannot read %s%s%s", what, sp, path);
    if (!in)
        fclose(f);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return 0;
}
