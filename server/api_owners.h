/*
 * api_owners.h: who ported a file's functions and who changed them lately
 * (issue 24, point 3), from the stored history with renames followed and
 * the repository's .mailmap (libgit2's git_mailmap).
 *
 *   GET .../commits/{rev}/owners/{path...}
 *
 * E-mail addresses are shown only when the server is private (serve
 * --private); a GitHub no-reply address gives an "@login" handle instead.
 * Shapes in doc/api.md ("Owners").
 */
#ifndef API_OWNERS_H
#define API_OWNERS_H

#include <jansson.h>

#include "api.h"
#include "srv_reply.h"
#include "srv_req.h"

enum MHD_Result api_owners(srv_req *r);

/* The owners of one file's functions at `at`, for other answers. */
typedef struct api_owners_file api_owners_file;

/*
 * Read them for `path` (repository `repo`); a file without stored history
 * gives empty lists.  0, PD_EDB, PD_ENOMEM.  Free with api_owners_free.
 */
int api_owners_read(srv_req *r, const api_at *at, const char *repo, const char *path,
                    api_owners_file **out);

void api_owners_free(api_owners_file *o);

/* The function `name` starting at `start_line`: its owner to ask (the
 * first porter, else the newest changer) as a display string ("@login" or
 * the name), or NULL when nobody is known. */
const char *api_owners_ask(const api_owners_file *o, const char *name, int64_t start_line);

/* {"ported_by": [...], "changed_by": [...]} of that function (new
 * reference; empty lists when unknown). */
json_t *api_owners_json(srv_req *r, const api_owners_file *o, const char *name,
                        int64_t start_line);

#endif
