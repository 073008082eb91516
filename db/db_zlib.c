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
    char *buf;

    *out = NULL;
    /* The stored length is data, not a promise: deflate cannot shrink more
     * than about 1032:1 (zlib's technical details), so a larger claim (or
     * -1 read as SIZE_MAX) is damage, refused before any allocation. */
    if (raw_len > DB_INFLATE_MAX || raw_len / 1032 > len + 64 || (!in && len))
        return pd_error_set(PD_EDB, "the database is damaged: a stored length of "
                            "%zu bytes does not fit its %zu compressed bytes",
                            raw_len, len);
    if (!(buf = malloc(raw_len + 1)))
        return pd_error_set(PD_ENOMEM, "out of memory inflating %zu bytes", raw_len);
    if (uncompress((unsigned char *)buf, &n, in, len) != Z_OK || n != raw_len) {
        free(buf);
        return pd_error_set(PD_EDB, "the database is damaged: stored findings do "
                            "not inflate to their stored length");
    }
    buf[raw_len] = '\0';
    *out = buf;
    return 0;
}
