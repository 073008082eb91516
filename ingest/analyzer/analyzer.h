/*
 * analyzer.h: the door to the porting analyzer (ingest/analyzer/).
 *
 * The analyzer turns the bytes of one source file into functions, token
 * findings and flow facts, under a rules file; it knows nothing of git, the
 * database or HTTP.  Code outside this folder includes this header and no
 * other of the folder's (tests may look inside).  What it offers:
 *   - rules.h: loading and hashing the rules (classes, names, scopes);
 *   - analyze.h: an_analyze() and its results;
 *   - tmpl.h: expanding numpy `.c.src` templates (used by `portdash analyze`);
 *   - fix.h: checked HPy rewrites of legacy uses (`portdash fix`, SARIF
 *     fixes, the fixes API, the gate's fixable ratchet);
 *   - lex.h: the lexer (its line count, for code that maps rewrites).
 * doc/analyzer.md describes the rules and what the analysis reports.
 */
#ifndef ANALYZER_H
#define ANALYZER_H

#include "rules.h"
#include "analyze.h"
#include "tmpl.h"
#include "fix.h"
#include "lex.h"

#endif
