/*
 * ingest_store.h: analyzer results and git objects turned into the rows
 * db/db_ingest.h stores.  The SQL and the transactions are db_ingest's;
 * what is here is the translation: the measures of an analysis, its
 * function rows, its findings (encoded by db_findings_encode) and calls,
 * and a commit's metadata.
 */
#ifndef INGEST_STORE_H
#define INGEST_STORE_H

#include <stdint.h>
#include <git2.h>

#include "analyzer/analyzer.h"
#include "db.h"
#include "db_ingest.h"

/*
 * An analysis in the form it is stored: the analyses row and its function
 * rows.  It holds no pointer into the an_result it was made from, so an
 * analysis worker can encode, free the (much larger) result and hand this
 * to the writer thread.  Every pointer of `row` and `fn` points into the
 * blocks below, owned by the encoding.
 */
typedef struct {
    db_analysis_row row;           /* counts: files = 1 */
    db_function_row *fn;           /* nfn rows; freed (nfn 0) once
                                    * encoded into fns_z */
    size_t nfn;
    char *names;                   /* every fn[].name and name_from_macro,
                                    * NUL-separated */
    char *whys;                    /* every fn[].why (ingest_why_put),
                                    * NUL-separated */
    unsigned char *fns_z;          /* row.fns_z */
    char *notes, *hpy_types;       /* row.notes, row.hpy_types */
    unsigned char *findings_z;     /* row.findings_z */
    unsigned char *calls_z;        /* row.calls_z */
    unsigned char *flow_z;         /* row.flow_z */
    char *flow_fns;                /* row.flow_fns */
    char *flow;                    /* the flow facts before compression
                                    * (NUL-terminated; NULL: no function),
                                    * handed to the writer's call graph so
                                    * that it need not read them back */
    uint64_t flow_hash;            /* pd_flow_facts_hash(flow), hashed on
                                    * the analysis thread */
    int noobject;                  /* 1: the file has object-dtype paths, */
    db_counts noobject_counts;     /* and these are its figures without */
    int noobject_status;           /* them (db_scope_detail_counts): the
                                    * no-object scope cache's row, made on
                                    * the analysis thread so that the writer
                                    * need not read its function rows back */
} ingest_enc;

/*
 * Encode analysis `res` of a blob of `size` bytes.  Thread-safe (no
 * database).  *out is freed with ingest_enc_free().  0, PD_ENOMEM or
 * PD_ERROR (compression).
 */
int ingest_enc_new(ingest_enc **out, const an_result *res, size_t size);

/* Free; accepts NULL. */
void ingest_enc_free(ingest_enc *e);

/*
 * Store an analysis with its functions and compressed findings, and return
 * its row id and its counts (files = 1): ingest_enc_new() then
 * db_ingest_analysis_put().  0 or a negative pd_error code.
 */
int ingest_store_analysis_insert(db_ingest *s, int64_t *id_out,
                                 db_counts *counts, const char *blob_oid,
                                 const char *rules_hash, size_t size,
                                 const an_result *res);

/* db_ingest_commit_find for a git oid: *id_out is the row id of commit
 * `oid` of repository row repo_id (0: not stored), *has_stats whether it
 * has a summary under `rules_hash`.  0 or PD_EDB. */
int ingest_store_commit_find(db_ingest *s, int64_t *id_out, int *has_stats,
                             int64_t repo_id, const git_oid *oid,
                             const char *rules_hash);

/*
 * The blob ids of every analysis stored under `rules_hash`, in a new array
 * (*out, *n; freed with free(); NULL when none).  Ids that do not parse
 * are skipped.  0, PD_EDB, PD_ENOMEM.
 */
int ingest_store_analysed_blobs(db_ingest *s, const char *rules_hash,
                                git_oid **out, size_t *n);

/* Every measure of an analysis in the in-memory form (files = 1), by the
 * rules of pd_measures.def.  0 or PD_ENOMEM. */
int ingest_store_counts_of(db_counts *out, const an_result *res);

#endif
