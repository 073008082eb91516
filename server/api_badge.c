/*
 * api_badge.c: GET /badge/{repo}/{ref}/{measure}.svg: a README badge with a
 * summary figure, coloured by how far the port has come on that measure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_ops.h"
#include "api_scope.h"
#include "db.h"
#include "pd_error.h"

/* A measure and its label.  The badge reads "LABEL: VALUE (P% done)", P the
 * share of the measure's population already ported (see api_badge_value),
 * so a reader is not left guessing what the percentage counts. */
typedef struct {
    const char *key;
    const char *label;
} api_badge_measure;

static const api_badge_measure api_badges[] = {
    {"object_paths.object-legacy", "object-dtype legacy"},
    {"object_paths.object-universal", "object-dtype universal"},
    {"functions.ported", "functions ported"},
    {"functions.legacy", "functions legacy"},
    {"universal_ready_files", "universal-ready files"},
    {"tokens.capi", "C API uses"},
};

/* Value and progress of measure `i` in counts `c`. */
static void api_badge_value(int i, const db_counts *c, long long *value, double *progress)
{
    double paths = (double)(c->obj[0] + c->obj[1] + c->obj[2]);
    double fns = (double)(c->fn[0] + c->fn[1] + c->fn[2]);

    *progress = -1;
    switch (i) {
    case 0: *value = c->obj[0]; *progress = paths ? 1 - c->obj[0] / paths : 1; break;
    case 1: *value = c->obj[2]; *progress = paths ? c->obj[2] / paths : 1; break;
    case 2: *value = c->fn[0]; *progress = fns ? c->fn[0] / fns : 1; break;
    case 3: *value = c->fn[2]; *progress = fns ? 1 - c->fn[2] / fns : 1; break;
    case 4: *value = c->universal_ready_files;
        *progress = c->files ? (double)c->universal_ready_files / c->files : 1; break;
    default: *value = c->tok[1]; *progress = c->tok[1] == 0 ? 1 : -1; break;
    }
}

/* shields.io's scale, from red to bright green. */
static const char *api_badge_colour(double p)
{
    return p < 0 ? "#9f9f9f" : p >= 1 ? "#4c1" : p >= 0.75 ? "#97ca00"
         : p >= 0.5 ? "#dfb317" : p >= 0.25 ? "#fe7d37" : "#e05d44";
}

enum MHD_Result api_badge(srv_req *r)
{
    char value[48], svg[2048], label[160];
    const char *measure = r->param[2];      /* the route took ".svg" off */
    const db_scope *sc;
    api_at at;
    db_counts c;
    long long v;
    double progress;
    int i, rc, lw, vw;

    for (i = 0; i < (int)(sizeof(api_badges) / sizeof(api_badges[0])); i++)
        if (strcmp(api_badges[i].key, measure) == 0)
            break;
    if (i == (int)(sizeof(api_badges) / sizeof(api_badges[0])))
        return srv_reply_problem(r, 404, "Not Found", "no badge for measure '%s'", measure);
    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = db_commit_stats(r->db, at.commit_id, at.rules_hash, &c)) < 0 ||
        (rc = api_scope_stats(r, &at, &c, &sc)) < 0)
        return srv_reply_error(r, rc);
    /* A scope's badge says so: "no-object-dtype: functions ported". */
    snprintf(label, sizeof(label), "%s%s%s", sc ? sc->name : "", sc ? ": " : "",
             api_badges[i].label);
    api_badge_value(i, &c, &v, &progress);
    if (sc && sc->exclude_object_paths && i <= 1)
        /* The scope counts no object-dtype function, so its 0 is not a
         * "100% done": the badge says they are left out, in grey. */
        snprintf(value, sizeof(value), "left out by scope"), progress = -1;
    else if (progress >= 0)
        snprintf(value, sizeof(value), "%lld (%.0f%% done)", v, progress * 100);
    else
        snprintf(value, sizeof(value), "%lld", v);
    /* Text widths estimated at 6.5 px a character of 11 px Verdana. */
    lw = (int)(strlen(label) * 6.5) + 10;
    vw = (int)(strlen(value) * 6.5) + 10;
    snprintf(svg, sizeof(svg),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"20\" role=\"img\" "
        "aria-label=\"%s: %s\"><title>%s: %s</title>"
        "<rect width=\"%d\" height=\"20\" fill=\"#555\"/>"
        "<rect x=\"%d\" width=\"%d\" height=\"20\" fill=\"%s\"/>"
        "<g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\">"
        "<text x=\"5\" y=\"14\">%s</text><text x=\"%d\" y=\"14\">%s</text></g></svg>",
        lw + vw, label, value, label, value, lw, lw, vw,
        api_badge_colour(progress), label, lw + 5, value);
    return srv_reply_bytes(r, 200, "image/svg+xml", svg, strlen(svg));
}
