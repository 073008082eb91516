/*
 * api_file_part.c: the parts of the file page both writers share (see
 * api_file_part.h).
 */
#include <jansson.h>

#include "api_file_part.h"

json_t *api_file_why(const q_function *f)
{
    json_t *why = f->why ? json_loads(f->why, 0, NULL) : NULL;

    if (!why)
        return json_null();
    if (json_is_object(why) && f->chain) {
        json_t *c = json_loads(f->chain, 0, NULL);

        if (c)
            json_object_set_new(why, "object", json_pack("{s:o}", "chain", c));
    }
    if (json_is_object(why) && f->state_from_graph)
        json_object_set_new(why, "mentions", json_null());
    return why;
}

int api_file_paged(const q_file *f)
{
    size_t most = f->functions_total > f->findings_total ? f->functions_total
                                                         : f->findings_total;

    return most > f->per || f->page > 1;
}
