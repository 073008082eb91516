/*
 * cli_analyze_args.h: the options of `portdash analyze`
 * (cli_analyze_args.c), parsed apart from its run (cli_analyze.c).
 */
#ifndef CLI_ANALYZE_ARGS_H
#define CLI_ANALYZE_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"
#include "sarif_write.h"

/* What `portdash analyze` was asked. */
typedef struct {
    const char *format;         /* --format: text (default), json, sarif, functions */
    const char *rules_path, *repo, *rev, *blobs;   /* NULL when not given */
    report_fail fail;           /* --fail-on */
    sarif_write_opts so;        /* --sarif-* */
    int sarif_opts;             /* 1 when a --sarif-* option was given */
    int threads_given;          /* 1 when --threads was */
    unsigned threads;           /* --threads, else one per CPU, at most 8 */
    const char **globs;         /* --path GLOBs: the caller's room for argc
                                 * entries, set before cli_an_parse */
    size_t nglobs;
} cli_an_args;

/* Print the usage of `portdash analyze` to out. */
void cli_analyze_usage(FILE *out);

/* Parse argv's options into *o (o->globs set, with room for argc; the
 * strings stay argv's), leaving optind where the PATHs start.  -1: go on;
 * otherwise the exit code (CLI_OK: help printed, CLI_USAGE: bad usage
 * reported on stderr). */
int cli_an_parse(int argc, char **argv, cli_an_args *o);

/* The misuse of options o (with optind where the PATHs start) that the run
 * must refuse, as the message to print before the usage; NULL when none. */
const char *cli_an_refused(const cli_an_args *o, int argc);

#endif
