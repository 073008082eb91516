/*
 * test_ingest_encode.c: the encodings an analysis thread makes for the
 * writer, made faster in issue 26 without changing a stored byte:
 * - the why of a function (ingest_why_text) is the text jansson dumps
 *   (pd_why_obj + json_dumps JSON_COMPACT), on cases and on random
 *   strings of every kind of byte;
 * - the why as stored (ingest_why_put: the compact form when the why has
 *   one, else that JSON) reads back from a functions' text (db_fns_text,
 *   db_fns_parse) as the same JSON, and is compact exactly when it can
 *   be; a damaged compact why is damage (PD_EDB);
 * - db_compress (libzstd, a context per thread) writes Zstandard frames:
 *   libzstd's own one-shot ZSTD_decompress() reads each text back, text
 *   after text, on the main thread and on others; db_decompress reads
 *   them and what zlib's compress2() wrote (databases from before schema
 *   version 20), and refuses a wrong length or checksum in either;
 * - a text compressed again shortly after gets the frame kept from the
 *   first time, the same bytes; one pushed out of the kept frames, or of
 *   the same length and other bytes, is compressed afresh.
 */
#include "testutil.h"

#include <pthread.h>
#include <zlib.h>
#include <zstd.h>
#include <jansson.h>

#include "db.h"
#include "db_fns.h"
#include "ingest_why.h"
#include "pd_why.h"

/* What the ingest stored before: jansson's dump (NULL when it refuses). */
static char *why_jansson(const pd_why *w)
{
    json_t *o = pd_why_obj(w);
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

    json_decref(o);
    return s;
}

/* 1 when s (NULL: "") is ASCII without the compact form's separator. */
static int compact_str(const char *s)
{
    for (; s && *s; s++)
        if ((unsigned char)*s >= 0x80 || *s == '\x1f')
            return 0;
    return 1;
}

/* Whether w has the compact form, by pd_why.h's words. */
static int has_compact(const pd_why *w)
{
    const pd_why_site *site[3] = {&w->status, &w->object, &w->object_also};
    int i;

    if (w->chain || !compact_str(w->mention) || (w->mention && !*w->mention))
        return 0;
    for (i = 0; i < 3; i++)
        if (site[i]->rule && (!*site[i]->rule || !compact_str(site[i]->rule) ||
                              !compact_str(site[i]->text)))
            return 0;
    return 1;
}

/* db_fns_parse callback: the why handed out, copied. */
static int why_back(void *arg, const db_fn_stored *f)
{
    *(char **)arg = f->why ? strdup(f->why) : NULL;
    return 0;
}

/* w stored by ingest_why_put in a functions' text and read back. */
static void assert_stored_why(const pd_why *w, const char *want)
{
    db_function_row row;
    pd_buf whys, text;
    char *back = NULL;

    pd_buf_init(&whys, 0);
    pd_buf_init(&text, 0);
    if (!want) {                      /* jansson refuses: nothing stored */
        assert_int_equal(ingest_why_put(&whys, w), PD_ENOMEM);
        pd_buf_free(&whys);
        return;
    }
    assert_int_equal(ingest_why_put(&whys, w), 0);
    assert_int_equal(whys.data[0] == '\x1f', has_compact(w));
    memset(&row, 0, sizeof(row));
    row.name = "f";
    row.status = "neutral";
    row.why = whys.data;
    db_fns_text(&text, &row, 1);
    assert_int_equal(db_fns_parse(text.data, text.len, why_back, &back), 0);
    assert_non_null(back);
    assert_string_equal(back, want);
    free(back);
    pd_buf_free(&whys);
    pd_buf_free(&text);
}

static void assert_same_why(const pd_why *w)
{
    size_t len = 0;
    char *want = why_jansson(w), *got = ingest_why_text(w, &len);

    if (!want != !got || (want && strcmp(want, got) != 0))
        fprintf(stderr, "why differs:\n jansson %s\n ingest  %s\n", want ? want : "NULL",
                got ? got : "NULL");
    if (!want)
        assert_null(got);
    else {
        assert_string_equal(got, want);
        assert_int_equal(len, strlen(want));
    }
    assert_stored_why(w, want);
    free(want);
    free(got);
}

static void test_why_cases(void **state)
{
    pd_why w;

    (void)state;
    memset(&w, 0, sizeof(w));
    assert_same_why(&w);                              /* all null */
    w.status = (pd_why_site){"capi-names-cpython", "PyObject", 12, 4};
    assert_same_why(&w);
    w.object = (pd_why_site){"obj-rule", "a \"quoted\\ text\"\t\n\r\b\f\x01\x1f/", 0,
                             4294967295u};
    w.mention = "npy_marker";
    w.mention_line = 77;
    w.object_also = (pd_why_site){"hpyfield", NULL, 3, 1};
    assert_same_why(&w);
    w.object_also.text = "caf\xc3\xa9 \xe2\x80\xa8";  /* UTF-8: jansson's way */
    assert_same_why(&w);
    w.object_also.text = "bad \xff byte";            /* jansson refuses it */
    assert_same_why(&w);
    w.object_also.text = "x";
    w.chain = "[{\"fn\":\"a\",\"line\":3},{\"fn\":\"b\\u0041\",\"line\":9}]";
    assert_same_why(&w);
    w.chain = "not json";                             /* left out: the site */
    assert_same_why(&w);
    w.chain = "{\"not\":\"an array\"}";
    assert_same_why(&w);
    w.chain = NULL;                                   /* compact, \t \n \\ */
    assert_same_why(&w);
    w.status.rule = "";                               /* not null: JSON */
    assert_same_why(&w);
    w.status.rule = "r";
    w.mention = "";
    assert_same_why(&w);
    w.mention = "m";
    w.object.text = "a\x1f b";                         /* the separator: JSON */
    assert_same_why(&w);
}

/* A compact why that is not of the form is damage, never another why. */
static void test_why_compact_damage(void **state)
{
#define U "\x1f"   /* PD_WHY_US, as a string to paste */
    static const char *const bad[] = {
        U,                                                /* too few fields */
        U "r" U "t" U "1" U "2" U U U U U U U U U U U,    /* one over */
        U "r" U "t" U "x" U "2" U U U U U U U U U U,      /* a bad line */
        U "r" U "t" U "01" U "2" U U U U U U U U U U,     /* leading zero */
        U "r" U "t" U "4294967296" U "2" U U U U U U U U U U, /* too large */
        U U "t" U U U U U U U U U U U U,                  /* null site, text */
        U U U U U U U U U U "7" U U U U,                  /* null mention, line */
        U U U U U U U U U "\xc3\xa9" U "7" U U U U,       /* not ASCII */
    };
#undef U
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        db_function_row row;
        pd_buf text;
        char *back = NULL;

        memset(&row, 0, sizeof(row));
        row.name = "f";
        row.status = "neutral";
        row.why = bad[i];
        pd_buf_init(&text, 0);
        db_fns_text(&text, &row, 1);
        assert_int_equal(db_fns_parse(text.data, text.len, why_back, &back), PD_EDB);
        assert_null(back);
        pd_buf_free(&text);
    }
}

/* A random string of `n` bytes drawn from `kind`: 0 printable ASCII and
 * the characters JSON escapes, 1 any byte but NUL. */
static void rand_str(char *buf, size_t n, int kind, unsigned *seed)
{
    static const char pick[] = "az09 _\"\\/\t\n\r\b\f\x01\x1f\x7f{}[]:,";
    size_t i;

    for (i = 0; i < n; i++)
        buf[i] = kind ? (char)(1 + rand_r(seed) % 255)
                      : pick[(size_t)rand_r(seed) % (sizeof(pick) - 1)];
    buf[n] = '\0';
}

static void test_why_random(void **state)
{
    char s[6][24];
    unsigned seed = 26;
    int i, k;

    (void)state;
    for (i = 0; i < 4000; i++) {
        pd_why w;
        pd_why_site *site[3] = {&w.status, &w.object, &w.object_also};

        memset(&w, 0, sizeof(w));
        for (k = 0; k < 6; k++)
            rand_str(s[k], (size_t)rand_r(&seed) % 20, i % 8 == 7, &seed);
        for (k = 0; k < 3; k++)
            if (rand_r(&seed) % 3)
                *site[k] = (pd_why_site){s[k], rand_r(&seed) % 5 ? s[k + 3] : NULL,
                                         (uint32_t)rand_r(&seed), (uint32_t)rand_r(&seed)};
        if (rand_r(&seed) % 2) {
            w.mention = s[5];
            w.mention_line = (uint32_t)rand_r(&seed);
        }
        assert_same_why(&w);
    }
}

/* Texts of sizes from nothing to past a compression window, text-like. */
static char *sample_text(size_t n, unsigned seed)
{
    char *t = malloc(n + 1);
    size_t i;

    assert_non_null(t);
    for (i = 0; i < n; i++)
        t[i] = (char)(rand_r(&seed) % 7 ? "[1,2,\"capi\",\"PyObject\"]"[i % 23]
                                        : 'a' + rand_r(&seed) % 26);
    t[n] = '\0';
    return t;
}

/* On a run of texts: db_compress's output is a Zstandard frame
 * (ZSTD_decompress() gives the text back), db_decompress gives the text
 * back from it and from compress2()'s output (zlib's format).  The number
 * of texts that failed (no cmocka assert off the main thread). */
static void *compress_run(void *arg)
{
    static const size_t sizes[] = {0, 1, 100, 5000, 70000, 300000, 17, 1 << 20, 3};
    unsigned seed = (unsigned)(uintptr_t)arg;
    uintptr_t bad = 0;
    size_t i;

    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        char *t = sample_text(sizes[i], seed + (unsigned)i), *back = NULL;
        uLongf wlen = compressBound(sizes[i]);
        unsigned char *want = malloc(wlen), *got = NULL;
        size_t glen = 0;

        char *zback = malloc(sizes[i] + 1), *oldback = NULL;
        size_t zlen = 0;

        if (!want || !zback ||
            compress2(want, &wlen, (const Bytef *)t, sizes[i], Z_BEST_SPEED) != Z_OK ||
            db_compress(&got, &glen, t, sizes[i]) != 0 ||
            glen < 4 || memcmp(got, "\x28\xb5\x2f\xfd", 4) != 0 ||
            ZSTD_isError(zlen = ZSTD_decompress(zback, sizes[i] + 1, got, glen)) ||
            zlen != sizes[i] ||
            memcmp(zback, t, sizes[i]) != 0 ||
            db_decompress(&back, got, glen, sizes[i]) != 0 || memcmp(back, t, sizes[i]) != 0 ||
            db_decompress(&oldback, want, wlen, sizes[i]) != 0 ||
            memcmp(oldback, t, sizes[i]) != 0) {
            fprintf(stderr, "compress: text %zu of %zu bytes (seed %u) differs\n", i,
                    sizes[i], seed);
            bad++;
        }
        free(oldback);
        free(zback);
        free(back);
        free(got);
        free(want);
        free(t);
    }
    return (void *)bad;
}

static void test_compress_zstd_format(void **state)
{
    pthread_t th[3];
    void *bad;
    int i;

    (void)state;
    assert_null(compress_run((void *)(uintptr_t)1));
    assert_null(compress_run((void *)(uintptr_t)2));   /* the same state, reused */
    for (i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, compress_run,
                                        (void *)(uintptr_t)(10 + i)), 0);
    for (i = 0; i < 3; i++) {
        pthread_join(th[i], &bad);
        assert_null(bad);
    }
}

/* n bytes of every value: what Zstandard cannot shrink, so that a few
 * texts fill the kept frames. */
static char *noise_text(size_t n, unsigned seed)
{
    char *t = malloc(n);
    size_t i;

    assert_non_null(t);
    for (i = 0; i < n; i++)
        t[i] = (char)(rand_r(&seed) & 0xff);
    return t;
}

/* Compress t[0..n) and check the frame reads back; *z gets it. */
static void compress_checked(unsigned char **z, size_t *zlen, const char *t, size_t n)
{
    char *back = NULL;

    assert_int_equal(db_compress(z, zlen, t, n), 0);
    assert_int_equal(db_decompress(&back, *z, *zlen, n), 0);
    assert_memory_equal(back, t, n);
    free(back);
}

/* The kept frames: a text compressed again is given the first frame (its
 * bytes counted as reused), and the caller's copy is its own; a text of
 * the same length with one byte changed is not; after 6 MB of other
 * frames (the kept ones are 2 MiB) the first text is compressed afresh,
 * to the same bytes. */
static void test_compress_reuses_frames(void **state)
{
    size_t n = 40000, zlen = 0, z2len = 0, zblen = 0, r0, i;
    char *a = sample_text(n, 21), *b = sample_text(n, 21);
    unsigned char *z = NULL, *z2 = NULL, *zb = NULL;

    (void)state;
    b[n / 2] ^= 1;
    r0 = db_compress_reused_bytes();
    compress_checked(&z, &zlen, a, n);
    assert_int_equal(db_compress_reused_bytes(), r0);
    compress_checked(&z2, &z2len, a, n);
    assert_int_equal(db_compress_reused_bytes(), r0 + n);
    assert_int_equal(z2len, zlen);
    assert_memory_equal(z2, z, zlen);
    z2[zlen - 1] ^= 1;                 /* the caller's copy, not the kept frame */
    free(z2);
    compress_checked(&zb, &zblen, b, n);
    assert_int_equal(db_compress_reused_bytes(), r0 + n);
    compress_checked(&z2, &z2len, a, n);
    assert_int_equal(db_compress_reused_bytes(), r0 + 2 * n);
    assert_memory_equal(z2, z, zlen);
    free(z2);
    for (i = 0; i < 60; i++) {
        char *t = noise_text(100000, (unsigned)i);
        unsigned char *zt = NULL;
        size_t ztlen = 0;

        compress_checked(&zt, &ztlen, t, 100000);
        free(zt);
        free(t);
    }
    r0 = db_compress_reused_bytes();
    compress_checked(&z2, &z2len, a, n);
    assert_int_equal(db_compress_reused_bytes(), r0);
    assert_int_equal(z2len, zlen);
    assert_memory_equal(z2, z, zlen);
    free(z2);
    free(zb);
    free(z);
    free(b);
    free(a);
}

/* One stream z[0..zlen) of text t (n bytes), in either format: a wrong
 * stored length, a cut stream and a flipped last byte (the checksum) are
 * damage, not text; the stream itself gives t back. */
static void refuses_damage(unsigned char *z, size_t zlen, const char *t, size_t n)
{
    char *back = NULL;

    assert_int_equal(db_decompress(&back, z, zlen, n - 1), PD_EDB);
    assert_int_equal(db_decompress(&back, z, zlen, n + 1), PD_EDB);
    assert_int_equal(db_decompress(&back, z, zlen - 3, n), PD_EDB);
    z[zlen - 1] ^= 1;                  /* XXH64 (Zstandard), adler32 (zlib) */
    assert_int_equal(db_decompress(&back, z, zlen, n), PD_EDB);
    assert_null(back);
    z[zlen - 1] ^= 1;
    assert_int_equal(db_decompress(&back, z, zlen, n), 0);
    assert_memory_equal(back, t, n);
    free(back);
}

/* Damage refused in the format written now and in zlib's (older rows). */
static void test_decompress_refuses_damage(void **state)
{
    char *t = sample_text(50000, 7);
    unsigned char *z = NULL, old[60000];
    uLongf oldlen = sizeof(old);
    size_t zlen = 0;

    (void)state;
    assert_int_equal(db_compress(&z, &zlen, t, 50000), 0);
    refuses_damage(z, zlen, t, 50000);
    assert_int_equal(compress2(old, &oldlen, (const Bytef *)t, 50000, Z_BEST_SPEED), Z_OK);
    refuses_damage(old, oldlen, t, 50000);
    free(z);
    free(t);
}

/* A text of one byte repeated shrinks far more than deflate can (1032:1):
 * it reads back, while a stored length past what a frame can hold is
 * refused before anything is allocated for it. */
static void test_decompress_repeats(void **state)
{
    size_t n = (size_t)8 << 20;
    char *t = malloc(n), *back = NULL;
    unsigned char *z = NULL;
    size_t zlen = 0;

    (void)state;
    assert_non_null(t);
    memset(t, ' ', n);
    assert_int_equal(db_compress(&z, &zlen, t, n), 0);
    assert_true(zlen < n / 1032);
    assert_int_equal(db_decompress(&back, z, zlen, n), 0);
    assert_memory_equal(back, t, n);
    free(back);
    assert_int_equal(db_decompress(&back, z, zlen, (zlen + 65) * 32768), PD_EDB);
    assert_non_null(strstr(pd_error_last(), "does not fit its"));
    assert_null(back);
    free(z);
    free(t);
}

/* A stored pair of columns (bytes, original size): decompressed from the row;
 * a NULL column is no text where the column may be NULL, damage where it
 * may not. */
static void test_column_decompress(void **state)
{
    char *t = sample_text(3000, 3), *back = NULL;
    unsigned char *z = NULL;
    size_t zlen = 0;
    sqlite3 *db;
    sqlite3_stmt *st;

    (void)state;
    assert_int_equal(db_compress(&z, &zlen, t, 3000), 0);
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT ?1, ?2, NULL, NULL", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_blob(st, 1, z, (int)zlen, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, 3000);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(db_column_decompress(st, 0, 0, &back), 0);
    assert_memory_equal(back, t, 3001);
    free(back);
    assert_int_equal(db_column_decompress(st, 2, 1, &back), 0);
    assert_null(back);
    assert_int_equal(db_column_decompress(st, 2, 0, &back), PD_EDB);
    assert_null(back);
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(z);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_why_cases),
        cmocka_unit_test(test_why_random),
        cmocka_unit_test(test_why_compact_damage),
        cmocka_unit_test(test_compress_zstd_format),
        cmocka_unit_test(test_compress_reuses_frames),
        cmocka_unit_test(test_decompress_refuses_damage),
        cmocka_unit_test(test_decompress_repeats),
        cmocka_unit_test(test_column_decompress),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
