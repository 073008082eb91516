/*
 * db_findings.c: the writer of an analysis's stored findings, in format F1,
 * and the one reader, db_findings_each, of F1 and (through
 * db_findings_json.c) of the JSON that databases written before F1 hold.
 * The format and why it is so are in db_findings.h.
 *
 * The writer finds the distinct entries (guarded, class, rule, text,
 * reason) by their bytes with the one hash table, most rows through a
 * cache by their strings' addresses first; the reader decodes the table in
 * place in the inflated text and hands each row out with its entry's
 * strings, so a walk allocates only the table's pointers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_findings_int.h"
#include "pd_buf.h"
#include "pd_dec.h"
#include "pd_error.h"
#include "pd_map.h"

/* The first bytes of every F1 text. */
#define DBF_MAGIC "F1 "

/* Fewest bytes of a table entry ("0\t\t\t\n") and of a row ("0 0 0\n"):
 * the counts of a header are checked against the text before anything is
 * allocated for them. */
#define DBF_ENTRY_MIN 5
#define DBF_ROW_MIN 6

/* ---------------- the reader ---------------- */

/* One entry of the table, its strings decoded in place in the text. */
typedef struct {
    const char *cls, *rule, *text, *reason;   /* reason NULL: none */
    int guarded;
} dbf_entry;

/* The damage message: analysis `id`, where (`what` and its number). */
static int dbf_damaged(int64_t id, const char *what, int64_t i)
{
    return pd_error_set(PD_EDB, "the database is damaged: the findings of analysis %lld "
                        "are not text of format F1 (at %s %lld)", (long long)id, what,
                        (long long)i);
}

/* A number at p as the writer writes one: '-' for a negative, decimal
 * digits without a leading zero, within int64_t.  The byte after it, or
 * NULL for anything else. */
static char *dbf_num(char *p, int64_t *v)
{
    uint64_t x = 0, lim;
    int neg = *p == '-';
    char *s;

    p += neg;
    s = p;
    lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    while (*p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p++ - '0');

        if (x > (lim - d) / 10)
            return NULL;
        x = x * 10 + d;
    }
    if (p == s || (*s == '0' && (p - s > 1 || neg)))
        return NULL;
    *v = neg ? -(int64_t)(x - 1) - 1 : (int64_t)x;
    return p;
}

/*
 * Decode in place the string at p, which ends at the first TAB or LF not
 * escaped: "\\\\", "\\t" and "\\n" become '\\', TAB and LF, every other
 * byte stays as it is.  The string is NUL-terminated where it ends, *sep
 * receives the TAB or LF that ended it; returns the byte after that, or
 * NULL for another escape or when the text ends first.
 */
static char *dbf_str(char *p, char *sep)
{
    char *o;
    size_t run;

    p += strcspn(p, "\\\t\n");
    o = p;
    while (*p == '\\') {
        char c = p[1] == '\\' ? '\\' : p[1] == 't' ? '\t' : p[1] == 'n' ? '\n' : '\0';

        if (!c)
            return NULL;
        *o++ = c;
        p += 2;
        run = strcspn(p, "\\\t\n");
        memmove(o, p, run);
        o += run;
        p += run;
    }
    if (*p != '\t' && *p != '\n')
        return NULL;
    *sep = *p;
    *o = '\0';
    return p + 1;
}

/* The table entry at p into *e: "G\tCLASS\tRULE\tTEXT[\tREASON]\n".  The
 * byte after it, or NULL when it is not one. */
static char *dbf_entry_read(char *p, dbf_entry *e)
{
    const char *s[4] = {NULL, NULL, NULL, NULL};
    char sep = '\t';
    int k;

    if ((*p != '0' && *p != '1') || p[1] != '\t')
        return NULL;
    e->guarded = *p == '1';
    p += 2;
    for (k = 0; k < 4 && sep == '\t'; k++) {
        s[k] = p;
        if (!(p = dbf_str(p, &sep)) || (k < 2 && sep != '\t'))
            return NULL;
    }
    if (sep != '\n')
        return NULL;
    e->cls = s[0];
    e->rule = s[1];
    e->text = s[2];
    e->reason = s[3];
    return p;
}

/* The row at p: "DLINE COLUMN ENTRY[ FUNCTION]\n" into v[0..2], and v[3]
 * with *has_fn = 1 when the function is there.  The byte after it, or
 * NULL. */
static char *dbf_row_read(char *p, int64_t v[4], int *has_fn)
{
    int k;

    for (k = 0; k < 3; k++) {
        if (!(p = dbf_num(p, &v[k])) || (*p != ' ' && (k < 2 || *p != '\n')))
            return NULL;
        p++;
    }
    *has_fn = p[-1] == ' ';
    if (*has_fn && (!(p = dbf_num(p, &v[3])) || *p++ != '\n'))
        return NULL;
    return p;
}

/* The rows after the table through fn: lines undone from their deltas, the
 * function carried from the row before.  0, fn's non-zero return, PD_EDB. */
static int dbf_rows(char *p, const dbf_entry *tab, int64_t ntab, int64_t nrows,
                    int64_t id, int (*fn)(void *arg, const db_finding *f), void *arg)
{
    uint64_t line = 0;
    int64_t i, v[4];
    db_finding f;
    int has_fn, rc;

    f.function = -1;
    for (i = 0; i < nrows; i++) {
        const dbf_entry *e;

        if (!(p = dbf_row_read(p, v, &has_fn)) || v[2] < 0 || v[2] >= ntab)
            return dbf_damaged(id, "row", i);
        e = &tab[v[2]];
        line += (uint64_t)v[0];
        f.line = (int64_t)line;
        f.column = v[1];
        f.cls = e->cls;
        f.rule = e->rule;
        f.text = e->text;
        if (has_fn)
            f.function = v[3];
        f.guarded = e->guarded;
        f.reason = e->reason;
        if ((rc = fn(arg, &f)) != 0)
            return rc;
    }
    return *p ? dbf_damaged(id, "row", nrows) : 0;
}

/* Walk the F1 text `p` (decoded in place) through fn. */
static int dbf_walk(char *p, int64_t id, int (*fn)(void *arg, const db_finding *f), void *arg)
{
    int64_t ntab = -1, nrows = -1, i;
    dbf_entry *tab;
    size_t left;
    int rc;

    if (strncmp(p, DBF_MAGIC, 3) != 0 || !(p = dbf_num(p + 3, &ntab)) || *p++ != ' ' ||
        !(p = dbf_num(p, &nrows)) || *p++ != '\n' || ntab < 0 || nrows < 0)
        return dbf_damaged(id, "line", 1);
    left = strlen(p);
    if ((uint64_t)ntab > left / DBF_ENTRY_MIN || (uint64_t)nrows > left / DBF_ROW_MIN)
        return dbf_damaged(id, "line", 1);
    if (!(tab = malloc((size_t)(ntab ? ntab : 1) * sizeof(*tab))))
        return pd_error_nomem("reading findings");
    for (i = 0; i < ntab; i++)
        if (!(p = dbf_entry_read(p, &tab[i]))) {
            free(tab);
            return dbf_damaged(id, "table entry", i);
        }
    rc = dbf_rows(p, tab, ntab, nrows, id, fn, arg);
    free(tab);
    return rc;
}

int db_findings_each(sqlite3 *db, int64_t analysis_id,
                     int (*fn)(void *arg, const db_finding *f), void *arg)
{
    char *text = NULL;
    int rc;

    /* JSON cannot begin with 'F': any other text is read as it always was. */
    if ((rc = db_analysis_findings_text(db, analysis_id, &text)) == 0)
        rc = text[0] == 'F' ? dbf_walk(text, analysis_id, fn, arg)
                            : db_findings_json_walk(text, analysis_id, fn, arg);
    free(text);
    return rc;
}

/* ---------------- the writer ---------------- */

/* A slot of the writer's cache: the strings of a row as pointers, and the
 * entry they were found to be. */
typedef struct {
    const char *s[4];            /* class, rule, text, reason (NULL: none) */
    int guarded;                 /* 0 or 1; -1: an empty slot */
    uint32_t entry;
} dbw_slot;

/* The distinct entries of the rows being written. */
typedef struct {
    pd_map *map;                 /* an entry's key -> its number + 1 */
    char **key;                  /* the keys of the entries, in order (malloc) */
    size_t *len;                 /* their lengths */
    size_t n, cap;
    dbw_slot *cache;             /* by the pointers of a row's strings */
    size_t mask;                 /* slots of the cache - 1 */
    pd_buf scratch;              /* the key being looked up */
} dbw_table;

/* An empty table for `n` rows (its cache sized for them); 0 or
 * PD_ENOMEM. */
static int dbw_table_init(dbw_table *t, size_t n)
{
    size_t slots = 16, i;

    memset(t, 0, sizeof(*t));
    pd_buf_init(&t->scratch, 0);
    while (slots < 1024 && slots < 2 * n)
        slots *= 2;
    t->mask = slots - 1;
    if (!(t->map = pd_map_new(PD_MAP_SEEDED)))
        return PD_ENOMEM;           /* pd_map_new's message says why */
    if (!(t->cache = malloc(slots * sizeof(*t->cache))))
        return pd_error_nomem("encoding findings");
    for (i = 0; i < slots; i++)
        t->cache[i].guarded = -1;
    return 0;
}

/* Free what t holds; accepts a table whose init failed. */
static void dbw_table_free(dbw_table *t)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        free(t->key[i]);
    free(t->key);
    free(t->len);
    free(t->cache);
    pd_map_free(t->map);
    pd_buf_free(&t->scratch);
}

/*
 * The key of strings s (class, rule, text, reason) and guarded g into
 * t->scratch: '0' or '1', then class, rule and text each ended by a NUL,
 * then the reason and a NUL when there is one (so that no reason and ""
 * differ).  The bytes as they are: the writer turns them into the stored
 * form once per entry.  0 or PD_ENOMEM.
 */
static int dbw_key(dbw_table *t, const char *const s[4], int g)
{
    char c = g ? '1' : '0';
    int k;

    pd_buf_reset(&t->scratch);
    pd_buf_put(&t->scratch, &c, 1);
    for (k = 0; k < 4 && s[k]; k++)
        pd_buf_put(&t->scratch, s[k], strlen(s[k]) + 1);
    return t->scratch.err;
}

/* The entry of strings s and guarded g, found by their bytes or added
 * (the keys are text of the repository, so the map is seeded: no file can
 * make its entries collide).  0 or PD_ENOMEM. */
static int dbw_lookup(dbw_table *t, const char *const s[4], int g, uint32_t *entry)
{
    void *v;
    char *copy;
    uint64_t h;

    if (dbw_key(t, s, g) < 0)
        return PD_ENOMEM;
    if ((v = pd_map_get_hashed(t->map, t->scratch.data, t->scratch.len, &h)) != NULL) {
        *entry = (uint32_t)((uintptr_t)v - 1);
        return 0;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **k = realloc(t->key, cap * sizeof(*k));
        size_t *l = k ? realloc(t->len, cap * sizeof(*l)) : NULL;

        if (k)
            t->key = k;
        if (!k || !l)
            return PD_ENOMEM;
        t->len = l;
        t->cap = cap;
    }
    if (!(copy = malloc(t->scratch.len)))
        return PD_ENOMEM;
    memcpy(copy, t->scratch.data, t->scratch.len);
    if (pd_map_put_hashed(t->map, copy, t->scratch.len, h, (void *)(uintptr_t)(t->n + 1)) < 0) {
        free(copy);
        return PD_ENOMEM;
    }
    t->key[t->n] = copy;
    t->len[t->n] = t->scratch.len;
    *entry = (uint32_t)t->n++;
    return 0;
}

/*
 * The entry of row f into *entry.  Rows whose strings are the same
 * pointers as a row before are the same entry: the analyzer keeps one copy
 * of each text of a file, so most rows are found in the cache by their
 * pointers, without a key built and hashed; the others by their bytes
 * (dbw_lookup), so the text written depends on the bytes only.  0 or
 * PD_ENOMEM.
 */
static int dbw_entry_of(dbw_table *t, const db_finding *f, uint32_t *entry)
{
    const char *s[4] = {f->cls ? f->cls : "", f->rule ? f->rule : "",
                        f->text ? f->text : "", f->reason};
    int g = f->guarded != 0, k;
    uint64_t h = (uint64_t)(uintptr_t)s[2] * 0x9e3779b97f4a7c15ULL ^
                 (uint64_t)(uintptr_t)s[1] * 0xc2b2ae3d27d4eb4fULL ^
                 (uint64_t)(uintptr_t)s[3] * 0x165667b19e3779f9ULL ^ (uint64_t)g;
    dbw_slot *c = &t->cache[(h ^ (h >> 29)) & t->mask];

    if (c->guarded == g && c->s[0] == s[0] && c->s[1] == s[1] && c->s[2] == s[2] &&
        c->s[3] == s[3]) {
        *entry = c->entry;
        return 0;
    }
    if (dbw_lookup(t, s, g, entry) < 0)
        return PD_ENOMEM;
    for (k = 0; k < 4; k++)
        c->s[k] = s[k];
    c->guarded = g;
    c->entry = *entry;
    return 0;
}

/*
 * Write string s (up to its NUL) at o in the stored form, which needs room
 * for 3 bytes a byte: '\\', TAB and LF escaped with a backslash, a byte
 * above 0x7f as U+FFFD (what the JSON format did, so that a reader hands
 * out the same strings as before and the text is valid UTF-8), every other
 * byte as it is.  Returns the end.
 */
static char *dbw_str(char *o, const char *s)
{
    for (;;) {
        size_t run = 0;
        unsigned char c;

        while ((c = (unsigned char)s[run]) != '\0' && c != '\\' && c != '\t' && c != '\n' &&
               c < 0x80)
            run++;
        memcpy(o, s, run);
        o += run;
        s += run;
        if ((c = (unsigned char)*s++) == '\0')
            return o;
        if (c >= 0x80) {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            continue;
        }
        *o++ = '\\';
        *o++ = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
    }
}

/* The table entry of key k (len bytes, as dbw_keys writes it) appended to
 * b.  0 or b->err. */
static int dbw_entry(pd_buf *b, const char *k, size_t len)
{
    const char *end = k + len;
    char *o;

    if (pd_buf_reserve(b, 3 * len + 2) < 0)
        return b->err;
    o = b->data + b->len;
    *o++ = *k++;
    while (k < end) {
        *o++ = '\t';
        o = dbw_str(o, k);
        k += strlen(k) + 1;
    }
    *o++ = '\n';
    b->len = (size_t)(o - b->data);
    b->data[b->len] = '\0';
    return 0;
}

/* Write v in decimal at p (pd_dec.h); returns the end. */
static char *dbw_itoa(char *p, int64_t v)
{
    return p + pd_itoa(p, v);
}

/* The rows appended to b, entries in idx[]: each row's line as the
 * difference from the row before's (modulo 2^64, so any line fits), its
 * function only when not the row before's.  0 or b->err. */
static int dbw_rows(pd_buf *b, const db_finding *rows, size_t n, const uint32_t *idx)
{
    uint64_t line = 0;
    int64_t fn = -1;
    size_t i;

    for (i = 0; i < n; i++) {
        const db_finding *f = &rows[i];
        char *o;

        if (pd_buf_reserve(b, 4 * 21) < 0)
            return b->err;
        o = b->data + b->len;
        o = dbw_itoa(o, (int64_t)((uint64_t)f->line - line));
        *o++ = ' ';
        o = dbw_itoa(o, f->column);
        *o++ = ' ';
        o = dbw_itoa(o, idx[i]);
        if (f->function != fn) {
            *o++ = ' ';
            o = dbw_itoa(o, f->function);
        }
        *o++ = '\n';
        b->len = (size_t)(o - b->data);
        line = (uint64_t)f->line;
        fn = f->function;
    }
    if (b->data)
        b->data[b->len] = '\0';
    return 0;
}

/* The F1 text of the n rows into b.  0, PD_ENOMEM. */
static int dbw_text(pd_buf *b, const db_finding *rows, size_t n)
{
    uint32_t *entry = malloc((n + 1) * sizeof(*entry));
    dbw_table t;
    size_t i;
    int rc = dbw_table_init(&t, n);

    if (!entry || n > UINT32_MAX)
        rc = PD_ENOMEM;
    for (i = 0; i < n && rc == 0; i++)
        rc = dbw_entry_of(&t, &rows[i], &entry[i]);
    if (rc == 0) {
        pd_buf_printf(b, DBF_MAGIC "%zu %zu\n", t.n, n);
        for (i = 0; i < t.n; i++)
            dbw_entry(b, t.key[i], t.len[i]);
        dbw_rows(b, rows, n, entry);
        rc = b->err;
    }
    if (rc < 0)
        rc = pd_error_set(PD_ENOMEM, "out of memory encoding %zu findings", n);
    dbw_table_free(&t);
    free(entry);
    return rc;
}

int db_findings_encode(const db_finding *rows, size_t n, unsigned char **out,
                       size_t *zlen, size_t *len)
{
    pd_buf b;
    int rc;

    *out = NULL;
    *zlen = *len = 0;
    pd_buf_init(&b, 0);
    if ((rc = dbw_text(&b, rows, n)) == 0 && (rc = db_compress(out, zlen, b.data, b.len)) == 0)
        *len = b.len;
    pd_buf_free(&b);
    return rc;
}
