/*
 * cli.h: the portdash subcommands.  Each takes argc/argv after the
 * subcommand name and returns the process exit status: 0 ok, 1 failure,
 * 2 bad usage (the usage text is then printed on stderr).
 */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>

#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_USAGE 2

int cli_ingest(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_snapshot(int argc, char **argv);
int cli_token(int argc, char **argv);
int cli_import_sarif(int argc, char **argv);
int cli_gate(int argc, char **argv);
int cli_analyze(int argc, char **argv);
int cli_triage(int argc, char **argv);
int cli_fix(int argc, char **argv);
int cli_repo(int argc, char **argv);
int cli_show(int argc, char **argv);

/*
 * Says on stderr that `portdash CMD OLD` is a deprecated spelling of NOW
 * (kept working as an alias so existing scripts and units keep running).
 */
void cli_deprecated(const char *cmd, const char *old, const char *now);

/*
 * --wait SECONDS of `portdash CMD` (ingest, snapshot): how long to wait
 * while another ingest or snapshot holds the database (db_lock.h), 0 to
 * 86400, into *out.  0, or -1 after saying why on stderr.
 */
int cli_wait_seconds(const char *cmd, const char *arg, int *out);

/*
 * --threads N of `portdash CMD` (ingest, analyze): a count from 1 to 256,
 * written in decimal digits, into *out.  0, or -1 after saying why on
 * stderr.
 */
int cli_threads(const char *cmd, const char *arg, unsigned *out);

/*
 * getopt_long(argc, argv, "", longopts, NULL) for `portdash argv[0]`
 * (every command takes long options only), with its own messages in
 * place of getopt's: "portdash CMD: unknown option '--incldue' (did you
 * mean '--include'?)", "... option '--db' needs a value", "... option
 * '--quiet' takes no value", "... option '--in' is ambiguous (--include,
 * --interval)", and "... option '--name' needs a value, and got the
 * option '--ref'" for a value that is one of the command's options
 * (`--name --ref hpy`).  Returns what getopt_long does, '?' after such a
 * message.
 */
int cli_getopt(int argc, char **argv, const struct option *longopts);

#endif
