/*
 * pd_why.c: the JSON form of a function's why (pd_why.h).
 */
#include <string.h>

#include "pd_why.h"

static json_t *pd_why_str(const char *s)
{
    return json_stringn_nocheck(s ? s : "", s ? strlen(s) : 0);
}

static json_t *pd_why_site_obj(const pd_why_site *f)
{
    if (!f->rule)
        return json_null();
    return json_pack("{s:o, s:o, s:I, s:I}", "rule", pd_why_str(f->rule),
                     "text", pd_why_str(f->text), "line", (json_int_t)f->line,
                     "column", (json_int_t)f->column);
}

json_t *pd_why_obj(const pd_why *w)
{
    json_t *object, *chain;

    if (w->chain && (chain = json_loads(w->chain, 0, NULL)) != NULL) {
        object = json_is_array(chain) ? json_pack("{s:o}", "chain", chain)
                                      : (json_decref(chain), json_null());
    } else {
        object = pd_why_site_obj(&w->object);
    }
    return json_pack("{s:o, s:o, s:o, s:o}",
                     "status", pd_why_site_obj(&w->status),
                     "object", object,
                     "mentions", w->mention ? json_pack("{s:o, s:I}", "name",
                                                        pd_why_str(w->mention), "line",
                                                        (json_int_t)w->mention_line)
                                            : json_null(),
                     "object_also", pd_why_site_obj(&w->object_also));
}
