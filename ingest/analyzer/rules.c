/*
 * rules.c: parser and lookup tables of the analyzer's rules file (rules.h).
 *
 * A rules file is a list of one-line directives (see the header comment of
 * ingest/rules/default.rules for the format).  Parsing builds three lookup
 * structures, tuned for the analyzer's hot path, which classifies every
 * identifier of every file version:
 *   - an open-addressing hash table of exact names (rules_name entries),
 *     with a first-bytes filter so most identifiers are rejected at once,
 *     and a filter by hash bits so most others are without a probe;
 *   - a byte trie of prefixes, walked once per identifier for the longest
 *     match;
 *   - a short list of suffixes, filtered by their last byte.
 * All strings live in an append-only arena freed with the rules object.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_buf.h"
#include "pd_error.h"
#include "pd_file.h"
#include "pd_hash.h"
#include "pd_sha1.h"
#include "rules.h"
#include "rules_int.h"

/* Add a prefix to the trie; 0, PD_EINVAL (duplicate, too many) or
 * PD_ENOMEM. */
static int rules_add_prefix(rules *r, const rules_ctx *c, const char *p,
                            rules_verdict v)
{
    size_t n = 0;

    if (r->nnodes == 0) {
        if (!(r->nodes = calloc(64, sizeof(*r->nodes))))
            return pd_error_nomem("loading rules");
        r->capnodes = 64;
        r->nnodes = 1;
        r->nodes[0].v.cls = RULES_CLS_UNSET;
    }
    for (; *p; p++) {
        int sym = rules_sym((unsigned char)*p);
        size_t next = r->nodes[n].child[sym];

        if (!next) {
            if (r->nnodes >= UINT16_MAX)
                return rules_err(c, "too many prefix rules");
            if (r->nnodes == r->capnodes) {
                rules_node *nodes = realloc(r->nodes, r->capnodes * 2 *
                                            sizeof(*nodes));

                if (!nodes)
                    return pd_error_nomem(NULL);
                r->nodes = nodes;
                r->capnodes *= 2;
            }
            next = r->nnodes++;
            memset(&r->nodes[next], 0, sizeof(r->nodes[next]));
            r->nodes[next].v.cls = RULES_CLS_UNSET;
            r->nodes[n].child[sym] = (uint16_t)next;
        }
        n = next;
    }
    if (r->nodes[n].v.cls != RULES_CLS_UNSET)
        return rules_err(c, "duplicate prefix rule");
    r->nodes[n].v = v;
    return 0;
}

/* prefix / suffix PATTERN CLASS */
static int rules_d_affix(rules *r, const rules_ctx *c, char **av, int ac,
                         unsigned suffix)
{
    rules_verdict v;
    int rc;

    if (!rules_is_ident(av[1]))
        return rules_err(c, "'%s' is not an identifier", av[1]);
    if ((rc = rules_class(c, av[2], 0, &v.cls)) != 0)
        return rc;
    v.id = rules_id(r, c, "%s-%s-%s", av[2], av[0], av[1]);
    if (!v.id)
        return pd_error_nomem("loading rules");
    if (!suffix)
        return rules_add_prefix(r, c, av[1], v);
    if (r->nsuffixes % 16 == 0) {
        rules_suffix *s = realloc(r->suffixes, (r->nsuffixes + 16) *
                                  sizeof(*s));

        if (!s)
            return pd_error_nomem("loading rules");
        r->suffixes = s;
    }
    r->suffixes[r->nsuffixes].s = rules_strndup(r, av[1], strlen(av[1]));
    r->suffixes[r->nsuffixes].len = strlen(av[1]);
    r->suffixes[r->nsuffixes].v = v;
    if (!r->suffixes[r->nsuffixes].s)
        return pd_error_nomem("loading rules");
    r->nsuffixes++;
    r->suffix_last[(unsigned char)av[1][strlen(av[1]) - 1]] = 1;
    return 0;
}

/* exact / member NAME CLASS, exact-if NAME CLASS TRIGGER */
static int rules_d_name(rules *r, const rules_ctx *c, char **av, int ac,
                        unsigned arg)
{
    rules_name *e;
    rules_verdict *slot;
    int cls = 0, rc, member = av[0][0] == 'm', cond = ac == 4;

    if (!rules_is_ident(av[1]))
        return rules_err(c, "'%s' is not an identifier", av[1]);
    if ((rc = rules_class(c, av[2], !member && !cond, &cls)) != 0)
        return rc;
    if (cond) {
        if (!rules_is_ident(av[3]))
            return rules_err(c, "'%s' is not an identifier", av[3]);
        if (r->ncond >= 32)
            return rules_err(c, "too many exact-if rules (at most 32)");
        if ((rc = rules_entry(r, av[3], &e)) != 0)
            return rc;
        e->triggers |= 1u << r->ncond;
    }
    if ((rc = rules_entry(r, av[1], &e)) != 0)
        return rc;
    slot = member ? &e->member : cond ? &e->cond : &e->exact;
    if (slot == &e->exact && e->exact_from_set) {
        slot->cls = RULES_CLS_UNSET;    /* an exact rule beats a names set */
        e->exact_from_set = 0;
    }
    if (slot->cls != RULES_CLS_UNSET)
        return rules_err(c, "duplicate %s rule for '%s'", av[0], av[1]);
    slot->cls = cls;
    if (member)
        slot->id = rules_id(r, c, "%s-member-%s", av[2], av[1]);
    else if (cond)
        slot->id = rules_id(r, c, "%s-%s-with-%s", av[2], av[1], av[3]);
    else
        slot->id = rules_id(r, c, "%s-%s", av[2], av[1]);
    if (!slot->id)
        return pd_error_nomem("loading rules");
    if (cond)
        e->cond_bit = 1u << r->ncond++;
    return 0;
}

/* marker NAME, itemcopy FUNCTION, itemsvisit FUNCTION, itemname NAME */
static int rules_d_flag(rules *r, const rules_ctx *c, char **av, int ac,
                        unsigned flag)
{
    rules_name *e;
    int rc;

    if (!rules_is_ident(av[1]))
        return rules_err(c, "'%s' is not an identifier", av[1]);
    if ((rc = rules_entry(r, av[1], &e)) != 0)
        return rc;
    e->flags |= flag;
    return 0;
}

/* guard MACRO ifndef|ifdef */
static int rules_d_guard(rules *r, const rules_ctx *c, char **av, int ac,
                         unsigned arg)
{
    rules_name *e;
    int g, rc;

    if (strcmp(av[2], "ifndef") == 0)
        g = RULES_GUARD_IFNDEF;
    else if (strcmp(av[2], "ifdef") == 0)
        g = RULES_GUARD_IFDEF;
    else
        return rules_err(c, "guard test must be ifndef or ifdef, not '%s'",
                         av[2]);
    if (!rules_is_ident(av[1]))
        return rules_err(c, "'%s' is not an identifier", av[1]);
    if ((rc = rules_entry(r, av[1], &e)) != 0)
        return rc;
    e->guard = g;
    return 0;
}

/* objfunc prefix|suffix|contains TEXT */
static int rules_d_objfunc(rules *r, const rules_ctx *c, char **av, int ac,
                           unsigned arg)
{
    rules_objf *o;
    int kind;

    if (strcmp(av[1], "prefix") == 0)
        kind = OBJF_PREFIX;
    else if (strcmp(av[1], "suffix") == 0)
        kind = OBJF_SUFFIX;
    else if (strcmp(av[1], "contains") == 0)
        kind = OBJF_CONTAINS;
    else
        return rules_err(c, "objfunc match must be prefix, suffix or "
                         "contains, not '%s'", av[1]);
    if (!rules_is_ident(av[2]))
        return rules_err(c, "'%s' is not an identifier", av[2]);
    o = realloc(r->objf, (r->nobjf + 1) * sizeof(*o));
    if (!o)
        return pd_error_nomem("loading rules");
    r->objf = o;
    o[r->nobjf].kind = kind;
    if (!(o[r->nobjf].s = rules_strndup(r, av[2], strlen(av[2]))))
        return pd_error_nomem("loading rules");
    r->nobjf++;
    return 0;
}

/*
 * The directives, one record each: name, argument count range, usage for
 * messages, the parser that stores it and the argument the parser is given (a
 * RULES_F_* flag, or which of two forms).  A new rule kind is a row here,
 * its field or flag in rules_def.h and the analyzer step that reads it.
 */
typedef int (*rules_dfn)(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);

static const struct {
    const char *name;
    int min, max;
    const char *usage;
    rules_dfn parse;
    unsigned arg;
} rules_directives[] = {
    {"prefix", 2, 2, "PREFIX CLASS", rules_d_affix, 0},
    {"suffix", 2, 2, "SUFFIX CLASS", rules_d_affix, 1},
    {"exact", 2, 2, "NAME CLASS", rules_d_name, 0},
    {"member", 2, 2, "NAME CLASS", rules_d_name, 0},
    {"exact-if", 3, 3, "NAME CLASS TRIGGER", rules_d_name, 0},
    {"nullowner", 3, 3, "FUNCTION INDEX NULLNAME", rules_d_nullowner, 0},
    {"itemcast", 2, 6, "CLASS TYPE*", rules_d_item, 1},
    {"itemlocal", 2, 6, "CLASS TYPE[*]", rules_d_item, 0},
    {"itemcopy", 1, 1, "FUNCTION", rules_d_flag, RULES_F_ITEMCOPY},
    {"itemdata", 2, 6, "any|param TYPE*", rules_d_itemdata, 0},
    {"itemsource", 1, 2, "NAME | suffix TEXT", rules_d_itemsource, 0},
    {"itemname", 1, 1, "NAME", rules_d_flag, RULES_F_ITEMNAME},
    {"itemcall", 2, 2, "CLASS FUNCTION", rules_d_itemcall, 0},
    {"fieldarg", 2, 2, "FUNCTION INDEX", rules_d_fieldarg, 0},
    {"itemview", 2, 2, "FUNCTION INDEX", rules_d_fieldarg, 1},
    {"marker", 1, 1, "NAME", rules_d_flag, RULES_F_MARKER},
    {"itemsvisit", 1, 1, "FUNCTION", rules_d_flag, RULES_F_ITEMSVISIT},
    {"objfunc", 2, 2, "prefix|suffix|contains TEXT", rules_d_objfunc, 0},
    {"guard", 2, 2, "MACRO ifndef|ifdef", rules_d_guard, 0},
    {"names", 2, 2, "SET CLASS", rules_d_names, 0},
    {"profile", 2, 9, "object-dtype|scopes|measure|hpy VALUE...", rules_d_profile, 0},
};

/* Run one split line av[0..ac) (av[0] is the directive). */
static int rules_directive(rules *r, const rules_ctx *c, char **av, int ac)
{
    size_t i, n = sizeof(rules_directives) / sizeof(rules_directives[0]);
    const char *d = av[0];

    for (i = 0; i < n && strcmp(rules_directives[i].name, d) != 0; i++)
        ;
    if (i == n)
        return rules_err(c, "unknown directive '%s'", d);
    if (ac - 1 < rules_directives[i].min || ac - 1 > rules_directives[i].max)
        return rules_err(c, "'%s' takes %s, got %d argument%s", d,
                         rules_directives[i].usage, ac - 1,
                         ac == 2 ? "" : "s");
    return rules_directives[i].parse(r, c, av, ac, rules_directives[i].arg);
}

/* Split one line (copied into buf) into words, dropping a '#' comment and
 * taking out an id=ID word into c->id.  Returns the word count or
 * PD_EINVAL. */
static int rules_split(rules_ctx *c, char *buf, char **av)
{
    int ac = 0;
    char *p = buf;

    c->id = NULL;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p || *p == '#')
            break;
        if (ac == RULES_MAXARGS)
            return rules_err(c, "too many words (at most %d)",
                             RULES_MAXARGS);
        av[ac] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        if (*p)
            *p++ = '\0';
        if (ac > 0 && strncmp(av[ac], "id=", 3) == 0) {
            c->id = av[ac] + 3;
            if (!*c->id)
                return rules_err(c, "empty id=");
            continue;
        }
        ac++;
    }
    if (ac == 0 && c->id)
        return rules_err(c, "id= without a directive");
    return ac;
}

/* A directive's words (and its id=) as one line of the canonical text
 * (rules_parse). */
static void rules_canon_line(pd_buf *canon, const rules_ctx *c, char *const *av, int ac)
{
    int i;

    for (i = 0; i < ac; i++)
        pd_buf_printf(canon, "%s%s", i ? " " : "", av[i]);
    if (c->id)
        pd_buf_printf(canon, " id=%s", c->id);
    pd_buf_puts(canon, "\n");
}

/* Parse every line of text[0..len) into r, its canonical text into canon. */
static int rules_parse_lines(rules *r, rules_ctx *c, const char *text,
                             size_t len, pd_buf *canon)
{
    const char *p = text, *end = text + len, *nl;
    char buf[RULES_MAXLINE], *av[RULES_MAXARGS];
    int ac, rc;

    for (c->line = 1; p < end; c->line++, p = nl + 1) {
        nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        if ((size_t)(nl - p) >= sizeof(buf))
            return rules_err(c, "line too long");
        if (memchr(p, '\0', (size_t)(nl - p)))
            return rules_err(c, "NUL byte in line");
        memcpy(buf, p, (size_t)(nl - p));
        buf[nl - p] = '\0';
        if ((ac = rules_split(c, buf, av)) < 0)
            return ac;
        if (ac > 0)
            rules_canon_line(canon, c, av, ac);
        if (ac > 0 && (rc = rules_directive(r, c, av, ac)) != 0)
            return rc;
    }
    return 0;
}

int rules_parse(rules **out, const char *name, const char *text, size_t len)
{
    rules_ctx c = {name ? name : "rules", 0, NULL};
    pd_buf canon;
    const char *nl;
    rules *r;
    int rc;

    *out = NULL;
    if (!(r = calloc(1, sizeof(*r))))
        return pd_error_nomem("loading rules");
    r->prof_object_dtype = -1;
    for (nl = text; nl < text + len && (nl = memchr(nl, '\n', (size_t)(text + len - nl))); nl++)
        r->text_lines++;
    /* What the rules hash is taken over (rules_hash): the directives, one
     * a line, their words one blank apart, without comments or blank
     * lines, so that a comment or a layout change does not make every
     * analysis stale (a full re-analysis and a second copy of every
     * analysis in the database). */
    pd_buf_init(&canon, 0);
    if ((rc = rules_parse_lines(r, &c, text, len, &canon)) != 0)
        goto fail;
    if (canon.err || !(r->text = pd_buf_take(&canon, &r->text_len)) ||
        !(r->raw = malloc(len ? len : 1))) {
        rc = pd_error_nomem("loading rules");
        goto fail;
    }
    memcpy(r->raw, text, len);
    r->raw_len = len;
    *out = r;
    return 0;
fail:
    pd_buf_free(&canon);
    rules_free(r);
    return rc;
}

int rules_load(rules **out, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = pd_file_read(path, 0, "rules file", &text, &len)) < 0)
        return rc;
    rc = rules_parse(out, path, text, len);
    free(text);
    return rc;
}

int rules_load_default(rules **out)
{
    return rules_parse(out, "default.rules", rules_default_text,
                       (size_t)rules_default_text_len);
}

static rules *rules_shared;
static pthread_once_t rules_shared_once = PTHREAD_ONCE_INIT;

static void rules_shared_load(void)
{
    if (rules_load_default(&rules_shared) < 0)
        rules_shared = NULL;
}

const rules *rules_default(void)
{
    pthread_once(&rules_shared_once, rules_shared_load);
    return rules_shared;
}

void rules_free(rules *r)
{
    rules_block *b, *next;

    if (!r)
        return;
    for (b = r->arena; b; b = next) {
        next = b->next;
        free(b);
    }
    free(r->names);
    free(r->ix);
    free(r->nodes);
    free(r->suffixes);
    free(r->objf);
    free(r->srcsuf);
    free(r->sets);
    free(r->text);
    free(r->raw);
    free(r);
}

static pthread_mutex_t rules_hash_mu = PTHREAD_MUTEX_INITIALIZER;

const char *rules_hash(const rules *r)
{
    /* git's blob id of the text and its sets, by pd_sha1 (libgit2's
     * initialisation would load the CA certificates), once, on demand;
     * the rules object is otherwise read-only and shared by threads. */
    rules *w = (rules *)r;

    if (__atomic_load_n(&r->hash_done, __ATOMIC_ACQUIRE))
        return r->hash;
    pthread_mutex_lock(&rules_hash_mu);
    if (!w->hash_done) {
        pd_sha1_blob_hex(w->hash, w->text, w->text_len, w->sets, w->sets_len);
        __atomic_store_n(&w->hash_done, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&rules_hash_mu);
    return r->hash;
}

void rules_hash_raw(const rules *r, char out[41])
{
    pd_sha1_blob_hex(out, r->raw, r->raw_len, r->sets, r->sets_len);
}

int rules_ncond(const rules *r)
{
    return r->ncond;
}

/* Longest prefix or suffix rule matching s[0..len); cls UNSET if none. */
static rules_verdict rules_affix(const rules *r, const char *s, size_t len)
{
    rules_verdict best = {RULES_CLS_UNSET, NULL};
    size_t i, n = 0, bestlen = 0;

    if (r->nnodes) {
        for (i = 0; i < len; i++) {
            int sym = rules_sym((unsigned char)s[i]);

            if (sym < 0 || (n = r->nodes[n].child[sym]) == 0)
                break;
            if (r->nodes[n].v.cls != RULES_CLS_UNSET) {
                best = r->nodes[n].v;
                bestlen = i + 1;
            }
        }
    }
    if (r->nsuffixes && r->suffix_last[(unsigned char)s[len - 1]]) {
        for (i = 0; i < r->nsuffixes; i++) {
            const rules_suffix *x = &r->suffixes[i];

            if (x->len <= len && x->len >= bestlen &&
                memcmp(s + len - x->len, x->s, x->len) == 0) {
                best = x->v;
                bestlen = x->len;
            }
        }
    }
    return best;
}

const rules_name *rules_classify(const rules *r, const char *s, size_t len,
                                 rules_verdict *v)
{
    const rules_name *e = len ? rules_find(r, s, len) : NULL;

    if (e && e->exact.cls != RULES_CLS_UNSET) {
        *v = e->exact;
        if (v->cls == RULES_CLS_NONE)
            v->cls = RULES_CLS_UNSET;
        return e;
    }
    if (len)
        *v = rules_affix(r, s, len);
    else
        v->cls = RULES_CLS_UNSET;
    return e;
}

int rules_itemsource(const rules *r, const char *s, size_t len,
                     const rules_name *e)
{
    size_t i, m;

    if (e && (e->flags & RULES_F_ITEMSOURCE))
        return 1;
    for (i = 0; i < r->nsrcsuf; i++) {
        m = strlen(r->srcsuf[i]);
        if (m <= len && memcmp(s + len - m, r->srcsuf[i], m) == 0)
            return 1;
    }
    return 0;
}

int rules_objfunc(const rules *r, const char *name)
{
    size_t i, n = strlen(name), m;

    for (i = 0; i < r->nobjf; i++) {
        const char *s = r->objf[i].s;

        m = strlen(s);
        if (m > n)
            continue;
        if ((r->objf[i].kind == OBJF_PREFIX && memcmp(name, s, m) == 0) ||
            (r->objf[i].kind == OBJF_SUFFIX &&
             memcmp(name + n - m, s, m) == 0) ||
            (r->objf[i].kind == OBJF_CONTAINS && strstr(name, s)))
            return 1;
    }
    return 0;
}
