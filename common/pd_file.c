/*
 * pd_file.c: reading a whole file (see pd_file.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_buf.h"
#include "pd_error.h"
#include "pd_file.h"

int pd_file_read(const char *path, size_t max, const char *what, char **out, size_t *len)
{
    int in = strcmp(path, "-") == 0;
    FILE *f = in ? stdin : fopen(path, "rb");
    const char *sp = what ? " " : "";
    pd_buf b;
    size_t got;
    int rc = 0;

    *out = NULL;
    if (len)
        *len = 0;
    if (!what)
        what = "";
    if (!f)
        return pd_error_set(PD_EIO, "cannot open %s%s%s", what, sp, path);
    pd_buf_init(&b, 0);
    for (;;) {
        if (pd_buf_reserve(&b, 65536) < 0) {
            rc = pd_error_set(PD_ENOMEM, "out of memory reading %s", path);
            break;
        }
        if ((got = fread(b.data + b.len, 1, b.cap - 1 - b.len, f)) == 0)
            break;
        b.len += got;
        if (max && b.len > max) {
            rc = pd_error_set(PD_EINVAL, "%s is over %zu bytes", path, max);
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = pd_error_set(PD_EIO, "cannot read %s%s%s", what, sp, path);
    if (!in)
        fclose(f);
    if (rc < 0) {
        pd_buf_free(&b);
        return rc;
    }
    b.data[b.len] = '\0';
    *out = pd_buf_take(&b, len);
    return 0;
}
