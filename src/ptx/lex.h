/* lex.h - PTX tokenizer.
 *
 * Works on a (pointer, length) buffer that need not be NUL-terminated and never
 * reads past it. Tokens refer back into the buffer by offset and length; numbers
 * are converted once here. Dotted names (`.reg`, `.global`, `.shared::cta`,
 * `.L2::128B`) are one token each, so `ld.global.u32` lexes as an identifier
 * followed by two dotted tokens.
 */
#ifndef WS_PTX_LEX_H
#define WS_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

typedef enum {
    TK_EOF,
    TK_ID,     /* foo, %r1, $L__BB0_1, _                                       */
    TK_DOT,    /* .reg, .u32, .x: text includes the dot                       */
    TK_INT,    /* integer constant: .u (64-bit two's complement)             */
    TK_FLT,    /* decimal floating constant: .f                               */
    TK_F32,    /* 0fXXXXXXXX: raw bits in .u                                  */
    TK_F64,    /* 0dXXXXXXXXXXXXXXXX: raw bits in .u                          */
    TK_STR,    /* "...": text includes the quotes                            */
    TK_COMMA, TK_SEMI, TK_COLON, TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK,
    TK_LBRACE, TK_RBRACE, TK_LT, TK_GT, TK_PLUS, TK_MINUS, TK_BANG, TK_AT,
    TK_PIPE, TK_EQ,
} lex_kind;

typedef struct {
    uint8_t kind;     /* lex_kind                                              */
    uint32_t off;     /* byte offset of the token in the buffer                */
    uint32_t len;     /* bytes                                                 */
    uint32_t line;    /* 1-based                                               */
    uint32_t col;     /* 1-based byte column                                   */
    uint64_t u;       /* TK_INT value, TK_F32 / TK_F64 bits                     */
    double f;         /* TK_FLT value                                          */
} lex_tok;

typedef struct {
    const char *s;
    size_t len, pos;
    uint32_t line;
    size_t line_start;  /* offset of the current line's first byte           */
} lexer;

/* Longest identifier or dotted name accepted. */
#define LEX_MAX_NAME 4096

void lex_init(lexer *lx, const char *s, size_t len);

/* Reads the next token into *t. Returns 0, or -1 with a message and position in
 * *d (bad character, unterminated string or comment, malformed number). */
int lex_next(lexer *lx, lex_tok *t, ptx_diag *d);

/* Skips raw text up to and including the '}' that closes a '{' already read,
 * honouring nested braces, strings and comments (used for `.section` bodies whose
 * content is not PTX). (line, col) locate the opening brace for the error. */
int lex_skip_braced(lexer *lx, ptx_diag *d, uint32_t line, uint32_t col);

#endif
