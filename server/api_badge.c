/*
 * api_badge.c: GET /badge/{repo}/{ref}/{measure}.svg: a README badge with a
 * summary figure, coloured by how far the port has come on that measure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_badge.h"
#include "api_scope.h"
#include "db.h"
#include "pd_escape.h"
#include "pd_error.h"

/* The badge reads "LABEL: VALUE (P% DONE)", LABEL the measure's badge
 * label in pd_measures.def, P the share of the measure's population that
 * is done (pd_measure_progress: one definition per population, so the
 * badges of "functions ported" and "functions legacy" agree) and DONE the
 * word for it ("ported"), the full definition in the badge's title, so a
 * reader is not left guessing what the percentage counts (issue 23.10). */

/* shields.io's scale, from red to bright green. */
static const char *api_badge_colour(double p)
{
    return p < 0 ? "#9f9f9f" : p >= 1 ? "#4c1" : p >= 0.75 ? "#97ca00"
         : p >= 0.5 ? "#dfb317" : p >= 0.25 ? "#fe7d37" : "#e05d44";
}

char *api_badge_svg(const char *label, const char *value, const char *title,
                    double progress, size_t *len)
{
    /* Text widths estimated at 6.5 px a character of 11 px Verdana. */
    int lw = (int)(strlen(label) * 6.5) + 10, vw = (int)(strlen(value) * 6.5) + 10;
    char *svg = NULL;
    FILE *f = open_memstream(&svg, len);

    if (!f)
        return NULL;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"20\" "
            "role=\"img\" aria-label=\"", lw + vw);
    pd_esc_xml(f, label);
    fputs(": ", f);
    pd_esc_xml(f, value);
    fputs("\"><title>", f);
    pd_esc_xml(f, title);
    fprintf(f, "</title><rect width=\"%d\" height=\"20\" fill=\"#555\"/>"
            "<rect x=\"%d\" width=\"%d\" height=\"20\" fill=\"%s\"/>"
            "<g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\">"
            "<text x=\"5\" y=\"14\">", lw, lw, vw, api_badge_colour(progress));
    pd_esc_xml(f, label);
    fprintf(f, "</text><text x=\"%d\" y=\"14\">", lw + 5);
    pd_esc_xml(f, value);
    fputs("</text></g></svg>", f);
    if (fclose(f) != 0) {
        free(svg);
        return NULL;
    }
    return svg;
}

enum MHD_Result api_badge(srv_req *r)
{
    char value[64], label[160], title[400], pct[8], *svg;
    const char *done, *definition = NULL;
    const char *measure = r->param[2];      /* the route took ".svg" off */
    const db_scope *sc;
    api_at at;
    db_counts c;
    long long v;
    double progress;
    size_t len;
    int i, rc;
    enum MHD_Result ret;

    if ((i = pd_measure_find(measure)) < 0 || !pd_measures[i].badge) {
        char known[512] = "";
        size_t k, n = 0;

        /* name the badges there are: the measures list (GET /api/v1/measures)
         * gives every measure, and most have none */
        for (k = 0; k < PD_NMEASURES && n < sizeof(known); k++)
            if (pd_measures[k].badge)
                n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s", n ? ", " : "",
                                      pd_measures[k].key);
        return srv_reply_problem(r, 404, "Not Found", "no badge for measure '%s' (badges: %s)",
                                 measure, known);
    }
    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = db_commit_stats(r->db, at.commit_id, at.rules_hash, &c)) < 0 ||
        (rc = api_scope_stats(r, &at, &c, &sc)) < 0)
        return srv_reply_error(r, rc);
    /* A scope's badge says so: "no-object-dtype: functions ported". */
    snprintf(label, sizeof(label), "%s%s%s", sc ? sc->name : "", sc ? ": " : "",
             pd_measures[i].badge);
    v = pd_measure_value(&c, i);
    progress = pd_measure_progress(&c, i);
    if (sc && sc->exclude_object_paths && pd_measures[i].population == PD_POP_OBJECT_PATHS)
        /* The scope counts no object-dtype function, so its 0 is not a
         * "100% done": the badge says they are left out, in grey. */
        snprintf(value, sizeof(value), "left out by scope"), progress = -1;
    else if (progress >= 0 && (done = pd_measure_done(i, &definition)))
        snprintf(value, sizeof(value), "%lld (%s %s)", v,
                 pd_percent_text(progress, pct, sizeof(pct)), done);
    else if (progress >= 0)
        snprintf(value, sizeof(value), "%lld (done)", v);
    else
        snprintf(value, sizeof(value), "%lld", v);
    snprintf(title, sizeof(title), "%s: %s%s%s", label, value, definition ? "; " : "",
             definition ? definition : "");
    if (!(svg = api_badge_svg(label, value, title, progress, &len)))
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    ret = srv_reply_bytes(r, 200, "image/svg+xml", svg, len);
    free(svg);
    return ret;
}
