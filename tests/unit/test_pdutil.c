/*
 * test_pdutil.c: the shared utilities of common/: the growable buffer with
 * its bound (pd_buf.h), the hash table (pd_map.h), and the CPUs a default
 * thread count counts (pd_sched.h).
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "pd_buf.h"
#include "pd_utf8.h"
#include "pd_dec.h"
#include "pd_error.h"
#include "pd_map.h"
#include "pd_sched.h"
#include "pd_time.h"
#include "pd_xxh.h"

static void test_buf_appends_and_terminates(void **state)
{
    pd_buf b;
    char *s;
    size_t n, i;

    pd_buf_init(&b, 0);
    assert_null(b.data);
    assert_int_equal(pd_buf_puts(&b, "abc"), 0);
    assert_int_equal(pd_buf_put(&b, "\0x", 2), 0);
    assert_int_equal(pd_buf_printf(&b, "-%d-%s", 42, "z"), 0);
    assert_int_equal(b.len, 3 + 2 + 5);
    assert_memory_equal(b.data, "abc\0x-42-z", 11);
    assert_int_equal(b.data[b.len], '\0');
    /* Past the first allocation, one byte at a time. */
    for (i = 0; i < 5000; i++)
        assert_int_equal(pd_buf_put(&b, "q", 1), 0);
    assert_int_equal(b.len, 5010);
    assert_int_equal(b.data[5009], 'q');
    assert_int_equal(b.data[5010], '\0');
    s = pd_buf_take(&b, &n);
    assert_int_equal(n, 5010);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    free(s);
    /* An empty buffer hands over "", not NULL. */
    s = pd_buf_take(&b, &n);
    assert_non_null(s);
    assert_string_equal(s, "");
    assert_int_equal(n, 0);
    free(s);
    pd_buf_free(&b);
}

static void test_buf_bound_is_an_error_that_sticks(void **state)
{
    pd_buf b;

    pd_buf_init(&b, 8);
    assert_int_equal(pd_buf_puts(&b, "12345678"), 0);          /* exactly the bound */
    assert_int_equal(pd_buf_put(&b, "9", 1), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "over the limit of 8 bytes"));
    assert_int_equal(b.err, PD_EINVAL);
    /* Nothing more is appended, not even what would fit now. */
    assert_int_equal(pd_buf_put(&b, "", 0), PD_EINVAL);
    assert_int_equal(pd_buf_printf(&b, "%s", ""), PD_EINVAL);
    assert_int_equal(b.len, 8);
    assert_string_equal(b.data, "12345678");
    /* A failed buffer hands over nothing. */
    assert_null(pd_buf_take(&b, NULL));
    assert_int_equal(b.err, 0);
    assert_int_equal(b.max, 8);
    /* printf over the bound fails whole, with nothing of it kept. */
    assert_int_equal(pd_buf_puts(&b, "1234"), 0);
    assert_int_equal(pd_buf_printf(&b, "%05d", 7), PD_EINVAL);
    assert_string_equal(b.data, "1234");
    pd_buf_free(&b);
    /* A bound lowered under what the buffer holds (the server sets a
     * body's bound as it reads) refuses the next append, even one that
     * fits the allocation's room: the inline append tests it as reserve
     * does, without wrapping max - len. */
    pd_buf_init(&b, 0);
    assert_int_equal(pd_buf_puts(&b, "0123456789"), 0);
    b.max = 8;
    assert_true(b.cap - b.len > 2);
    assert_int_equal(pd_buf_put(&b, "ab", 2), PD_EINVAL);
    assert_int_equal(b.len, 10);
    assert_string_equal(b.data, "0123456789");
    pd_buf_free(&b);
}

static void test_buf_reserve_and_reset(void **state)
{
    pd_buf b;
    char *keep;

    pd_buf_init(&b, 0);
    assert_int_equal(pd_buf_reserve(&b, 1000), 0);
    assert_true(b.cap >= 1001);
    memcpy(b.data, "hello", 5);
    b.len = 5;
    assert_int_equal(pd_buf_puts(&b, "!"), 0);
    assert_string_equal(b.data, "hello!");
    keep = b.data;
    pd_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    assert_ptr_equal(b.data, keep);      /* the allocation is kept */
    /* A size that cannot be is the bound's error, not a wrapped size. */
    assert_int_equal(pd_buf_reserve(&b, SIZE_MAX), PD_EINVAL);
    pd_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.err, 0);
}

/* pd_buf_json_str's string for s against jansson's dump of it. */
static void str_same(const char *s)
{
    json_t *j = json_string(s);
    char *want;
    pd_buf b;

    assert_non_null(j);
    want = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    pd_buf_init(&b, 0);
    pd_buf_json_str(&b, s);
    assert_int_equal(b.err, 0);
    if (strcmp(want, b.data) != 0)
        fail_msg("string escaped differently: jansson %s, writer %s", want, b.data);
    free(want);
    pd_buf_free(&b);
    json_decref(j);
}

static void test_buf_json_str_escapes_as_jansson(void **state)
{
    static const char *hostile[] = {
        "", "plain", "\"quoted\"", "back\\slash", "a/b", "\b\f\n\r\t", "\x01\x1f\x7f",
        "caf\xc3\xa9", "\xe2\x80\xa8 line sep \xe2\x80\xa9", "\xe2\x80\xae RLO",
        "\xef\xbb\xbf BOM", "\xf0\x9f\x98\x80 emoji", "</script><!--", "\\u0000",
    };
    char s[4];
    int c;
    size_t i;

    /* Every byte that can stand alone in UTF-8, between two letters. */
    for (c = 1; c < 0x80; c++) {
        s[0] = 'a';
        s[1] = (char)c;
        s[2] = 'b';
        s[3] = '\0';
        str_same(s);
    }
    for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
        str_same(hostile[i]);
}

/* The same with what needs an escape at every place of strings of 0 to 24
 * bytes: the writer reads eight bytes a step, so each byte of a word, a
 * word's end and a string's last bytes are each a different path. */
static void test_buf_json_str_in_words(void **state)
{
    static const char *mark[] = {"\"", "\\", "\n", "\x01", "\x1f", "\x7f", " ", "\xc3\xa9",
                                 "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    char s[40];
    size_t len, p, m, k;

    for (len = 0; len <= 24; len++)
        for (p = 0; p <= len; p++)
            for (m = 0; m < sizeof(mark) / sizeof(*mark); m++) {
                k = strlen(mark[m]);
                memset(s, 'x', len);
                memcpy(s + p, mark[m], k);
                memset(s + p + k, 'y', len - p);
                s[len + k] = '\0';
                str_same(s);
                if (p + k + 9 < len + k) {      /* a second one a word later */
                    s[p + k + 9] = '"';
                    str_same(s);
                }
            }
}

/* pd_utf8_valid against jansson, which refuses a string that is not UTF-8
 * (RFC 3629): sequences valid and not at every place of ASCII runs of 0 to
 * 20 bytes (it reads eight ASCII bytes a step), at the end cut short. */
static void test_utf8_valid_as_jansson(void **state)
{
    static const char *seq[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x80",
                                "\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xe2\x82",
                                "\xf0\x9f\x98", "\xc3"};
    char s[40];
    size_t len, p, q, k, n;

    for (len = 0; len <= 20; len++)
        for (p = 0; p <= len; p++)
            for (q = 0; q < sizeof(seq) / sizeof(*seq); q++) {
                json_t *j;

                k = strlen(seq[q]);
                memset(s, 'a', len);
                memcpy(s + p, seq[q], k);
                memset(s + p + k, 'b', len - p);
                n = len + k;
                j = json_stringn(s, n);
                if (pd_utf8_valid(s, n) != (j != NULL))
                    fail_msg("%zu bytes, sequence %zu at %zu: pd_utf8_valid %d, jansson %s", n,
                             q, p, pd_utf8_valid(s, n), j ? "takes it" : "refuses it");
                json_decref(j);
            }
}

/* Keys "k0".."k{n-1}" in one block, each at keys + 16 * i. */
static char *make_keys(size_t n)
{
    char *keys = calloc(n, 16);
    size_t i;

    for (i = 0; i < n; i++)
        snprintf(keys + 16 * i, 16, "k%zu", i);
    return keys;
}

static void check_map(pd_map_hash kind)
{
    enum { N = 20000 };
    char *keys = make_keys(N);
    unsigned char *seen = calloc(N, 1);
    pd_map *m = pd_map_new(kind);
    size_t i, pos = 0, len, visits = 0;
    const void *k;
    void *v;

    assert_non_null(m);
    for (i = 0; i < N; i++)
        assert_int_equal(pd_map_put(m, keys + 16 * i, strlen(keys + 16 * i),
                                    (void *)(uintptr_t)(i + 1)), 0);
    assert_int_equal(pd_map_count(m), N);
    for (i = 0; i < N; i++)
        assert_int_equal((uintptr_t)pd_map_get(m, keys + 16 * i, strlen(keys + 16 * i)),
                         i + 1);
    assert_null(pd_map_get(m, "k20000", 6));
    assert_null(pd_map_get(m, "k1", 1));             /* a prefix is another key */
    /* Replacing keeps the count (and takes the new key pointer). */
    assert_int_equal(pd_map_put(m, keys + 16 * 7, 2, (void *)(uintptr_t)99), 0);
    assert_int_equal(pd_map_count(m), N);
    assert_int_equal((uintptr_t)pd_map_get(m, keys + 16 * 7, 2), 99);
    /* Every third key goes, in a scattered order: the others stay
     * findable across the holes (runs are shifted back, not broken). */
    for (i = 0; i < N; i++) {
        size_t j = (i * 7919) % N;

        if (j % 3 == 0)
            assert_non_null(pd_map_del(m, keys + 16 * j, strlen(keys + 16 * j)));
    }
    assert_null(pd_map_del(m, "k0", 2));
    for (i = 0; i < N; i++) {
        v = pd_map_get(m, keys + 16 * i, strlen(keys + 16 * i));
        if (i % 3 == 0)
            assert_null(v);
        else
            assert_int_equal((uintptr_t)v, i == 7 ? 99 : i + 1);
    }
    assert_int_equal(pd_map_count(m), N - (N + 2) / 3);
    /* Iteration gives every entry once. */
    while (pd_map_next(m, &pos, &k, &len, &v)) {
        i = (size_t)((const char *)k - keys) / 16;
        assert_int_equal(seen[i]++, 0);
        assert_int_equal(len, strlen(keys + 16 * i));
        visits++;
    }
    assert_int_equal(visits, pd_map_count(m));
    /* The empty key is a key like any other. */
    {   /* a miss, then added with the hash it gave; a hit gives the same hash */
        uint64_t h = 0, h2 = 1;

        assert_null(pd_map_get_hashed(m, "hashed key", 10, &h));
        assert_int_equal(pd_map_put_hashed(m, "hashed key", 10, h, (void *)(uintptr_t)77), 0);
        assert_int_equal((uintptr_t)pd_map_get(m, "hashed key", 10), 77);
        assert_int_equal((uintptr_t)pd_map_get_hashed(m, "hashed key", 10, &h2), 77);
        assert_true(h == h2);
        assert_non_null(pd_map_del(m, "hashed key", 10));
    }
    assert_int_equal(pd_map_put(m, "", 0, (void *)(uintptr_t)5), 0);
    assert_int_equal((uintptr_t)pd_map_get(m, "x", 0), 5);
    pd_map_free(m);
    free(seen);
    free(keys);
}

static void test_map_trusted(void **state)
{
    check_map(PD_MAP_TRUSTED);
}

static void test_map_seeded(void **state)
{
    check_map(PD_MAP_SEEDED);
}

/* Every other key of a small table goes, then the rest: each removal
 * leaves the others findable, and the map ends empty. */
static void test_map_delete_in_one_run(void **state)
{
    pd_map *m = pd_map_new(PD_MAP_TRUSTED);
    char keys[64][8];
    size_t i;

    for (i = 0; i < 64; i++) {
        snprintf(keys[i], sizeof(keys[i]), "%zu", i);
        assert_int_equal(pd_map_put(m, keys[i], strlen(keys[i]), keys[i]), 0);
    }
    for (i = 0; i < 64; i += 2)
        assert_ptr_equal(pd_map_del(m, keys[i], strlen(keys[i])), keys[i]);
    for (i = 0; i < 64; i++)
        assert_ptr_equal(pd_map_get(m, keys[i], strlen(keys[i])), i % 2 ? keys[i] : NULL);
    for (i = 1; i < 64; i += 2)
        assert_ptr_equal(pd_map_del(m, keys[i], strlen(keys[i])), keys[i]);
    assert_int_equal(pd_map_count(m), 0);
    pd_map_free(m);
}

/* The CPUs counted are those the process may run on (taskset, a
 * container's cpuset), not every CPU online: one CPU allowed, one thread
 * by default. */
static void test_cpus_are_those_allowed(void **state)
{
    cpu_set_t all, one;
    int cpu;
    unsigned quota = pd_sched_quota("/proc/self/cgroup", "/sys/fs/cgroup");
    unsigned want;

    (void)state;
    assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
    want = (unsigned)CPU_COUNT(&all);
    assert_int_equal(pd_sched_cpus(), quota && quota < want ? quota : want);
    for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &all); cpu++)
        ;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
    assert_int_equal(pd_sched_cpus(), 1);
    assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
}

/* CPU bandwidth limits as data: a /proc/self/cgroup text, the files of a
 * cgroup tree ("PATH=CONTENT", PATH under the tree's root; a PATH ending
 * in "/" is a directory), and the CPUs pd_sched_quota() must count. */
static const struct {
    const char *name, *proc, *files[6];
    unsigned want;
} quota_cases[] = {
    { "v2 without a limit", "0::/user.slice/a\n", { "user.slice/a/cpu.max=max 100000" }, 0 },
    { "v2, 1.5 CPUs round up", "0::/a\n", { "a/cpu.max=150000 100000" }, 2 },
    { "v2, half a CPU is one", "0::/a\n", { "a/cpu.max=50000 100000" }, 1 },
    { "v2, a parent's smaller limit", "0::/p/c\n",
      { "p/cpu.max=100000 100000", "p/c/cpu.max=400000 100000" }, 1 },
    { "v2, the root's limit, none below", "0::/a/b\n",
      { "cpu.max=200000 100000", "a/b/" }, 2 },
    { "v2, a container's view: the host's path missing", "0::/docker/abc\n",
      { "cpu.max=300000 100000" }, 3 },
    { "v1 cpu,cpuacct", "4:memory:/x\n3:cpu,cpuacct:/docker/abc\n",
      { "cpu,cpuacct/docker/abc/cpu.cfs_quota_us=250000",
        "cpu,cpuacct/docker/abc/cpu.cfs_period_us=100000" }, 3 },
    { "v1 without a limit", "1:cpu:/\n",
      { "cpu/cpu.cfs_quota_us=-1", "cpu/cpu.cfs_period_us=100000" }, 0 },
    { "v1 cpuacct alone limits nothing", "2:cpuacct:/\n",
      { "cpuacct/cpu.cfs_quota_us=100000", "cpuacct/cpu.cfs_period_us=100000" }, 0 },
    { "hybrid: cpu on v1, the v2 tree under unified/ without it", "1:cpu:/\n0::/\n",
      { "cpu/cpu.cfs_quota_us=200000", "cpu/cpu.cfs_period_us=100000",
        "unified/cgroup.controllers=" }, 2 },
    { "a v1 cpu line and a v2 line: the smaller limit", "1:cpu:/\n0::/\n",
      { "cpu/cpu.cfs_quota_us=200000", "cpu/cpu.cfs_period_us=100000",
        "cpu.max=100000 100000" }, 1 },
    { "a quota that would overflow rounding up", "0::/\n",
      { "cpu.max=9223372036854775807 100000" }, 4096 },
    { "v2 cpu.max without a period", "0::/\n", { "cpu.max=100000" }, 0 },
    { "v2 cpu.max not a number", "0::/\n", { "cpu.max=lots 100000" }, 0 },
    { "v2, a zero period", "0::/\n", { "cpu.max=100000 0" }, 0 },
    { "no cgroup file", NULL, { NULL }, 0 },
};

/* Write `text` to dir/rel, making its directories; rel ending in "/"
 * only makes them. */
static void put_file(const char *dir, const char *rel, const char *text)
{
    char path[4096], *p;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    if (path[strlen(path) - 1] == '/')
        return;
    assert_non_null(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
}

static void test_quota_cases(void **state)
{
    size_t i, j;

    (void)state;
    for (i = 0; i < sizeof(quota_cases) / sizeof(quota_cases[0]); i++) {
        char root[] = "/tmp/pd_quota_XXXXXX", proc[4096], cmd[4200];
        unsigned got;

        assert_non_null(mkdtemp(root));
        snprintf(proc, sizeof(proc), "%s/proc_cgroup", root);
        if (quota_cases[i].proc)
            put_file(root, "proc_cgroup", quota_cases[i].proc);
        for (j = 0; j < 6 && quota_cases[i].files[j]; j++) {
            char rel[1024], *eq;

            snprintf(rel, sizeof(rel), "tree/%s", quota_cases[i].files[j]);
            eq = strchr(rel, '=');
            if (eq)
                *eq = '\0';
            put_file(root, rel, eq ? eq + 1 : "");
        }
        snprintf(cmd, sizeof(cmd), "%s/tree", root);
        put_file(root, "tree/", "");
        got = pd_sched_quota(proc, cmd);
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);   /* before a failure */
        assert_int_equal(system(cmd), 0);
        if (got != quota_cases[i].want)
            fail_msg("%s: %u CPUs, want %u", quota_cases[i].name, got, quota_cases[i].want);
    }
}

/* pd_utoa and pd_itoa write what printf's %llu and %lld write: at every
 * power of ten and either side of it, the ends of both ranges, and a
 * sweep of pseudo-random values of every length. */
static void check_dec(uint64_t u)
{
    char want[32], got[PD_DEC_MAX + 1];
    size_t n;

    snprintf(want, sizeof(want), "%llu", (unsigned long long)u);
    n = pd_utoa(got, u);
    got[n] = '\0';
    assert_string_equal(got, want);
    assert_int_equal(n, pd_dec_len(u));
    snprintf(want, sizeof(want), "%lld", (long long)(int64_t)u);
    n = pd_itoa(got, (int64_t)u);
    got[n] = '\0';
    assert_string_equal(got, want);
}

static void test_dec_writes_what_printf_writes(void **state)
{
    uint64_t p = 1, x = 88172645463325252ull;
    int i;

    (void)state;
    for (i = 0; i < 100; i++) {
        char want[8], got[8] = "xxxxxxx";

        snprintf(want, sizeof(want), "%02d", i);
        assert_ptr_equal(pd_dec2(got, (unsigned)i), got + 2);
        assert_memory_equal(got, want, 2);
        assert_int_equal(got[2], 'x');
    }
    check_dec(0);
    check_dec(UINT64_MAX);
    check_dec((uint64_t)INT64_MAX);
    check_dec((uint64_t)INT64_MIN);
    for (i = 0; i < 20; i++, p *= 10) {
        check_dec(p - 1);
        check_dec(p);
        check_dec(p + 1);
        check_dec((uint64_t)0 - p);
    }
    for (i = 0; i < 100000; i++) {     /* xorshift64 */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check_dec(x >> (x & 63));
    }
}

/* pd_iso8601 of t at offset off against printf's format of gmtime_r's
 * fields, the one way it was written before its digits were written by
 * hand (every buffer size from 0 to 40). */
static void check_iso(int64_t t, int off)
{
    time_t local = (time_t)(t + (int64_t)off * 60);
    struct tm tm;
    char want[64], got[64];
    int a = off < 0 ? -off : off;
    size_t n;

    assert_non_null(gmtime_r(&local, &tm));
    snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
             tm.tm_sec, off < 0 ? '-' : '+', a / 60, a % 60);
    for (n = 0; n <= 40; n++) {
        memset(got, 'x', sizeof(got));
        pd_iso8601(got, n, t, off);
        if (n)
            assert_memory_equal(got, want, strlen(want) + 1 < n ? strlen(want) + 1 : n - 1);
        if (n && n <= strlen(want))
            assert_int_equal(got[n - 1], '\0');
        assert_int_equal(got[n], 'x');                  /* nothing past the buffer */
        if (n > strlen(want))
            assert_string_equal(got, want);
    }
}

static void test_iso8601_writes_what_printf_writes(void **state)
{
    static const int offs[] = {0, 60, -60, 330, -570, 840, -720, 345, 1, -1, 5999, -6000};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    size_t i, k;

    (void)state;
    for (k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
        check_iso(0, offs[k]);                          /* 1970 */
        check_iso(-1, offs[k]);                         /* 1969 */
        check_iso(-2208988800LL, offs[k]);              /* 1900 */
        check_iso(-62167219200LL, offs[k]);             /* year 0 */
        check_iso(-62167219201LL, offs[k]);             /* year -1: printf's way */
        check_iso(253402300799LL, offs[k]);             /* 9999-12-31T23:59:59Z */
        check_iso(253402300800LL, offs[k]);             /* year 10000 */
        check_iso(951782400, offs[k]);                  /* 2000-02-29 */
    }
    for (i = 0; i < 20000; i++) {                       /* xorshift64 */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check_iso((int64_t)(x % 4102444800ull) - 86400 * 365, (int)(x >> 40) % 1441 - 720);
    }
}

/* A gathered hash (pd_xxh.h) is XXH3's one-shot hash of the same bytes,
 * however they are cut: pieces of 0 bytes up to past the buffer, a piece
 * that lands exactly on its end, and one larger than it after others. */
static void test_xxh_gathered_is_one_shot(void **state)
{
    static unsigned char data[9000];
    uint64_t x = 0x2545f4914f6cdd1dull;
    size_t i, round;

    (void)state;
    for (i = 0; i < sizeof(data); i++)
        data[i] = (unsigned char)(i * 131 + (i >> 7));
    for (round = 0; round < 300; round++) {
        size_t total = round < 4 ? (size_t[]){0, 2048, 2049, 9000}[round]
                                 : (size_t)(x % sizeof(data)), at = 0;
        pd_xxh h64, h128;
        XXH128_hash_t w, g;

        pd_xxh_start64(&h64);
        pd_xxh_start128(&h128);
        while (at < total) {
            size_t piece;

            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            piece = x % 8 == 0 ? x % 3000 : x % 8 == 1 ? 2048 - h64.n : x % 40;
            if (piece > total - at)
                piece = total - at;
            pd_xxh_put(&h64, data + at, piece);
            pd_xxh_put(&h128, data + at, piece);
            at += piece;
        }
        assert_true(pd_xxh_digest64(&h64) == XXH3_64bits(data, total));
        w = XXH3_128bits(data, total);
        g = pd_xxh_digest128(&h128);
        assert_true(w.low64 == g.low64 && w.high64 == g.high64);
    }
}

/* The one repair of text that fails UTF-8 (pd_utf8.h): each bad byte a
 * U+FFFD; for a C string a NUL too, counted apart (SARIF names and paths). */
static void test_utf8_repair_counts_bad_bytes_and_nuls_apart(void **state)
{
    static const char in[] = "a\0b\xC0\xAF" "c\0";   /* two NULs, an overlong '/' */
    size_t bad, nul;
    char *kept = pd_utf8_repair(in, sizeof(in) - 1, &bad);
    char *out = pd_utf8_repair_nul(in, sizeof(in) - 1, &bad, &nul);

    assert_int_equal(bad, 2);
    assert_int_equal(nul, 2);
    assert_string_equal(out, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD" "c\xEF\xBF\xBD");
    assert_memory_equal(kept, "a\0b", 3);          /* pd_utf8_repair keeps the NUL */
    free(kept);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_appends_and_terminates),
        cmocka_unit_test(test_buf_bound_is_an_error_that_sticks),
        cmocka_unit_test(test_buf_reserve_and_reset),
        cmocka_unit_test(test_buf_json_str_escapes_as_jansson),
        cmocka_unit_test(test_buf_json_str_in_words),
        cmocka_unit_test(test_utf8_valid_as_jansson),
        cmocka_unit_test(test_map_trusted),
        cmocka_unit_test(test_map_seeded),
        cmocka_unit_test(test_map_delete_in_one_run),
        cmocka_unit_test(test_cpus_are_those_allowed),
        cmocka_unit_test(test_quota_cases),
        cmocka_unit_test(test_dec_writes_what_printf_writes),
        cmocka_unit_test(test_iso8601_writes_what_printf_writes),
        cmocka_unit_test(test_xxh_gathered_is_one_shot),
        cmocka_unit_test(test_utf8_repair_counts_bad_bytes_and_nuls_apart),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
