/*
 * db_zlib.c: the compressed columns (findings, calls, flow).  Findings are
 * read a whole file at a time and never queried inside, so one compressed
 * text per analysis (db_findings.h) is much smaller than a row per
 * finding.
 *
 * The format is zlib's (RFC 1950), written and read with libdeflate: an
 * ingest of numpy/core's history compresses 750 MB of text on its analysis
 * threads, where zlib's deflate at its fastest level was 15 % of their
 * time; libdeflate's level 1 takes half of that and writes 10 % less, and
 * it inflates two to three times as fast (the writer and every cold page
 * read these columns back).  Whole buffers only, which is all these
 * columns need.  Databases written with zlib read the same.  Each thread
 * keeps its compressor, decompressor and output buffer (allocated once,
 * freed when the thread ends), so that a text costs no set-up.
 */
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "pd_error.h"

/* The level: libdeflate's 1 is its fastest, and already smaller than
 * zlib's 1 on this text. */
#define DB_ZLIB_LEVEL 1

/* A thread's compressor, decompressor and output buffer. */
typedef struct {
    struct libdeflate_compressor *c;
    struct libdeflate_decompressor *d;
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
    libdeflate_free_compressor(s->c);
    libdeflate_free_decompressor(s->d);
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
    if (pthread_setspecific(db_zlib_key, s) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

int db_deflate(unsigned char **out, size_t *out_len, const void *in, size_t len)
{
    db_zlib_state *s = db_zlib_state_get();
    size_t bound, n;

    *out = NULL;
    if (!s || (!s->c && !(s->c = libdeflate_alloc_compressor(DB_ZLIB_LEVEL))))
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    bound = libdeflate_zlib_compress_bound(s->c, len);
    if (bound > s->cap) {
        free(s->buf);
        s->cap = 0;
        if (!(s->buf = malloc(bound)))
            return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
        s->cap = bound;
    }
    if ((n = libdeflate_zlib_compress(s->c, in, len, s->buf, s->cap)) == 0)
        return pd_error_set(PD_ERROR, "could not compress %zu bytes", len);
    if (!(*out = malloc(n)))
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    memcpy(*out, s->buf, n);
    *out_len = n;
    return 0;
}

int db_inflate(char **out, const void *in, size_t len, size_t raw_len)
{
    db_zlib_state *s;
    size_t n = 0;
    char *buf;

    *out = NULL;
    /* The stored length is data, not a promise: deflate cannot shrink more
     * than about 1032:1 (zlib's technical details), so a larger claim (or
     * -1 read as SIZE_MAX) is damage, refused before any allocation. */
    if (raw_len > DB_INFLATE_MAX || raw_len / 1032 > len + 64 || (!in && len))
        return pd_error_set(PD_EDB, "the database is damaged: a stored length of "
                            "%zu bytes does not fit its %zu compressed bytes",
                            raw_len, len);
    if (!(s = db_zlib_state_get()) ||
        (!s->d && !(s->d = libdeflate_alloc_decompressor())))
        return pd_error_set(PD_ENOMEM, "out of memory inflating %zu bytes", raw_len);
    if (!(buf = malloc(raw_len + 1)))
        return pd_error_set(PD_ENOMEM, "out of memory inflating %zu bytes", raw_len);
    /* Exactly raw_len bytes, the checksum right, or it is damage. */
    if (!in || libdeflate_zlib_decompress(s->d, in, len, buf, raw_len, &n) !=
               LIBDEFLATE_SUCCESS || n != raw_len) {
        free(buf);
        return pd_error_set(PD_EDB, "the database is damaged: stored findings do "
                            "not inflate to their stored length");
    }
    buf[raw_len] = '\0';
    *out = buf;
    return 0;
}

int db_column_inflate(sqlite3_stmt *st, int col, int nullable, char **out)
{
    *out = NULL;
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return nullable ? 0 : pd_error_set(PD_EDB, "the database is damaged: a "
                                           "compressed column is NULL");
    return db_inflate(out, sqlite3_column_blob(st, col), (size_t)sqlite3_column_bytes(st, col),
                      (size_t)sqlite3_column_int64(st, col + 1));
}
