/*
 * db_zlib.c: zlib compression of the findings column.  Findings are read a
 * whole file at a time and never queried inside, so one compressed JSON
 * document per analysis is about ten times smaller than a row per finding.
 *
 * An ingest compresses three texts per analysis on each analysis thread
 * (findings, calls, flow: 750 MB for numpy/core's history), and compress2()
 * set up and tore down a deflate state of about 270 KB for each: a third of
 * the time spent compressing.  Each thread keeps one state instead, reset
 * between texts (deflateReset: the same output as a new state), and one
 * output buffer, from which the result is copied at its own size.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "db.h"
#include "pd_error.h"

/* The per-thread deflate state and output buffer. */
typedef struct {
    z_stream zs;
    unsigned char *buf;
    size_t cap;
} db_zlib_state;

static pthread_key_t db_zlib_key;
static pthread_once_t db_zlib_once = PTHREAD_ONCE_INIT;
static int db_zlib_key_rc;

/* Freed when its thread ends (the key's destructor). */
static void db_zlib_state_free(void *p)
{
    db_zlib_state *s = p;

    if (!s)
        return;
    deflateEnd(&s->zs);
    free(s->buf);
    free(s);
}

static void db_zlib_key_make(void)
{
    db_zlib_key_rc = pthread_key_create(&db_zlib_key, db_zlib_state_free);
}

/* This thread's state, made the first time; NULL when out of memory. */
static db_zlib_state *db_zlib_state_get(void)
{
    db_zlib_state *s;

    if (pthread_once(&db_zlib_once, db_zlib_key_make) != 0 || db_zlib_key_rc != 0)
        return NULL;
    if ((s = pthread_getspecific(db_zlib_key)) != NULL)
        return s;
    if (!(s = calloc(1, sizeof(*s))))
        return NULL;
    if (deflateInit(&s->zs, Z_BEST_SPEED) != Z_OK) {
        free(s);
        return NULL;
    }
    if (pthread_setspecific(db_zlib_key, s) != 0) {
        db_zlib_state_free(s);
        return NULL;
    }
    return s;
}

int db_deflate(unsigned char **out, size_t *out_len, const void *in, size_t len)
{
    db_zlib_state *s = db_zlib_state_get();
    size_t bound;
    int zrc;

    *out = NULL;
    if (!s)
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    if (len > (uLong)-1 || len > (uInt)-1)
        return pd_error_set(PD_ERROR, "zlib could not compress %zu bytes", len);
    bound = deflateBound(&s->zs, (uLong)len);
    if (bound > s->cap) {
        free(s->buf);
        s->cap = 0;
        if (!(s->buf = malloc(bound)))
            return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
        s->cap = bound;
    }
    if (deflateReset(&s->zs) != Z_OK)
        return pd_error_set(PD_ERROR, "zlib could not compress %zu bytes", len);
    s->zs.next_in = (Bytef *)(uintptr_t)in;
    s->zs.avail_in = (uInt)len;
    s->zs.next_out = s->buf;
    s->zs.avail_out = (uInt)(bound > (uInt)-1 ? (uInt)-1 : bound);
    zrc = deflate(&s->zs, Z_FINISH);
    if (zrc != Z_STREAM_END)
        return pd_error_set(PD_ERROR, "zlib could not compress %zu bytes", len);
    if (!(*out = malloc(s->zs.total_out ? s->zs.total_out : 1)))
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    memcpy(*out, s->buf, s->zs.total_out);
    *out_len = s->zs.total_out;
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
