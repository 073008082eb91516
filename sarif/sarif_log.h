/*
 * sarif_log.h: inside the sarif module: a SARIF log checked and reduced to
 * what is stored (sarif_parse.c), and the mapping of locations to
 * repository paths (sarif_map.c).  Not used outside sarif/.
 */
#ifndef SARIF_LOG_H
#define SARIF_LOG_H

#include <stddef.h>
#include <string.h>

#include <jansson.h>

/* One result as stored; strings borrowed from the JSON document unless
 * marked owned. */
typedef struct {
    const char *rule_id;       /* NULL when the result names no rule */
    const char *level;         /* static: none, note, warning, error */
    const char *kind;          /* static: fail, pass, open, ... */
    char *message;             /* owned: text with {N} arguments filled in */
    char *uri;                 /* owned: location after uriBaseId/index; NULL: none */
    long line, column;         /* region.startLine/startColumn; 0: absent */
    json_t *fingerprints;      /* borrowed partialFingerprints, or NULL */
    size_t idx;                /* position in the log's run.results */
} sarif_result;

typedef struct {
    const char *tool;          /* tool.driver.name */
    const char *version;       /* semanticVersion or version, or NULL */
    char *category;            /* owned */
    sarif_result *results;     /* owned array, skipped results left out */
    size_t nresults;
    size_t idx;                /* position in the log's runs */
} sarif_run;

/* tool.driver.name of portdash's own SARIF (report/sarif.c). */
#define SARIF_OWN_TOOL "portdash"

/* SQL condition on sarif_results r: the result is a finding.  Kinds
 * "pass" and "notApplicable" say nothing needs doing (3.27.9). */
#define SARIF_FINDING_SQL "r.kind NOT IN ('pass', 'notApplicable')"

/* 1 if a result of this kind is a finding (see SARIF_FINDING_SQL). */
static inline int sarif_kind_is_finding(const char *kind)
{
    return strcmp(kind, "pass") != 0 && strcmp(kind, "notApplicable") != 0;
}

/* Tool name stored for a run whose tool.driver.name is "". */
#define SARIF_UNNAMED_TOOL "(unnamed)"

typedef struct {
    json_t *doc;               /* owned; the strings above point into it */
    sarif_run *runs;           /* skipped runs left out */
    size_t nruns;
    json_t *warnings;          /* owned: [{pointer, problem, action}] */
    size_t warnings_omitted;   /* warnings past the listed ones */
    size_t made;               /* bytes of messages and URIs made (SARIF_MAX_MADE) */
} sarif_log;

/*
 * Parse and check `text` (len bytes).  *out is a new log freed with
 * sarif_log_free; what was skipped or ignored is in (*out)->warnings.
 * PD_EINVAL only for a log that cannot be read at all (see sarif_import.h),
 * PD_ENOMEM.
 */
int sarif_log_parse(sarif_log **out, const char *text, size_t len);

/* Free; accepts NULL. */
void sarif_log_free(sarif_log *log);

/*
 * The repository-relative path a resolved location URI names: file: URIs
 * and absolute paths under `checkout` (a path or file: URI, may be NULL)
 * lose that prefix, relative references stay, percent-escapes are decoded.
 * Returns a new string (free()), or NULL when the URI is outside the
 * repository (another scheme or host, not under checkout, a ".." that
 * climbs out) or memory ran out.
 */
char *sarif_map_path(const char *uri, const char *checkout);

#endif
