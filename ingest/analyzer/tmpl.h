/*
 * tmpl.h: expansion of numpy's `.c.src` / `.h.src` templates, with a map
 * from every byte of the expansion back to the template.
 *
 * The semantics are those of numpy's own processor
 * (numpy/distutils/conv_template.py), reimplemented here:
 *   - a loop starts with the comment `begin repeat` (level 0) or
 *     `begin repeatN` (level N), written after a slash and two stars; its
 *     header runs to the end of the line where that comment closes; its
 *     body runs to the comment `end repeat` (`end repeatN`), written with
 *     two stars on each side, and the rest of that end line is dropped;
 *   - the header's continuation lines lose their newline, blanks and one
 *     leading '*'; each `#name = v1, v2, ...#` gives one value per
 *     instance; `(a, b)*2` is `a, b, a, b` and `a*3` is `a, a, a`; values
 *     are stripped of blanks before the `*N` step;
 *   - the body is expanded once per instance, inner loops (level + 1)
 *     recursively; `@name@` is replaced by the value of `name`, an outer
 *     loop's value winning over an inner one of the same name.
 * Where numpy's script would stop with an error (a name without a value,
 * lists of different lengths, a header without names), this expander
 * goes on: an unknown `@name@` stays as written, lists are cut to the
 * shortest, a header without names gives one literal instance; each case
 * is counted in the note.  A loop without its end marker (or with end
 * markers out of order) is noted and the rest left as written, where
 * numpy's script expands it to the end of the file.  Like numpy, `:exclude:` lines are ignored.
 *
 * Limits, so that time and memory stay linear in the input: at most 8
 * nesting levels, and an expansion larger than 128 times the input plus
 * 4 MB is abandoned (the caller analyses the template text instead).
 * numpy's largest, lowlevel_strided_loops.c.src, grows 93 times (56 KB
 * to 5.3 MB).
 */
#ifndef TMPL_H
#define TMPL_H

#include <stddef.h>
#include <stdint.h>

/* One piece of the expansion: bytes [exp_off, exp_off+len) come from the
 * template at src_off (copied: byte k from src_off+k; substituted: all
 * from src_off, the '@' of the placeholder). */
typedef struct {
    uint32_t exp_off, src_off, len;
    uint32_t subst;
} tmpl_seg;

typedef struct {
    char *text;             /* the expansion (not NUL-terminated) */
    size_t len;
    tmpl_seg *segs;         /* in expansion order, covering [0, len) */
    size_t nsegs;
    uint32_t *exp_lines;    /* offset of each line start in text */
    size_t nexp_lines;
    uint32_t *src_lines;    /* offset of each line start in the template */
    size_t nsrc_lines;
    uint32_t *bodies;       /* start and end offsets of the body of each
                             * outermost loop in the template, in order */
    size_t nbodies;
    size_t loops;           /* loops expanded (all levels) */
    size_t instances;       /* loop bodies emitted (all levels) */
    size_t unknown_names;   /* @name@ kept as written */
    size_t bad_headers;     /* mismatched lists or no names */
    int too_large;          /* expansion abandoned (see above) */
    uint32_t unterminated_line; /* a loop without its end: its line, or 0 */
} tmpl_out;

/*
 * Expand template buf[0..len).  On success returns 0 and *out is a new
 * expansion freed with tmpl_free(), or NULL when buf has no loop (nothing to
 * expand) or the expansion was abandoned; in the latter case *too_large is
 * set to 1 (too_large may be NULL).  Returns PD_ENOMEM on allocation failure.
 */
int tmpl_expand(tmpl_out **out, int *too_large, const char *buf, size_t len);

/*
 * The offsets of the line starts of s[0..n) into *out, a new array of
 * *nout entries (the first 0; each newline gives the offset after it, a
 * last one too), freed with free().  0 or PD_ENOMEM (tmpl_map.c).
 */
int tmpl_lines(uint32_t **out, size_t *nout, const char *s, size_t n);

/* The 0-based index of the last line start <= off in lines[0..n). */
size_t tmpl_line_of(const uint32_t *lines, size_t n, size_t off);

/* Map 1-based line:column of the expansion to the template (1-based).
 * Positions past the end map to the template's last byte. */
void tmpl_map(const tmpl_out *t, uint32_t line, uint32_t column,
              uint32_t *out_line, uint32_t *out_column);

/* Where tmpl_map_near last found a position: zero it before the first
 * call on an expansion. */
typedef struct {
    size_t seg, line;
} tmpl_near;

/* tmpl_map for positions taken one after another, each looked for from
 * where the last one was found (*near): as fast as the positions are
 * near each other (the findings of a walk, in its order), never wrong. */
void tmpl_map_near(const tmpl_out *t, tmpl_near *near, uint32_t line,
                   uint32_t column, uint32_t *out_line, uint32_t *out_column);

/* The template line of a whole line of the expansion (1-based, as
 * tmpl_map_near finds it, *near likewise): the line's first byte that is
 * not a blank or tab, or its start when it is all blank.  A line of the
 * expansion can begin with the indentation of a loop's begin marker
 * (`    /` + `**begin repeat1`) and go on with the loop's first instance:
 * read at its start, the first instance's first line was the marker's
 * (numpy's loops_minmax.dispatch.c.src, found by a newcomer's check).  Not
 * the line's last byte: a macro's use (mexp.h) can have file text after
 * it on the line of its body's last. */
uint32_t tmpl_map_line(const tmpl_out *t, tmpl_near *near, uint32_t line);

/* Free; accepts NULL. */
void tmpl_free(tmpl_out *t);

#endif
