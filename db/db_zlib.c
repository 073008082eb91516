/*
 * db_zlib.c: zlib compression of the findings column.  Findings are read a
 * whole file at a time and never queried inside, so one compressed JSON
 * document per analysis is about ten times smaller than a row per finding.
 */
#include <stdlib.h>
#include <zlib.h>

#include "db.h"
#include "pd_error.h"

int db_deflate(unsigned char **out, size_t *out_len, const void *in, size_t len)
{
    uLongf n = compressBound(len);
    unsigned char *buf = malloc(n ? n : 1);

    *out = NULL;
    if (!buf)
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    if (compress2(buf, &n, in, len, Z_BEST_SPEED) != Z_OK) {
        free(buf);
        return pd_error_set(PD_ERROR, "zlib could not compress %zu bytes", len);
    }
    *out = buf;
    *out_len = n;
    return 0;
}

int db_inflate(char **out, const void *in, size_t len, size_t raw_len)
{
    uLongf n = raw_len;
    char *buf = malloc(raw_len + 1);

    *out = NULL;
    if (!buf)
        return pd_error_set(PD_ENOMEM, "out of memory inflating %zu bytes", raw_len);
    if (uncompress((unsigned char *)buf, &n, in, len) != Z_OK || n != raw_len) {
        free(buf);
        return pd_error_set(PD_EINVAL, "stored findings are corrupt");
    }
    buf[raw_len] = '\0';
    *out = buf;
    return 0;
}
