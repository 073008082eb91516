/*
 * pd_escape.h: repository text (paths, function names, commit messages,
 * ref names, authors: anything git or an uploader lets a stranger choose)
 * written into a document others open.  One function per output kind,
 * each used everywhere that kind is written (issue 27: a path holding CR
 * added a heading and a link to the weekly report; U+202E stayed live).
 *
 * Every kind first makes controls visible, as the dashboard does
 * (static/js/dom.mjs): a character that is invisible, moves the cursor or
 * reorders text shows as "<U+XXXX>" (C0 controls, line breaks included,
 * DEL, C1 controls, U+061C, U+200B-U+200F, U+2028-U+202E, U+2060-U+2064,
 * U+2066-U+2069, U+FEFF; the bidirectional ones are "Trojan Source",
 * CVE-2021-42574), and a byte that is not UTF-8 as "\xHH" (the display
 * form of api_text).  Then the kind's own escaping applies.
 */
#ifndef PD_ESCAPE_H
#define PD_ESCAPE_H

#include <stdio.h>

/* s (NULL: nothing) with controls made visible, as above. */
void pd_esc_visible(FILE *f, const char *s);

/*
 * Markdown inline text (CommonMark 0.31, GFM): visible controls, and every
 * ASCII punctuation character backslash-escaped (CommonMark section 2.4
 * allows it for all of them), so no emphasis, link, autolink, raw HTML,
 * entity, heading, list marker or table cell can start inside it.
 */
void pd_esc_md_text(FILE *f, const char *s);

/*
 * A Markdown code span (CommonMark section 6.1) holding s with visible
 * controls: delimited by one backtick more than the longest run inside,
 * padded with a space when s starts or ends with a backtick or a space,
 * so s shows exactly.  in_table: '|' written "\|", which GFM tables (section
 * 4.10) read as a '|' of the cell even in a code span.
 */
void pd_esc_md_code(FILE *f, const char *s, int in_table);

/*
 * One CSV field (RFC 4180), always quoted, quotes doubled, with visible
 * controls; a field that a spreadsheet would read as a formula (starting
 * with = + - @, OWASP "CSV Injection") gets a leading "'".
 */
void pd_esc_csv(FILE *f, const char *s);

/*
 * XML 1.0 character data or an attribute value in either quote (an SVG
 * badge's text and title): visible controls, their "<U+XXXX>" form as
 * "&lt;U+XXXX&gt;", and & < > " ' as the predefined entities (XML 1.0,
 * section 2.4), so no markup can start inside it.
 */
void pd_esc_xml(FILE *f, const char *s);

#endif
