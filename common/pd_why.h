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

#include "pd_buf.h"

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

/*
 * Append w's JSON text without jansson: the bytes json_dumps(pd_why_obj(w),
 * JSON_COMPACT) gives (keys in the order above, pd_buf_json_str's
 * escapes).  Only for a why without a chain whose strings are ASCII (bytes
 * below 0x80): jansson's UTF-8 check and escapes are the rule for the
 * others.  Returns 0, or 1 when w is not such a why (nothing appended).
 * Errors are left in b->err.
 */
int pd_why_json_plain(pd_buf *b, const pd_why *w);

/*
 * The compact stored form of a why (functions' text, db_fns.h): the JSON
 * of about a million functions was a fifth of the text an ingest of
 * numpy/core's history compresses, 40 % of it the all-null why of the
 * functions without findings (issue 26).  It is PD_WHY_US and then 14
 * fields separated by PD_WHY_US:
 *   status rule, text, line, column; object rule, text, line, column;
 *   mention name, line; object_also rule, text, line, column
 * where a site whose rule is empty is null (its text, line and column
 * empty too), likewise a mention whose name is empty; a NULL text is
 * empty; numbers are decimal.  So the all-null why is 15 bytes (the JSON's
 * 64).  Only a why pd_why_json_plain writes has the form, and only without
 * PD_WHY_US in a string and without an empty rule or mention (which would
 * read back as null).  The reader renders its JSON with pd_why_json_plain:
 * the same bytes as when the JSON was stored.
 */
#define PD_WHY_US '\x1f'

/* Append w in the compact form; 0, or 1 when w has none (nothing
 * appended).  Errors are left in b->err. */
int pd_why_compact(pd_buf *b, const pd_why *w);

/* Read compact text s (NUL-terminated, beginning with PD_WHY_US) into *w:
 * each separator becomes a NUL and the strings point into s.  0, or -1
 * when s is not of the form (a field missing or over, a bad number). */
int pd_why_compact_parse(char *s, pd_why *w);

#endif
