/*
 * gate_blob.h: a blob the gate reads from git, with one error for every
 * reader (the verdict, the comment, the fixable ratchet, the owners).
 */
#ifndef GATE_BLOB_H
#define GATE_BLOB_H

#include <git2.h>

/*
 * git_blob_lookup of `oid` (the file `path`) into *out (git_blob_free()).
 * 0, or PD_EGIT with a message naming the blob, the path and libgit2's
 * cause ("cannot read blob ID (PATH): failed to inflate loose object"),
 * so that a damaged or missing object is told apart from a bad revision.
 */
int gate_blob_lookup(git_blob **out, git_repository *repo, const git_oid *oid,
                     const char *path);

#endif
