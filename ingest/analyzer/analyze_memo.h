/*
 * analyze_memo.h: the chunk memo's walk (analyze_memo.c: cutting,
 * recording, replaying) over its table (analyze_memo_tab.h).  Not an
 * API; see analyze.h.
 */
#ifndef ANALYZE_MEMO_H
#define ANALYZE_MEMO_H

#include "analyze_int.h"
#include "analyze_memo_tab.h"
#include "tmpl_replay.h"

/* an_walk() through memo m: chunks already seen are replayed, new ones
 * are walked token by token (an_feed) and recorded (analyze_memo.c).
 * buf is a template's expansion when rp is not NULL: its tokens come from
 * that replay of the template (tmpl_replay.h), else from the lexer. */
void an_walk_memo(an_state *st, an_memo *m, const char *buf, size_t len,
                  tmpl_replay *rp);

#endif
