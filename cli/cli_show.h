/*
 * cli_show.h: the text forms of `portdash show` (cli_show_text.c): the
 * typed answers of the query layer (query/q_*.h) as lines for a terminal.
 * The JSON forms are the API's (server/api_*.h).
 */
#ifndef CLI_SHOW_H
#define CLI_SHOW_H

#include <stdio.h>

#include "q_commit.h"
#include "q_compare.h"
#include "q_file.h"
#include "q_symbols.h"

/* The file page `f` as text on `out`: figures, functions, findings. */
void cli_show_file_text(FILE *out, const q_file *f);

/* The commit `c` as text on `out`: metadata, measures and their move,
 * changed files, function moves. */
void cli_show_commit_text(FILE *out, const q_commit *c);

/* The compare `c` as text on `out`: measures both sides, files whose
 * status moved, function moves, regressions. */
void cli_show_compare_text(FILE *out, const q_compare *c);

/* The symbol list `s` as text on `out`: the figures, then the symbols
 * [first, first + count), one a line with its HPy replacement. */
void cli_show_symbols_text(FILE *out, const q_symbols *s, size_t first, size_t count);

/* One symbol `s` as text on `out`: its figures, then its sites [first,
 * first + count). */
void cli_show_symbol_text(FILE *out, const q_symbol *s, size_t first, size_t count);

#endif
