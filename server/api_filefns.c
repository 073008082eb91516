/*
 * api_filefns.c: the file page's first screen without its findings.
 *
 * The file page of a big file with a SARIF upload (numpy's
 * arraytypes.c.src: 884 functions, 5,000 findings) is a 1.5 MB answer, five
 * sixths of it findings; the browser parsed all of it on its main thread
 * before the function table could show (issue 26.4).  The table needs only
 * how many findings each function has: this answer gives those counts and
 * leaves the list to GET .../files/{path...}, which the page reads next.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_file.h"
#include "api_filefns.h"
#include "pd_error.h"
#include "q_file.h"
#include "srv_page.h"

/* {function name: findings in it} over the findings of the page read. */
static json_t *ff_counts(const json_t *findings)
{
    json_t *counts = json_object();
    const json_t *f;
    size_t i;

    json_array_foreach(findings, i, f) {
        const char *name = json_string_value(json_object_get(f, "function"));
        json_t *n;

        if (!name)
            continue;
        n = json_object_get(counts, name);
        if (n)
            json_integer_set(n, json_integer_value(n) + 1);
        else
            json_object_set_new(counts, name, json_integer(1));
    }
    return counts;
}

enum MHD_Result api_file_functions(srv_req *r)
{
    q_file_params p = {0};
    q_file *f = NULL;
    char *owned = NULL;
    enum MHD_Result ret;
    json_t *o;
    int rc;

    /* Read as GET .../files/{path...} reads it, so both answers agree. */
    if ((rc = api_file_read(r, &p, &f, &owned)) < 0) {
        free(owned);
        return srv_reply_error(r, rc);
    }
    o = api_file_json(f, 1);
    json_object_del(o, "findings");
    json_object_set_new(o, "function_findings", ff_counts(f->findings));
    ret = srv_reply_json(r, 200, o);
    q_file_free(f);
    free(owned);
    return ret;
}
