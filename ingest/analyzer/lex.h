/*
 * lex.h: a tolerant one-pass C/C++ lexer for the porting analysis.
 *
 * It turns raw file bytes into tokens without a preprocessor: comments are
 * skipped (or returned, with LEX_F_COMMENTS), string and char literals are
 * single tokens, backslash-newline continuations are spliced, and a '#' that
 * starts a line opens a directive whose end is reported as its own token.
 * Identifiers include numpy's template placeholders: `@TYPE@_getitem`,
 * `npy_@name@` and `@NAME@` are each one identifier ([A-Za-z_@] then
 * [A-Za-z0-9_@]).
 *
 * C99/C++ digraphs (<% %> <: :> %: %:%:) are read as the tokens they stand
 * for ({ } [ ] # ##, with the punct code of those); trigraphs are not
 * (compilers ignore them by default) but are counted, like the bytes that
 * make LEX_OTHER tokens, so the caller can say so.
 *
 * The lexer never fails and never reads outside [buf, buf+len): NUL bytes,
 * non-UTF-8 bytes, CRLF line ends, a missing final newline and unterminated
 * comments or literals are all tokenized somehow, and the last two are
 * counted in lex_state so the caller can report them.  Time is linear in the
 * input and no memory is allocated.
 */
#ifndef LEX_H
#define LEX_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    LEX_EOF = 0,
    LEX_IDENT,     /* identifier or keyword, template names included */
    LEX_NUMBER,    /* a preprocessing number: 0x1f, 1.5e-3, 1'000 */
    LEX_STRING,    /* "..." or a C++ raw string R"d(...)d" */
    LEX_CHAR,      /* '...' */
    LEX_PUNCT,     /* punctuator, see lex_token.punct */
    LEX_PP_BEGIN,  /* the '#' that opens a directive line */
    LEX_PP_END,    /* end of that directive (its newline, or EOF) */
    LEX_COMMENT,   /* a comment; only returned with LEX_F_COMMENTS */
    LEX_OTHER      /* any other byte: NUL, non-ASCII, '$', '`', stray '\' */
} lex_kind;

/* lex_init() flags. */
#define LEX_F_COMMENTS 0x1u  /* return comments as LEX_COMMENT tokens */
#define LEX_F_CPP      0x2u  /* C++: recognise raw string literals */

/* The code of a punctuator: its first byte, plus its second byte shifted
 * by 8 for the two-byte ones (->, ++, --, <<, >>, <=, >=, ==, !=, &&, ||,
 * ::, ##, and the compound assignments += -= *= /= %= &= |= ^=). */
#define LEX_P2(a, b) ((uint32_t)(unsigned char)(a) | \
                      ((uint32_t)(unsigned char)(b) << 8))

typedef struct {
    lex_kind kind;
    uint32_t punct;     /* LEX_PUNCT: '(' or LEX_P2('-', '>') ... */
    const char *start;  /* first byte, inside the input buffer */
    size_t len;         /* bytes, continuations included */
    uint32_t line;      /* 1-based line of the first byte */
    uint32_t column;    /* 1-based byte column of the first byte */
    int spliced;        /* 1 if a backslash-newline lies inside */
    uint32_t tmpl_tok;  /* 0 (the lexer's), or 1 + the template token a
                         * template's replay handed this one out for
                         * (tmpl_replay.h): its bytes are that token's,
                         * in every instance; a directive's '#' has it
                         * only when the whole directive has */
} lex_token;

typedef struct {
    const char *p;            /* next byte to read */
    const char *end;
    const char *stop;         /* last byte not in an identifier or blank run */
    const char *line_start;   /* first byte of the current physical line */
    uint32_t line;
    unsigned flags;
    int in_pp;                /* inside a directive line */
    int at_bol;               /* nothing but blanks/comments since newline */
    /* Problems seen so far (first line, count); read them after EOF. */
    uint32_t bad_comment_line;   /* unterminated block comment */
    uint32_t bad_literal_line;   /* string/char literal cut by a newline */
    uint32_t bad_literals;
    uint32_t bad_trigraph_line;  /* trigraphs (??<), not read as tokens */
    uint32_t bad_trigraphs;
    uint32_t other_line;         /* LEX_OTHER bytes outside directives */
    uint32_t other_bytes;
    uint32_t digraphs;           /* digraphs read as their tokens */
} lex_state;

/* Start lexing buf[0..len).  The buffer must outlive the state and its
 * tokens; it need not be NUL-terminated. */
void lex_init(lex_state *lx, const char *buf, size_t len, unsigned flags);

/* Read the next token into *tok.  After the end, returns LEX_EOF forever
 * (an open directive line first gets its LEX_PP_END). */
void lex_next(lex_state *lx, lex_token *tok);

/*
 * Copy the text of `tok` into dst (capacity cap > 0), removing
 * backslash-newline continuations, and NUL-terminate it.  Returns the full
 * length of the spliced text; when that is >= cap the copy was truncated.
 */
size_t lex_text(const lex_token *tok, char *dst, size_t cap);

/* Number of lines of buf[0..len): newlines, plus one for a last line that
 * has no newline. */
uint32_t lex_count_lines(const char *buf, size_t len);

#endif
