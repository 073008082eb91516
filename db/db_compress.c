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
 *
 * A fifth of what an ingest compresses is a text it compressed before: a
 * file's functions, calls or findings that a change elsewhere in the file
 * left as they were.  The frames of the last few megabytes are kept
 * (db_recent_*), keyed by the text's XXH3-128 and length, and a text found
 * there is checked byte for byte against the frame decompressed (a
 * fraction of compressing it again) before the frame is used, so that a
 * hash collision, however made, can only cost the time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>
#if defined(__x86_64__) || defined(__i386__)
/* libxxhash's dispatch (xxh_x86dispatch.h, declared here: the header's
 * declarations turn static under XXH_INLINE_ALL): AVX2 where the CPU has
 * it, where the inlined functions are compiled for the baseline, SSE2;
 * the same hash. */
XXH128_hash_t XXH3_128bits_dispatch(const void *input, size_t len);
#define DB_XXH128 XXH3_128bits_dispatch
#else
#define DB_XXH128 XXH3_128bits
#endif

#include "db.h"
#include "pd_error.h"
#include "pd_malloc.h"

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
    char *check;                /* a kept frame decompressed, to compare */
    size_t check_cap;
} db_compress_state;

/* Compressed bytes of the kept frames: an ingest of numpy/core's history
 * compresses 106 MB of texts it compressed before, 100 MB of them within
 * the last 2 MiB of frames (105 MB within 16 MiB; the peak RSS budget is
 * 128 MB). */
#define DB_RECENT_BYTES ((size_t)2 << 20)
/* Texts larger than this are not kept (bytes before compression). */
#define DB_RECENT_MAX_IN ((size_t)1 << 20)
#define DB_RECENT_BUCKETS 4096u

/* A kept frame: in its hash bucket's list and in the list from oldest to
 * newest. */
typedef struct db_recent {
    struct db_recent *next, *newer;
    XXH128_hash_t h;
    size_t len, zlen;
    unsigned char z[];
} db_recent;

static struct {
    pthread_mutex_t mu;
    db_recent *bucket[DB_RECENT_BUCKETS];
    db_recent *oldest, *newest;
    size_t bytes;
    size_t reused;              /* db_compress_reused_bytes */
} db_recent_cache = {PTHREAD_MUTEX_INITIALIZER, {NULL}, NULL, NULL, 0, 0};

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
    free(s->check);
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

/* The kept frame of a text of len bytes whose hash is h, or NULL (the
 * lock held). */
static db_recent *db_recent_lookup(XXH128_hash_t h, size_t len)
{
    db_recent *r;

    for (r = db_recent_cache.bucket[h.low64 % DB_RECENT_BUCKETS]; r; r = r->next)
        if (r->len == len && XXH128_isEqual(r->h, h))
            return r;
    return NULL;
}

/* A copy of the kept frame of in[0..len) whose hash is h (*out, *out_len),
 * or *out NULL when none is kept.  0 or PD_ENOMEM. */
static int db_recent_find(unsigned char **out, size_t *out_len, XXH128_hash_t h, size_t len)
{
    db_recent *r;
    int rc = 0;

    *out = NULL;
    pthread_mutex_lock(&db_recent_cache.mu);
    r = db_recent_lookup(h, len);
    if (r && !(*out = malloc(r->zlen)))
        rc = PD_ENOMEM;
    else if (r) {
        memcpy(*out, r->z, r->zlen);
        *out_len = r->zlen;
    }
    pthread_mutex_unlock(&db_recent_cache.mu);
    return rc;
}

/* Drop the oldest kept frame (the lock held). */
static void db_recent_drop_oldest(void)
{
    db_recent *r = db_recent_cache.oldest, **p;

    for (p = &db_recent_cache.bucket[r->h.low64 % DB_RECENT_BUCKETS]; *p != r; p = &(*p)->next)
        ;
    *p = r->next;
    if (!(db_recent_cache.oldest = r->newer))
        db_recent_cache.newest = NULL;
    db_recent_cache.bytes -= r->zlen;
    free(r);
}

/* Keep frame z[0..zlen) of a text of len bytes whose hash is h, dropping
 * the oldest beyond DB_RECENT_BYTES.  Out of memory keeps nothing. */
static void db_recent_keep(XXH128_hash_t h, size_t len, const unsigned char *z, size_t zlen)
{
    db_recent *r;

    if (len > DB_RECENT_MAX_IN || zlen > DB_RECENT_BYTES ||
        !(r = malloc(sizeof(*r) + zlen)))
        return;
    r->h = h;
    r->len = len;
    r->zlen = zlen;
    r->newer = NULL;
    memcpy(r->z, z, zlen);
    pthread_mutex_lock(&db_recent_cache.mu);
    if (db_recent_lookup(h, len)) {     /* another thread kept it first */
        pthread_mutex_unlock(&db_recent_cache.mu);
        free(r);
        return;
    }
    while (db_recent_cache.oldest && db_recent_cache.bytes + zlen > DB_RECENT_BYTES)
        db_recent_drop_oldest();
    r->next = db_recent_cache.bucket[h.low64 % DB_RECENT_BUCKETS];
    db_recent_cache.bucket[h.low64 % DB_RECENT_BUCKETS] = r;
    if (db_recent_cache.newest)
        db_recent_cache.newest->newer = r;
    else
        db_recent_cache.oldest = r;
    db_recent_cache.newest = r;
    db_recent_cache.bytes += zlen;
    pthread_mutex_unlock(&db_recent_cache.mu);
}

static int db_decompress_into(char *buf, const unsigned char *in, size_t len,
                              size_t raw_len, int zstd);

/* 1 when frame z[0..zlen) decompresses to exactly in[0..len), its
 * checksum right (db_decompress_into). */
static int db_recent_same(db_compress_state *s, const unsigned char *z, size_t zlen,
                          const void *in, size_t len)
{
    if (pd_grow((void **)&s->check, &s->check_cap, len + 1, 1, 4096,
                "checking a kept frame") < 0) {
        pd_error_clear();       /* the text is compressed afresh instead */
        return 0;
    }
    return db_decompress_into(s->check, z, zlen, len, 1) == 0 &&
           memcmp(s->check, in, len) == 0;
}

int db_compress(unsigned char **out, size_t *out_len, const void *in, size_t len)
{
    db_compress_state *s = db_compress_state_get();
    ZSTD_CCtx *c = s ? db_compress_cctx(s) : NULL;
    XXH128_hash_t h;
    size_t bound, n;

    *out = NULL;
    if (!c)
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    if (!in)
        in = "";
    h = DB_XXH128(in, len);
    if (db_recent_find(out, out_len, h, len) < 0)
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    if (*out && db_recent_same(s, *out, *out_len, in, len)) {
        pthread_mutex_lock(&db_recent_cache.mu);
        db_recent_cache.reused += len;
        pthread_mutex_unlock(&db_recent_cache.mu);
        return 0;
    }
    free(*out);
    *out = NULL;
    bound = ZSTD_compressBound(len);
    if (bound > s->cap) {
        free(s->buf);
        s->cap = 0;
        if (!(s->buf = malloc(bound)))
            return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
        s->cap = bound;
    }
    n = ZSTD_compress2(c, s->buf, s->cap, in, len);
    if (ZSTD_isError(n))
        return pd_error_set(PD_ERROR, "could not compress %zu bytes: %s", len,
                            ZSTD_getErrorName(n));
    if (!(*out = malloc(n)))
        return pd_error_set(PD_ENOMEM, "out of memory compressing %zu bytes", len);
    memcpy(*out, s->buf, n);
    *out_len = n;
    db_recent_keep(h, len, *out, n);
    return 0;
}

size_t db_compress_reused_bytes(void)
{
    size_t n;

    pthread_mutex_lock(&db_recent_cache.mu);
    n = db_recent_cache.reused;
    pthread_mutex_unlock(&db_recent_cache.mu);
    return n;
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
