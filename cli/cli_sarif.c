/*
 * cli_sarif.c: `portdash import-sarif`: store a SARIF 2.1.0 log (plain or
 * gzip) for a commit, the same import as POST .../commits/{rev}/sarif.
 */
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "db.h"
#include "pd_error.h"
#include "sarif_import.h"

static void cli_sarif_usage(FILE *out)
{
    fprintf(out,
        "usage: portdash import-sarif --db FILE --name NAME --rev REV\n"
        "                             [--checkout-uri URI] [--category CAT] FILE\n\n"
        "Stores the runs of a SARIF 2.1.0 log (FILE, gzip or not; '-' for stdin)\n"
        "for commit REV of an ingested repository, replacing earlier runs of the\n"
        "same tool and category.  --checkout-uri names the directory (or file:\n"
        "URI) the analyzer ran in, so absolute paths under it map to repository\n"
        "paths; --category overrides automationDetails.id.  A run or result that\n"
        "cannot be read is skipped with a warning on stderr; a file that is not\n"
        "a SARIF 2.1.0 log at all, or of which nothing could be kept, is refused\n"
        "(exit status 1, nothing stored).  NAME is the\n"
        "repository name given to ingest (--repo NAME is a deprecated alias).\n");
}

/* Copy `in` to a new temporary file, at most `max` + 1 bytes (a log is
 * at least as long as its gzip, so more is too big anyway).  0, PD_EIO. */
static int cli_sarif_spool(FILE **out, FILE *in, size_t max)
{
    char buf[65536];
    size_t n, total = 0;
    FILE *f = tmpfile();

    *out = NULL;
    if (!f)
        return pd_error_set(PD_EIO, "cannot make a temporary file for the log");
    while (total <= max && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (fwrite(buf, 1, n, f) != n) {
            fclose(f);
            return pd_error_set(PD_EIO, "cannot write a temporary file for the log");
        }
        total += n;
    }
    if (ferror(in) || fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return pd_error_set(PD_EIO, "cannot read the log");
    }
    *out = f;
    return 0;
}

/*
 * `path` opened for the import, which reads it twice: a regular file as
 * it is; stdin ('-'), a pipe or another stream copied to a temporary file
 * first.  0, PD_EIO.
 */
static int cli_sarif_open(FILE **out, const char *path, size_t max)
{
    struct stat st;
    FILE *f;
    int rc;

    *out = NULL;
    if (strcmp(path, "-") == 0)
        return cli_sarif_spool(out, stdin, max);
    if (!(f = fopen(path, "rb")))
        return pd_error_set(PD_EIO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        *out = f;
        return 0;
    }
    rc = cli_sarif_spool(out, f, max);
    fclose(f);
    return rc;
}

/* What was skipped or ignored, one line each on stderr. */
static void cli_sarif_warnings(const sarif_import_report *rep)
{
    json_t *w;
    size_t i;

    fflush(stdout);          /* the runs first, then what was left out of them */
    json_array_foreach(rep->warnings, i, w)
        fprintf(stderr, "portdash import-sarif: warning: %s: %s (%s)\n",
                json_string_value(json_object_get(w, "pointer")),
                json_string_value(json_object_get(w, "problem")),
                json_string_value(json_object_get(w, "action")));
    if (rep->warnings_omitted)
        fprintf(stderr, "portdash import-sarif: %zu more warnings not shown\n",
                rep->warnings_omitted);
}

/* Import (plain or gzip, streamed), print what each run became. */
static int cli_sarif_run(sqlite3 *db, const sarif_import_options *o, const char *file)
{
    sarif_import_report *rep = NULL;
    FILE *f = NULL;
    size_t i;
    int rc;

    if ((rc = cli_sarif_open(&f, file, SARIF_MAX_INFLATED)) < 0 ||
        (rc = sarif_import_file(&rep, db, o, f, NULL)) < 0) {
        if (rep)                /* refused: nothing could be kept; say why */
            cli_sarif_warnings(rep);
        goto done;
    }
    for (i = 0; i < rep->nruns; i++)
        printf("%s%s%s: %zu results, %zu findings, %zu unmapped\n", rep->runs[i].tool,
               rep->runs[i].category[0] ? " / " : "", rep->runs[i].category,
               rep->runs[i].results, rep->runs[i].findings, rep->runs[i].unmapped);
    cli_sarif_warnings(rep);
done:
    sarif_import_report_free(rep);
    if (f)
        fclose(f);
    return rc;
}

int cli_import_sarif(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, 0, 'd'}, {"name", required_argument, 0, 'n'},
        {"repo", required_argument, 0, 'r'},
        {"rev", required_argument, 0, 'v'}, {"checkout-uri", required_argument, 0, 'c'},
        {"category", required_argument, 0, 'g'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    sarif_import_options o = {0};
    const char *db_path = NULL;
    sqlite3 *db = NULL;
    int c, rc;

    while ((c = cli_getopt(argc, argv, longopts)) != -1) {
        switch (c) {
        case 'd': db_path = optarg; break;
        case 'r': cli_deprecated("import-sarif", "--repo", "--name"); /* fall through */
        case 'n': o.repo = optarg; break;
        case 'v': o.rev = optarg; break;
        case 'c': o.checkout_uri = optarg; break;
        case 'g': o.category = optarg; break;
        case 'h': cli_sarif_usage(stdout); return CLI_OK;
        default: cli_sarif_usage(stderr); return CLI_USAGE;
        }
    }
    if (!db_path || !o.repo || !o.rev || optind != argc - 1) {
        fprintf(stderr, "portdash import-sarif: wants --db, --name, --rev and one FILE\n\n");
        cli_sarif_usage(stderr);
        return CLI_USAGE;
    }
    if ((rc = db_open(&db, db_path, 0)) == 0)
        rc = cli_sarif_run(db, &o, argv[optind]);
    if (rc < 0)
        fprintf(stderr, "portdash import-sarif: %s\n", pd_error_last());
    db_close(db);
    /* a missing --db is bad input (db_open), as for every reading command */
    return rc == PD_EINVAL && db == NULL ? CLI_USAGE : rc < 0 ? CLI_FAIL : CLI_OK;
}
