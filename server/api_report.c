/*
 * api_report.c: GET .../snapshots/{week}/report.md: the Markdown report the
 * team reads at its weekly dev call: what changed since the previous
 * snapshot of each ref.  Repository text (paths, names, messages, authors)
 * is escaped (pd_escape.h), so a commit message or a path cannot inject
 * Markdown or HTML into the places where the report is rendered, nor hide
 * or reorder what it says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_diff.h"
#include "api_forecast.h"
#include "api_report.h"
#include "api_snapshot.h"
#include "db.h"
#include "db_history.h"
#include "db_repo.h"
#include "db_snapshot.h"
#include "pd_error.h"
#include "pd_escape.h"
#include "pd_time.h"

#define API_REPORT_MAX_ITEMS 40

/* Repository text as Markdown: inline text, or a code span (a list item
 * here, never a table cell).  pd_escape.h: line breaks and bidirectional
 * controls shown as <U+XXXX>, so a path holding CR cannot start a line of
 * its own (issue 27: a heading and a link were injected that way). */
static void md_text(FILE *f, const char *s)
{
    pd_esc_md_text(f, s);
}

static void md_code(FILE *f, const char *s)
{
    pd_esc_md_code(f, s, 0);
}

/* One row of the headline table. */
static void md_row(FILE *f, const char *label, int64_t before, int64_t now, int have_prev)
{
    if (have_prev)
        fprintf(f, "| %s | %lld | %lld | %+lld |\n", label, (long long)before,
                (long long)now, (long long)(now - before));
    else
        fprintf(f, "| %s | | %lld | |\n", label, (long long)now);
}

static void md_headline(FILE *f, const db_counts *p, const db_counts *c, int have, int obj)
{
    fputs("| measure | previous | now | change |\n|---|---:|---:|---:|\n", f);
    if (obj) {
        md_row(f, "object-dtype paths on the legacy API", p->obj[0], c->obj[0], have);
        md_row(f, "object-dtype paths on HPyField, CPython only", p->obj[1], c->obj[1], have);
        md_row(f, "object-dtype paths on HPyField, universal", p->obj[2], c->obj[2], have);
    }
    md_row(f, "functions ported", p->fn[0], c->fn[0], have);
    md_row(f, "functions bridged", p->fn[1], c->fn[1], have);
    md_row(f, "functions legacy", p->fn[2], c->fn[2], have);
    md_row(f, "universal-ready files", p->universal_ready_files, c->universal_ready_files,
           have);
    md_row(f, "files", p->files, c->files, have);
    md_row(f, "CPython C API uses", p->tok[1], c->tok[1], have);
    fputc('\n', f);
}

/* 1 if function change `fn` carries tag `tag`. */
static int md_has_tag(json_t *fn, const char *tag)
{
    json_t *t;
    size_t i;

    json_array_foreach(json_object_get(fn, "changes"), i, t)
        if (strcmp(json_string_value(t), tag) == 0)
            return 1;
    return 0;
}

static const char *md_side(json_t *fn, const char *side, const char *key)
{
    json_t *v = json_object_get(json_object_get(fn, side), key);

    return json_is_string(v) ? json_string_value(v) : "none";
}

/* A section listing the function changes with `tag` (NULL: regressions). */
static void md_functions(FILE *f, const char *title, json_t *fns, const char *tag,
                         const char *key)
{
    json_t *fn;
    size_t i, n = 0, shown = 0;

    json_array_foreach(fns, i, fn)
        n += tag ? md_has_tag(fn, tag) : 1;
    fprintf(f, "### %s (%zu)\n\n", title, n);
    if (n == 0)
        fputs("None.\n\n", f);
    json_array_foreach(fns, i, fn) {
        if ((tag && !md_has_tag(fn, tag)) || shown++ >= API_REPORT_MAX_ITEMS)
            continue;
        fputs("- ", f);
        md_code(f, json_string_value(json_object_get(fn, "name")));
        fputs(" in ", f);
        md_code(f, json_string_value(json_object_get(fn, "path")));
        fprintf(f, ": %s → %s\n", md_side(fn, "from", key), md_side(fn, "to", key));
    }
    if (shown > API_REPORT_MAX_ITEMS)
        fprintf(f, "- … and %zu more (see the compare page)\n", shown - API_REPORT_MAX_ITEMS);
    if (n)
        fputc('\n', f);
}

/* Files whose universal readiness changed, in one direction. */
static void md_files(FILE *f, const char *title, json_t *files, int became)
{
    json_t *x;
    size_t i, n = 0;

    fprintf(f, "### %s\n\n", title);
    json_array_foreach(files, i, x) {
        int from = json_is_true(json_object_get(json_object_get(x, "from"),
                                                "universal_ready"));
        int to = json_is_true(json_object_get(json_object_get(x, "to"), "universal_ready"));

        if (from == to || to != became)
            continue;
        fputs("- ", f);
        md_code(f, json_string_value(json_object_get(x, "path")));
        fputc('\n', f);
        n++;
    }
    fputs(n ? "\n" : "None.\n\n", f);
}

/* Where the author lines go, and whether there was any. */
typedef struct {
    FILE *f;
    int any;
} md_authors;

/* db_contributors callback: one author line. */
static int md_author(void *arg, const char *author, int64_t commits)
{
    md_authors *a = arg;

    fputs("- ", a->f);
    md_text(a->f, author);
    fprintf(a->f, ": %lld commit%s\n", (long long)commits, commits == 1 ? "" : "s");
    a->any = 1;
    return 0;
}

/* Authors of the commits in `cur`'s chain that are not in `prev`'s.
 * 0 or PD_EDB. */
static int md_contributors(FILE *f, srv_req *r, int64_t cur, int64_t prev)
{
    md_authors a = {f, 0};
    int rc;

    fputs("### Contributors\n\n", f);
    if ((rc = db_contributors(r->db, cur, prev, 20, md_author, &a)) < 0)
        return rc;
    fputs(a.any ? "\n" : "No new commits.\n\n", f);
    return 0;
}

/* The P50 / P85 range from the port's weekly throughput minus inflow. */
static void md_forecast_range(FILE *f, json_t *rg)
{
    const char *p50 = json_string_value(json_object_get(rg, "p50"));
    const char *p85 = json_string_value(json_object_get(rg, "p85"));

    fprintf(f, "Range as of %s, from the port's last %lld weeks (%.1f object-legacy paths "
            "removed and %.1f added a week, %lld left): ",
            json_string_value(json_object_get(rg, "as_of")),
            (long long)json_integer_value(json_object_get(rg, "window_weeks")),
            json_real_value(json_object_get(rg, "throughput_per_week")),
            json_real_value(json_object_get(rg, "inflow_per_week")),
            (long long)json_integer_value(json_object_get(rg, "remaining")));
    if (p50)
        fprintf(f, "P50 %s, P85 %s.\n\n", p50, p85 ? p85 : "not at this rate");
    else
        fprintf(f, "%s.\n\n", json_string_value(json_object_get(rg, "note")));
}

/* The pace of object-legacy paths and when they would reach zero, as of
 * the end of the report's week (the present of the report, issue 23.2). */
static void md_forecast(FILE *f, srv_req *r, int64_t repo_id, const char *ref,
                        const char *week)
{
    int64_t today = 0;
    json_t *fc, *p, *rg;

    /* the week's last second: its end (db_iso_week_end) is the next
     * Monday, which the forecast counted as a day and a week more */
    if (db_iso_week_end(week, &today) == 0)
        today -= 1;
    fc = api_forecast_json(r, repo_id, ref, "object_paths.object-legacy", 12, week, today);
    p = json_object_get(fc, "projection");
    rg = json_object_get(fc, "range");
    fputs("### Forecast\n\n", f);
    if (!fc)
        return;
    if (json_integer_value(json_object_get(fc, "largest_gap_weeks")) > 1)
        fprintf(f, "The snapshots it is fitted on have a gap of %lld weeks; the fit counts "
                "it in calendar time, not as one week.\n\n",
                (long long)json_integer_value(json_object_get(fc, "largest_gap_weeks")));
    if (json_is_object(p))
        fprintf(f, "At the pace since %s (%.1f object-legacy paths a week), they would "
                "reach zero around %s (between %s and %s).\n\n",
                json_string_value(json_object_get(fc, "window_start")),
                -json_real_value(json_object_get(fc, "slope_per_week")),
                json_string_value(json_object_get(p, "zero_on")),
                json_string_value(json_object_get(p, "earliest")),
                json_string_value(json_object_get(p, "latest")));
    else
        fprintf(f, "No projection: %s.\n\n", json_string_value(json_object_get(fc, "note")));
    if (json_is_object(rg))
        md_forecast_range(f, rg);
    json_decref(fc);
}

/* The gap since the previous snapshot, when it is more than a week: what
 * the report compares spans all of it (issue 11.9). */
static void md_gap(FILE *f, const char *prev_week, const char *week)
{
    int64_t a = 0, b = 0;
    long long w;

    if (db_iso_week_end(prev_week, &a) < 0 || db_iso_week_end(week, &b) < 0)
        return;
    w = (long long)((b - a) / (7 * 86400));
    if (w > 1)
        fprintf(f, "%lld weeks before this one (no snapshot in between: the changes below "
                "span all %lld weeks), ", w, w);
}

/* db_commit_brief_of callback: the commit line. */
static int md_commit_line(void *arg, const db_commit_brief *c)
{
    FILE *f = arg;
    char when[40];

    pd_iso8601(when, sizeof(when), c->author_time, c->author_offset);
    fprintf(f, "commit %.10s, ", c->oid);
    md_text(f, c->summary);
    fputs(" (", f);
    md_text(f, c->author_name);
    fprintf(f, ", %.10s)", when);
    return 0;
}

/* The commit line of a snapshot: short id, subject, author date.  0 or
 * PD_EDB. */
static int md_commit(FILE *f, srv_req *r, int64_t commit_id)
{
    return db_commit_brief_of(r->db, commit_id, md_commit_line, f);
}

/* What moved between the previous snapshot and this one; obj: the
 * object-dtype sections too (md_object_dtype). */
static int md_changes(FILE *f, srv_req *r, const api_at *prev, const api_at *cur, int obj)
{
    json_t *files = json_array(), *fns = json_array(), *regs = json_array();
    int rc = api_compare_commits(r, prev, cur, files, fns, regs);

    if (rc == 0) {
        md_functions(f, "Regressions", regs, NULL, "status");
        if (obj) {
            md_functions(f, "Object-dtype paths converted", fns, "converted", "object_state");
            md_functions(f, "New object-dtype paths", fns, "introduced", "object_state");
            /* What left the object paths, removed functions included: with
             * the two above, every object-dtype move of the week. */
            md_functions(f, "No longer object-dtype paths", fns, "object-dropped",
                         "object_state");
        }
        md_functions(f, "Functions ported or bridged", fns, "progressed", "status");
        md_files(f, "Files that became universal-ready", files, 1);
        md_files(f, "Files no longer universal-ready", files, 0);
    }
    json_decref(files);
    json_decref(fns);
    json_decref(regs);
    return rc;
}

/* How the snapshot was taken, in words ("snapshot made by live" read
 * as a name): db_snapshot.c's methods, "live" from `portdash snapshot`
 * and the backfills by author or committer date; NULL for another. */
static const char *md_method(const char *m)
{
    if (strcmp(m, "live") == 0)
        return "snapshot of the ref's tip when it was taken";
    if (strcmp(m, "backfill-author-date") == 0)
        return "snapshot backfilled: the week's last commit by author date";
    if (strcmp(m, "backfill-committer-date") == 0)
        return "snapshot backfilled: the week's last commit by committer date";
    return NULL;
}

/*
 * Whether the report speaks of object dtype: the port's profile (its rules'
 * `profile object-dtype`, doc/guide.md), or under "auto" (or none stored)
 * whether either snapshot has an object path.  A port without object dtype
 * (kiwi, ultrajson) gets no object rows, sections or forecast: their zeros
 * would read as work done, as the dashboard says (a trial found them).
 */
static int md_object_dtype(srv_req *r, int64_t repo_id, const db_counts *p,
                           const db_counts *c)
{
    char text[4096];
    json_t *prof, *v;
    int k, any = 0, say = -1;

    if (db_repo_profile(r->db, repo_id, text, sizeof(text)) == 0 && text[0] &&
        (prof = json_loads(text, 0, NULL)) != NULL) {
        v = json_object_get(prof, "object_dtype");
        say = json_is_true(v) ? 1 : json_is_false(v) ? 0 : -1;
        json_decref(prof);
    }
    for (k = 0; k < 3; k++)
        any |= p->obj[k] != 0 || c->obj[k] != 0;
    return say >= 0 ? say : any;
}

/* The section of one ref: `cur` is this week's snapshot of it. */
static int md_ref(FILE *f, srv_req *r, int64_t repo_id, const char *rules_hash,
                  const db_snap_row *cur)
{
    db_snaps *ps = NULL;
    db_snap_row prev;
    pd_counts none;
    api_at a = {0}, b = {0};
    int have, rc, obj;

    memset(&none, 0, sizeof(none));
    if ((rc = db_snaps_open_prev(r->db, &ps, repo_id, cur->ref, cur->week)) < 0)
        return rc;
    if ((have = db_snaps_next(ps, &prev)) < 0) {
        db_snaps_close(ps);
        return have;
    }
    fputs("## ", f);
    md_code(f, cur->ref);
    fputs("\n\nThis week: ", f);
    if ((rc = md_commit(f, r, cur->commit_id)) < 0)
        goto done;
    if (md_method(cur->method))
        fprintf(f, "; %s.\n", md_method(cur->method));
    else
        fprintf(f, "; snapshot made by %s.\n", cur->method);
    if (have) {
        fprintf(f, "Previous snapshot: %s, ", prev.week);
        md_gap(f, prev.week, cur->week);
        if ((rc = md_commit(f, r, prev.commit_id)) < 0)
            goto done;
        fputs(".\n\n", f);
    } else {
        fputs("This is the first snapshot of this ref: nothing to compare with yet.\n\n", f);
    }
    obj = md_object_dtype(r, repo_id, have ? &prev.counts : &none, &cur->counts);
    md_headline(f, have ? &prev.counts : &none, &cur->counts, have, obj);
    if (have) {
        a.repo_id = b.repo_id = repo_id;
        a.commit_id = prev.commit_id;
        b.commit_id = cur->commit_id;
        snprintf(a.rules_hash, sizeof(a.rules_hash), "%s", rules_hash);
        snprintf(b.rules_hash, sizeof(b.rules_hash), "%s", rules_hash);
        if ((rc = md_changes(f, r, &a, &b, obj)) == 0)
            rc = md_contributors(f, r, b.commit_id, a.commit_id);
        if (obj)
            md_forecast(f, r, repo_id, cur->ref, cur->week);
    }
done:
    db_snaps_close(ps);
    return rc;
}

enum MHD_Result api_report(srv_req *r)
{
    db_snaps *snaps = NULL;
    db_snap_row row;
    char rules_hash[64], ref[256], *buf = NULL;
    size_t len = 0;
    int64_t repo_id;
    int rc, n = 0, by_ref;
    enum MHD_Result ret;
    FILE *f;

    by_ref = srv_query(r, "ref", ref, sizeof(ref)) == 0;
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_meta_get(r->db, "rules_hash", rules_hash, sizeof(rules_hash))) < 0 ||
        (rc = db_snaps_open(r->db, &snaps, repo_id, r->param[1])) < 0)
        return srv_reply_error(r, rc);
    if (!(f = open_memstream(&buf, &len))) {
        db_snaps_close(snaps);
        return srv_reply_error(r, pd_error_nomem(NULL));
    }
    fputs("# Porting report: ", f);
    md_text(f, r->param[0]);
    fprintf(f, ", week ");
    md_text(f, r->param[1]);
    fputs("\n\n", f);
    while (rc >= 0 && (rc = db_snaps_next(snaps, &row)) > 0) {
        if (by_ref && strcmp(ref, row.ref) != 0)
            continue;
        rc = md_ref(f, r, repo_id, rules_hash, &row);
        n++;
    }
    db_snaps_close(snaps);
    if ((ferror(f) | fclose(f)) && rc >= 0)
        rc = pd_error_nomem("writing the report");
    if (rc < 0)
        ret = srv_reply_error(r, rc);
    else if (n == 0)
        ret = srv_reply_problem(r, 404, "Not Found", "no snapshot for week '%s'%s",
                                r->param[1], by_ref ? " and that ref" : "");
    else
        ret = srv_reply_bytes(r, 200, "text/markdown; charset=utf-8", buf, len);
    free(buf);
    return ret;
}
