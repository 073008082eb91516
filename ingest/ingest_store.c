/*
 * ingest_store.c: analyzer results and git commits as the rows of
 * db_ingest.h (see ingest_store.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_findings.h"
#include "db_fns.h"
#include "db_scope.h"
#include "ingest_store.h"
#include "ingest_why.h"
#include "pd_flow.h"
#include "pd_buf.h"
#include "pd_error.h"

/* The facts the measures are derived from (pd_domain.h): the file's and,
 * into fn (res->nfunctions of them), each function's, with the unguarded
 * findings counted where they lie. */
static void ingest_store_facts(const an_result *res, pd_file_facts *file, pd_fn_facts *fn)
{
    size_t i;
    int k;

    memset(file, 0, sizeof(*file));
    for (k = 0; k < AN_CLASS_COUNT; k++)
        file->tok[k] = res->tokens[k];
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];

        memset(&fn[i], 0, sizeof(fn[i]));
        fn[i].status = f->status;
        fn[i].object = f->object_state;
        for (k = 0; k < AN_CLASS_COUNT; k++)
            fn[i].tok[k] = f->tokens[k];
    }
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *x = &res->findings[i];

        if (x->guarded)
            continue;
        file->ung[x->cls]++;
        if (x->function >= 0 && (size_t)x->function < res->nfunctions)
            fn[x->function].ung[x->cls]++;
    }
}

/* The findings of `res` as the stored column, into e->findings_z and the
 * row's findings fields. */
static int ingest_enc_findings(ingest_enc *e, const an_result *res)
{
    db_finding *rows = malloc((res->nfindings ? res->nfindings : 1) * sizeof(*rows));
    size_t i;
    int rc;

    if (!rows)
        return PD_ENOMEM;
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        rows[i].line = f->line;
        rows[i].column = f->column;
        rows[i].cls = an_class_name(f->cls);
        rows[i].rule = f->rule;
        rows[i].text = f->text;
        rows[i].function = f->function;
        rows[i].guarded = f->guarded ? 1 : 0;
        rows[i].reason = f->reason;
    }
    rc = db_findings_encode(rows, res->nfindings, &e->findings_z,
                            &e->row.findings_zlen, &e->row.findings_len);
    e->row.findings_z = e->findings_z;
    free(rows);
    return rc;
}

/*
 * The calls of every function (an_function.calls) as one text, a line per
 * function in index order, compressed into e->calls_z; none when no
 * function calls anything.
 */
static int ingest_enc_calls(ingest_enc *e, const an_result *res)
{
    pd_buf b;
    size_t i;
    int any = 0, rc = 0;

    pd_buf_init(&b, 0);
    for (i = 0; i < res->nfunctions; i++) {
        const char *c = res->functions[i].calls ? res->functions[i].calls : "";

        any |= c[0] != '\0';
        pd_buf_puts(&b, c);
        pd_buf_put(&b, "\n", 1);
    }
    if (b.err)
        rc = PD_ENOMEM;
    else if (any && (rc = db_compress(&e->calls_z, &e->row.calls_zlen, b.data, b.len)) == 0)
        e->row.calls_len = b.len;
    e->row.calls_z = e->calls_z;
    pd_buf_free(&b);
    return rc;
}

/*
 * The flow facts of every function, one line per function in index order
 * (pd_flow.h, "Stored form"), compressed into e->flow_z, and the
 * functions' own bits and lines, made in the same pass (e->flow_fns, what a
 * reader of stored call-graph results needs: db_flow.c); none when the
 * file has no function.
 */
static int ingest_enc_flow(ingest_enc *e, const an_result *res)
{
    pd_flow_fn *v = NULL;
    pd_buf b, fns;
    int rc;

    e->flow_hash = pd_flow_facts_hash(NULL);
    if (!res->nfunctions)
        return 0;
    if ((rc = an_flow_fns(res, &v)) < 0)
        return rc;
    pd_buf_init(&b, 0);
    pd_buf_init(&fns, 0);
    rc = pd_flow_encode_file(v, res->nfunctions, &b, &fns, &e->flow_hash);
    free(v);
    if (rc == 0 && (rc = db_compress(&e->flow_z, &e->row.flow_zlen, b.data, b.len)) == 0)
        e->row.flow_len = b.len;
    e->row.flow_z = e->flow_z;
    if (rc == 0 && !(e->row.flow_fns = e->flow_fns = pd_buf_take(&fns, NULL)))
        rc = PD_ENOMEM;
    if (rc == 0 && !(e->flow = pd_buf_take(&b, NULL)))
        rc = PD_ENOMEM;
    if (rc != 0)
        e->flow_hash = pd_flow_facts_hash(NULL);
    pd_buf_free(&b);
    pd_buf_free(&fns);
    return rc;
}

/* The functions' text (db_fns.h), compressed into e->fns_z; the rows are
 * then dropped: an encoding waiting for the writer holds only the
 * compressed text. */
static int ingest_enc_fns(ingest_enc *e)
{
    pd_buf b;
    int rc = 0;

    if (e->nfn) {
        pd_buf_init(&b, 0);
        db_fns_text(&b, e->fn, e->nfn);
        if (b.err)
            rc = PD_ENOMEM;
        else if ((rc = db_compress(&e->fns_z, &e->row.fns_zlen, b.data, b.len)) == 0)
            e->row.fns_len = b.len;
        e->row.fns_z = e->fns_z;
        pd_buf_free(&b);
    }
    free(e->fn);
    free(e->names);
    free(e->whys);
    e->fn = NULL;
    e->names = NULL;
    e->whys = NULL;
    e->nfn = 0;
    return rc;
}

void ingest_enc_free(ingest_enc *e)
{
    if (!e)
        return;
    free(e->notes);
    free(e->hpy_types);
    free(e->findings_z);
    free(e->calls_z);
    free(e->flow_z);
    free(e->flow_fns);
    free(e->fns_z);
    free(e->flow);
    free(e->fn);
    free(e->names);
    free(e->whys);
    free(e);
}

/* One function row of `f` into *row, its names copied into `names` at
 * *off, its why appended to `whys` (the row points into it later). */
static int ingest_enc_function(db_function_row *row, char *names, size_t *off,
                               pd_buf *whys, const an_result *res, const an_function *f)
{
    size_t n = strlen(f->name) + 1, w0 = whys->len;
    pd_why w;

    memcpy(names + *off, f->name, n);
    row->name = names + *off;
    row->name_len = n - 1;
    *off += n;
    row->start_line = f->start_line;
    row->end_line = f->end_line;
    row->status = an_status_name(f->status);
    row->object_state = f->object_state != AN_OBJ_NONE ? an_objstate_name(f->object_state)
                                                        : NULL;
    memcpy(row->tokens, f->tokens, sizeof(row->tokens));
    if (f->name_from_macro) {
        n = strlen(f->name_from_macro) + 1;
        memcpy(names + *off, f->name_from_macro, n);
        row->name_from_macro = names + *off;
        *off += n;
    }
    an_why_of(res, f, &w);
    if (ingest_why_put(whys, &w) < 0)
        return PD_ENOMEM;
    row->why_len = whys->len - w0 - 1;
    return 0;
}

/* Copy the function rows of `res` into e->fn, names into one block and
 * whys into another (one allocation each, not one per function). */
static int ingest_enc_functions(ingest_enc *e, const an_result *res)
{
    size_t i, total = 0, off = 0, w = 0;
    pd_buf whys;

    for (i = 0; i < res->nfunctions; i++)
        total += strlen(res->functions[i].name) + 1 +
                 (res->functions[i].name_from_macro ?
                  strlen(res->functions[i].name_from_macro) + 1 : 0);
    e->nfn = res->nfunctions;
    if (e->nfn && (!(e->fn = calloc(e->nfn, sizeof(*e->fn))) ||
                   !(e->names = malloc(total))))
        return PD_ENOMEM;
    pd_buf_init(&whys, 0);
    pd_buf_reserve(&whys, 16 * e->nfn + 1);    /* the all-null why and its NUL */
    for (i = 0; i < res->nfunctions; i++)
        if (ingest_enc_function(&e->fn[i], e->names, &off, &whys, res,
                                &res->functions[i]) < 0) {
            pd_buf_free(&whys);
            return PD_ENOMEM;
        }
    if (!(e->whys = pd_buf_take(&whys, NULL)))
        return PD_ENOMEM;
    for (i = 0; i < e->nfn; w += e->fn[i++].why_len + 1)
        e->fn[i].why = e->whys + w;
    return 0;
}

int ingest_store_counts_of(db_counts *out, const an_result *res)
{
    pd_fn_facts *fn = malloc((res->nfunctions ? res->nfunctions : 1) * sizeof(*fn));
    pd_file_facts file;

    if (!fn)
        return pd_error_nomem(NULL);
    ingest_store_facts(res, &file, fn);
    pd_counts_of_file(out, &file, fn, res->nfunctions);
    free(fn);
    return 0;
}

/*
 * The figures of the no-object scope (db_scope.h) when the file has
 * object-dtype paths, from the rows as they will be stored: what
 * db_scope_detail_read would read back of them after the insert.
 */
static int ingest_enc_noobject(ingest_enc *e, const pd_file_facts *file)
{
    db_scope_detail d;
    size_t i;
    int rc, k;

    if (e->row.counts.obj[0] + e->row.counts.obj[1] + e->row.counts.obj[2] == 0)
        return 0;
    memset(&d, 0, sizeof(d));
    d.file = *file;
    d.nfn = e->nfn;
    if (!(d.fn = calloc(e->nfn ? e->nfn : 1, sizeof(*d.fn))))
        return PD_ENOMEM;
    for (i = 0; i < e->nfn; i++) {
        const db_function_row *r = &e->fn[i];

        d.fn[i].status = db_scope_status_index(r->status);
        d.fn[i].is_object = r->object_state != NULL;
        d.fn[i].object = r->object_state ? pd_objstate_parse(r->object_state) : PD_OBJ_NONE;
        for (k = 0; k < PD_CLASS_COUNT; k++) {
            d.fn[i].tok[k] = r->tokens[k];
            d.fn[i].ung[k] = r->ung[k];
        }
    }
    rc = db_scope_detail_counts(&d, 1, &e->noobject_counts, &e->noobject_status);
    free(d.fn);
    e->noobject = rc == 0;
    return rc < 0 ? PD_ENOMEM : 0;
}

/* The measures of `res` into the row's counts, unguarded findings into its
 * ung and e->fn[].ung (after ingest_enc_functions), and the no-object
 * figures. */
static int ingest_enc_measures(ingest_enc *e, const an_result *res)
{
    pd_fn_facts *fn = malloc((res->nfunctions ? res->nfunctions : 1) * sizeof(*fn));
    pd_file_facts file;
    size_t i;
    int k;

    if (!fn)
        return PD_ENOMEM;
    ingest_store_facts(res, &file, fn);
    pd_counts_of_file(&e->row.counts, &file, fn, res->nfunctions);
    memcpy(e->row.ung, file.ung, sizeof(e->row.ung));
    for (i = 0; i < e->nfn; i++)
        for (k = 0; k < AN_CLASS_COUNT; k++)
            e->fn[i].ung[k] = (uint32_t)fn[i].ung[k];
    free(fn);
    return ingest_enc_noobject(e, &file);
}

int ingest_enc_new(ingest_enc **out, const an_result *res, size_t size)
{
    ingest_enc *e = calloc(1, sizeof(*e));
    int rc = PD_ENOMEM;

    *out = NULL;
    if (!e)
        goto done;
    e->row.size = size;
    e->row.lines = res->lines;
    e->row.status = an_status_name(res->status);
    if ((res->notes && !(e->notes = strdup(res->notes))) ||
        (res->hpy_types && !(e->hpy_types = strdup(res->hpy_types))))
        goto done;
    e->row.notes = e->notes;
    e->row.hpy_types = e->hpy_types;
    if ((rc = ingest_enc_functions(e, res)) < 0 || (rc = ingest_enc_measures(e, res)) < 0 ||
        (rc = ingest_enc_findings(e, res)) < 0 || (rc = ingest_enc_calls(e, res)) < 0 ||
        (rc = ingest_enc_flow(e, res)) < 0 || (rc = ingest_enc_fns(e)) < 0)
        goto done;
    *out = e;
    e = NULL;
    rc = 0;
done:
    ingest_enc_free(e);
    if (rc == PD_ENOMEM)
        pd_error_set(rc, "out of memory encoding an analysis");
    return rc;
}

int ingest_store_analysis_insert(db_ingest *s, int64_t *id_out,
                                 db_counts *c, const char *blob_oid,
                                 const char *rules_hash, size_t size,
                                 const an_result *res)
{
    ingest_enc *e = NULL;
    int rc;

    if ((rc = ingest_enc_new(&e, res, size)) < 0)
        return rc;
    *c = e->row.counts;
    rc = db_ingest_analysis_put(s, id_out, blob_oid, rules_hash, &e->row);
    ingest_enc_free(e);
    return rc;
}

int ingest_store_commit_find(db_ingest *s, int64_t *id_out, int *has_stats,
                             int64_t repo_id, const git_oid *oid,
                             const char *rules_hash)
{
    char hex[GIT_OID_HEXSZ + 1];

    git_oid_tostr(hex, sizeof(hex), oid);
    return db_ingest_commit_find(s, id_out, has_stats, repo_id, hex, rules_hash);
}

typedef struct {
    git_oid *v;
    size_t n, cap;
} ingest_oids;

/* db_ingest_analysed_each callback: collect one blob id. */
static int ingest_store_analysed_one(void *arg, const char *hex)
{
    ingest_oids *o = arg;

    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        git_oid *p = realloc(o->v, cap * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        o->v = p;
        o->cap = cap;
    }
    if (hex && git_oid_fromstr(&o->v[o->n], hex) == 0)
        o->n++;
    return 0;
}

int ingest_store_analysed_blobs(db_ingest *s, const char *rules_hash,
                                git_oid **out, size_t *n)
{
    ingest_oids o = {0};
    int rc;

    *out = NULL;
    *n = 0;
    if ((rc = db_ingest_analysed_each(s, rules_hash, ingest_store_analysed_one, &o)) < 0) {
        free(o.v);
        return rc;
    }
    *out = o.v;
    *n = o.n;
    return 0;
}
