/*
 * db_compress.c: the compressed columns (findings, calls, flow, functions).
 * Findings are read a whole file at a time and never queried inside, so
 * one compressed text per analysis (db_findings.h) is much smaller than a
 * row per finding.
 *
 * Written as Zstandard frames (RFC 8878) with libzstd at level 1: an
 * ingest of numpy/core's history compresses 480 MB of text on its analysis
 * threads, where libdeflate's level 1 (zlib's format, the columns' format
 * up to schema version 20) took 1.6-2.1 s of CPU and Zstandard's takes
 * 1.1 s, for the same 94 MB; it decompresses a fifth faster too (every
 * cold page reads these columns back).  doc/benchmarks.md has the run.
 * Older rows stay in zlib's format and are read with zlib.  Whole buffers
 * only, which is all these columns need.  Each thread keeps its contexts
 * and output buffer (allocated once, freed when the thread ends), so that
 * a text costs no set-up.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "db.h"
#include "pd_error.h"

/* Zstandard's level: 1 is its fastest standard level, already as small as
 * libdeflate's 1 on this text (the negative levels are faster still but
 * write 18 % more). */
#define DB_ZSTD_LEVEL 1

/* A thread's contexts and output buffer. */
typedef struct {
    ZSTD_CCtx *c;
    ZSTD_DCtx *d;
    unsigned char *buf;
    size_t cap;
} db_compress_state;

static pthread_key_t db_compress_key;
static pthread_once_t db_compress_once = PTHREAD_ONCE_INIT;
static int db_compress_key_rc;

/* Freed when its thread ends (the key's destructor). */
static void db_compress_state_free(void *p)
{
    db_compress_state *s = p;

    if (!s)
        return;
    ZSTD_freeCCtx(s->c);
    ZSTD_freeDCtx(s->d);
    free(s->buf);
    free(s);
}

static void db_compress_key_make(void)
{
    db_compress_key_rc = pthread_key_create(&db_compress_key, db_compress_state_free);
}

/* This thread's state, made the first time; NULL when out of memory. */
static db_compress_state *db_compress_state_get(void)
{
    db_compress_state *s;

    if (pthread_once(&db_compress_once, db_compress_key_make) != 0 ||
        db_compress_key_rc != 0)
        return NULL;
    if ((s = pthread_getspecific(db_compress_key)) != NULL)
        return s;
    if (!(s = calloc(1, sizeof(*s))))
        return NULL;
    if (pthread_setspecific(db_compress_key, s) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* The thread's compression context, set up once: level, content size in
 * the frame header (ZSTD_compress2's default), checksum. */
static ZSTD_CCtx *db_compress_cctx(db_compress_state *s)
{
    if (s->c)
        return s->c;
    if (!(s->c = ZSTD_createCCtx()))
        return NULL;
    if (ZSTD_isError(ZSTD_CCtx_setParameter(s->c, ZSTD_c_compressionLevel, DB_ZSTD_LEVEL)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(s->c, ZSTD_c_checksumFlag, 1))) {
        ZSTD_freeCCtx(s->c);
        s->c = NULL;
    }
    return s->c;
}

int db_compress(unsigned char **out, size_t *out_len, const void *in, size_t len)
{
    db_compress_state *s = db_compress_state_get();
    ZSTD_CCtx *c = s ? db_compress_cctx(s) : NULL;
    size_t bound, n;

    *out = NULL;
    if (!c)
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    bound = ZSTD_compressBound(len);
    if (bound > s->cap) {
        free(s->buf);
        s->cap = 0;
        if (!(s->buf = malloc(bound)))
            return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
        s->cap = bound;
    }
    n = ZSTD_compress2(c, s->buf, s->cap, in ? in : "", len);
    if (ZSTD_isError(n))
        return pd_error_set(PD_ERROR, "could not compress %zu bytes: %s", len,
                            ZSTD_getErrorName(n));
    if (!(*out = malloc(n)))
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    memcpy(*out, s->buf, n);
    *out_len = n;
    return 0;
}

/* 1 when in[0..len) starts with Zstandard's magic number (28 b5 2f fd):
 * as a zlib header its first two bytes fail zlib's check (0x28b5 is not a
 * multiple of 31), so no zlib stream starts so. */
static int db_is_zstd(const unsigned char *in, size_t len)
{
    static const unsigned char magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

    return len >= 4 && memcmp(in, magic, 4) == 0;
}

/* Decompress into buf[0..raw_len): 0 when exactly raw_len bytes came out
 * with the checksum right. */
static int db_decompress_into(char *buf, const unsigned char *in, size_t len,
                              size_t raw_len, int zstd)
{
    db_compress_state *s;
    uLongf n = (uLongf)raw_len;
    size_t got;

    if (!zstd)
        return uncompress((Bytef *)buf, &n, in, (uLong)len) == Z_OK && n == raw_len ? 0 : -1;
    if (ZSTD_getFrameContentSize(in, len) != (unsigned long long)raw_len)
        return -1;
    if (!(s = db_compress_state_get()) || (!s->d && !(s->d = ZSTD_createDCtx())))
        return PD_ENOMEM;
    got = ZSTD_decompressDCtx(s->d, buf, raw_len, in, len);
    return !ZSTD_isError(got) && got == raw_len ? 0 : -1;
}

int db_decompress(char **out, const void *in, size_t len, size_t raw_len)
{
    int zstd = in && db_is_zstd(in, len), rc = 0;
    char *buf;

    *out = NULL;
    /* The stored length is data, not a promise: deflate cannot shrink more
     * than about 1032:1 (zlib's technical details), Zstandard about 32,768:1
     * (a block of at most 128 KiB in at least 4 bytes, RFC 8878), so a
     * larger claim (or -1 read as SIZE_MAX) is damage, refused before any
     * allocation. */
    if (raw_len > DB_DECOMPRESS_MAX || raw_len / (zstd ? 32768 : 1032) > len + 64 ||
        (!in && len))
        return pd_error_set(PD_EDB, "the database is damaged: a stored length of "
                            "%zu bytes does not fit its %zu compressed bytes",
                            raw_len, len);
    if (!(buf = malloc(raw_len + 1)))
        return pd_error_set(PD_ENOMEM, "out of memory decompressing %zu bytes", raw_len);
    /* Exactly raw_len bytes, the checksum right, or it is damage. */
    if (!in || (rc = db_decompress_into(buf, in, len, raw_len, zstd)) != 0) {
        free(buf);
        if (in && rc == PD_ENOMEM)
            return pd_error_set(PD_ENOMEM, "out of memory decompressing %zu bytes",
                                raw_len);
        return pd_error_set(PD_EDB, "the database is damaged: a stored text does "
                            "not decompress to its stored length");
    }
    buf[raw_len] = '\0';
    *out = buf;
    return 0;
}

int db_column_decompress(sqlite3_stmt *st, int col, int nullable, char **out)
{
    *out = NULL;
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return nullable ? 0 : pd_error_set(PD_EDB, "the database is damaged: a "
                                           "compressed column is NULL");
    return db_decompress(out, sqlite3_column_blob(st, col), (size_t)sqlite3_column_bytes(st, col),
                         (size_t)sqlite3_column_int64(st, col + 1));
}
