/*
 * ingest_store.h: the writes of an ingest, as prepared statements kept for
 * the whole run.  Callers group calls in transactions (ingest.c commits in
 * batches so that an interrupted ingest keeps what it finished).
 */
#ifndef INGEST_STORE_H
#define INGEST_STORE_H

#include <stdint.h>
#include <git2.h>
#include <sqlite3.h>

#include "analyze.h"
#include "db.h"

typedef struct ingest_store ingest_store;

/* Prepare the statements on `db` (borrowed, must outlive the store).
 * 0, PD_ENOMEM or PD_EDB. */
int ingest_store_open(ingest_store **out, sqlite3 *db);

/* Finalize the statements; accepts NULL. */
void ingest_store_free(ingest_store *s);

/*
 * Find or create repository `name`.  A new one records `path` and
 * `scope_json`.  An existing one gets its path updated; if `scope_json` is
 * not NULL and differs from the stored scope, fails with PD_EINVAL (a
 * changed scope would make old and new commits disagree), else
 * *scope_out (if not NULL) receives the stored scope, freed with free().
 */
int ingest_store_repo(ingest_store *s, int64_t *id_out, char **scope_out,
                      const char *name, const char *path,
                      const char *scope_json);

/*
 * Look up commit `oid` of the repository: *id_out is its row id (0 if not
 * stored) and *has_stats whether it has a summary under `rules_hash`.
 */
int ingest_store_commit_find(ingest_store *s, int64_t *id_out, int *has_stats,
                             int64_t repo_id, const git_oid *oid,
                             const char *rules_hash);

/* Insert a commit's metadata; first_parent_id 0 means none. */
int ingest_store_commit_insert(ingest_store *s, int64_t *id_out, int64_t repo_id,
                               const git_commit *c, int64_t first_parent_id);

/* Row id of `path`, created if new. */
int ingest_store_path_id(ingest_store *s, int64_t *id_out, const char *path);

/* Record that commit changed path to blob (NULL: deleted); old_path_id is
 * the path it was renamed from (0: not a rename). */
int ingest_store_change(ingest_store *s, int64_t commit_id, int64_t path_id,
                        const git_oid *blob, int64_t old_path_id);

/* Set the patch id (git patch-id of the commit's in-scope diff). */
int ingest_store_patch_id(ingest_store *s, int64_t commit_id, const git_oid *patch_id);

/* The commit a stored ref points at (0 if the ref is new). */
int ingest_store_ref_get(ingest_store *s, int64_t *commit_out, int64_t repo_id,
                         const char *name);

/* 1 if commit `ancestor` is on the first-parent chain of `tip`, else 0;
 * negative PD_EDB. */
int ingest_store_on_chain(ingest_store *s, int64_t tip, int64_t ancestor);

/* Record that ref `name` moved from old_id to new_id without descending. */
int ingest_store_rewrite(ingest_store *s, int64_t repo_id, const char *name,
                         int64_t old_id, int64_t new_id);

/* The 40-hex id of a stored commit into oid_out (41 bytes). */
int ingest_store_commit_oid(ingest_store *s, char *oid_out, int64_t commit_id);

/* Call fn for each stored change of a commit (blob_oid NULL: deleted).
 * fn may use the store's other statements; a non-zero return stops. */
int ingest_store_changes_of(ingest_store *s, int64_t commit_id,
                            int (*fn)(void *arg, int64_t path_id,
                                      const char *blob_oid, const char *path),
                            void *arg);

/* Analysis row id of (blob, rules_hash), 0 if none. */
int ingest_store_analysis_find(ingest_store *s, int64_t *id_out,
                               const char *blob_oid, const char *rules_hash);

/* One function row of an encoded analysis. */
typedef struct {
    const char *name;              /* points into ingest_enc.names */
    uint32_t start_line, end_line;
    an_status status;
    an_objstate object_state;
    uint32_t tokens[AN_CLASS_COUNT];
    uint32_t ung[AN_CLASS_COUNT];  /* unguarded findings in the function */
    const char *name_from_macro;   /* into ingest_enc.names, or NULL */
    char *why;                     /* owned: an_why_json of the function */
} ingest_enc_fn;

/*
 * An analysis in the form it is stored: counts, compressed findings and
 * calls, function rows.  It holds no pointer into the an_result it was
 * made from, so an analysis worker can encode, free the (much larger)
 * result and hand this to the writer thread.
 */
typedef struct {
    size_t size;                   /* blob bytes */
    uint32_t lines;
    an_status status;
    int universal_ready;
    db_counts counts;              /* files = 1 */
    int64_t ung[AN_CLASS_COUNT];   /* unguarded findings of the whole file */
    char *notes;                   /* NULL if none */
    char *hpy_types;               /* NULL if none */
    unsigned char *findings_z;     /* zlib of the findings JSON */
    size_t findings_zlen, findings_len;
    unsigned char *calls_z;        /* zlib of the calls text; NULL if none */
    size_t calls_zlen, calls_len;
    ingest_enc_fn *fn;
    size_t nfn;
    char *names;                   /* every fn[].name, NUL-separated */
} ingest_enc;

/*
 * Encode analysis `res` of a blob of `size` bytes.  Thread-safe (no
 * database).  *out is freed with ingest_enc_free().  0 or PD_ENOMEM.
 */
int ingest_enc_new(ingest_enc **out, const an_result *res, size_t size);

/* Free; accepts NULL. */
void ingest_enc_free(ingest_enc *e);

/* Store an encoded analysis with its functions; *id_out is its row id. */
int ingest_store_analysis_put(ingest_store *s, int64_t *id_out,
                              const char *blob_oid, const char *rules_hash,
                              const ingest_enc *e);

/*
 * The blob ids of every analysis stored under `rules_hash`, in a new array
 * (*out, *n; freed with free(); NULL when none).  0, PD_EDB, PD_ENOMEM.
 */
int ingest_store_analysed_blobs(ingest_store *s, const char *rules_hash,
                                git_oid **out, size_t *n);

/*
 * Store an analysis with its functions and compressed findings, and return
 * its row id and its counts (files = 1): ingest_enc_new() then
 * ingest_store_analysis_put().
 */
int ingest_store_analysis_insert(ingest_store *s, int64_t *id_out,
                                 db_counts *counts, const char *blob_oid,
                                 const char *rules_hash, size_t size,
                                 const an_result *res);

/* Store the summary of a commit under `rules_hash` (replacing any). */
int ingest_store_stats(ingest_store *s, int64_t commit_id,
                       const char *rules_hash, const db_counts *c);

/* Point ref `name` at commit_id. */
int ingest_store_ref(ingest_store *s, int64_t repo_id, const char *name,
                     int64_t commit_id);

/* Every measure of an analysis in the in-memory form (files = 1), by the
 * rules of pd_measures.def.  0 or PD_ENOMEM. */
int ingest_store_counts_of(db_counts *out, const an_result *res);

#endif
