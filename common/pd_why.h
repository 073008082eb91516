/*
 * pd_why.h: why a function has its status and object state, typed, and
 * its one JSON form (pd_why.c).
 *
 * The analyzer fills a pd_why from its result (an_why_of); the ingest
 * stores its JSON (functions.why), the report prints it, and the file page
 * reads the stored text back: one encoder, at the edge.  The JSON:
 *   {"status": F | null, "object": F | {"chain": [HOP...]} | null,
 *    "mentions": {"name": MARKER, "line": N} | null, "object_also": F | null}
 * with F = {"rule", "text", "line", "column"} of the deciding finding and
 * HOP = {"function", "path", "line"} (pd_flow_chain_json).
 */
#ifndef PD_WHY_H
#define PD_WHY_H

#include <stdint.h>

#include <jansson.h>

/* One finding a why points at; rule == NULL: none (JSON null).  Strings
 * are borrowed. */
typedef struct {
    const char *rule, *text;
    uint32_t line, column;
} pd_why_site;

typedef struct {
    pd_why_site status;        /* the finding that decides the status */
    pd_why_site object;        /* the item site that gives the object state */
    const char *chain;         /* or the call chain that gives it (JSON array
                                * text of pd_flow_chain_json); NULL: none.
                                * The chain wins over the site. */
    const char *mention;       /* a function without object state that uses
                                * an object-dtype marker: its name; NULL */
    uint32_t mention_line;
    pd_why_site object_also;   /* for cpython-only: the first HPyField site */
} pd_why;

/*
 * `w` as a new JSON object (the shape above), NULL when out of memory.
 * Strings are taken as bytes (no UTF-8 check: they come from source text);
 * a chain that is not a JSON array is left out (null).
 */
json_t *pd_why_obj(const pd_why *w);

#endif
