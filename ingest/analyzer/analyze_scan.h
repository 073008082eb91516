/*
 * analyze_scan.h: the token walk (analyze_scan.c).
 */
#ifndef ANALYZE_SCAN_H
#define ANALYZE_SCAN_H

#include "analyze_int.h"

void an_scan_token(an_state *st, const lex_token *t);
void an_reset_decl(an_state *st);
void an_clip_calls(an_state *st);

#endif
