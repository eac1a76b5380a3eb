/* lex.c - PTX tokenizer (see lex.h). */
#include "ptx/lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lex_init(lexer *lx, const char *s, size_t len)
{
    lx->s = s;
    lx->len = len;
    lx->pos = 0;
    lx->line = 1;
    lx->line_start = 0;
    if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) /* UTF-8 byte order mark */
        lx->pos = lx->line_start = 3;
}

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_follow(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }
static int hex_val(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static uint32_t col_of(const lexer *lx, size_t pos) { return (uint32_t)(pos - lx->line_start + 1); }

static int fail(ptx_diag *d, uint32_t line, uint32_t col, const char *msg, int c)
{
    if (c < 0)
        snprintf(d->msg, sizeof d->msg, "%s", msg);
    else if (c > 0x20 && c < 0x7f)
        snprintf(d->msg, sizeof d->msg, "%s '%c'", msg, c);
    else
        snprintf(d->msg, sizeof d->msg, "%s (byte 0x%02x)", msg, c & 0xff);
    d->line = line;
    d->col = col;
    return -1;
}

/* Skips the block comment that starts at *pp, keeping line numbers; an
 * unterminated one is an error at its start. */
static int skip_block_comment(lexer *lx, size_t *pp, ptx_diag *d)
{
    const char *s = lx->s;
    size_t p = *pp, n = lx->len;
    uint32_t line = lx->line, col = col_of(lx, p);
    for (p += 2;; p++) {
        if (p + 1 >= n) {
            lx->pos = n;
            return fail(d, line, col, "unterminated comment", -1);
        }
        if (s[p] == '*' && s[p + 1] == '/') {
            *pp = p + 2;
            return 0;
        }
        if (s[p] == '\n') {
            lx->line++;
            lx->line_start = p + 1;
        }
    }
}

/* Skips whitespace and comments. Returns -1 on an unterminated block comment. */
static int skip_space(lexer *lx, ptx_diag *d)
{
    const char *s = lx->s;
    size_t n = lx->len, p = lx->pos;
    for (;;) {
        while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\n' ||
                         s[p] == '\f' || s[p] == '\v')) {
            if (s[p] == '\n') {
                lx->line++;
                lx->line_start = p + 1;
            }
            p++;
        }
        if (p + 1 < n && s[p] == '/' && s[p + 1] == '/') {
            p += 2;
            while (p < n && s[p] != '\n')
                p++;
            continue;
        }
        if (p + 1 < n && s[p] == '/' && s[p + 1] == '*') {
            if (skip_block_comment(lx, &p, d))
                return -1;
            continue;
        }
        break;
    }
    lx->pos = p;
    return 0;
}

/* Number starting at lx->pos (a digit, or '.' followed by a digit). */
static int lex_number(lexer *lx, lex_tok *t, ptx_diag *d)
{
    const char *s = lx->s;
    size_t n = lx->len, p = lx->pos, start = p;
    uint64_t v = 0;

    t->kind = TK_INT;
    if (s[p] == '0' && p + 1 < n && (s[p + 1] == 'f' || s[p + 1] == 'F' || s[p + 1] == 'd' ||
                                     s[p + 1] == 'D')) {
        int digits = (s[p + 1] == 'f' || s[p + 1] == 'F') ? 8 : 16;
        p += 2;
        for (int i = 0; i < digits; i++, p++) {
            int h = p < n ? hex_val((unsigned char)s[p]) : -1;
            if (h < 0)
                return fail(d, lx->line, col_of(lx, start),
                            digits == 8 ? "malformed 0f constant (needs 8 hex digits)"
                                        : "malformed 0d constant (needs 16 hex digits)", -1);
            v = v << 4 | (uint64_t)h;
        }
        t->kind = digits == 8 ? TK_F32 : TK_F64;
    } else if (s[p] == '0' && p + 1 < n && (s[p + 1] == 'x' || s[p + 1] == 'X' ||
                                            s[p + 1] == 'b' || s[p + 1] == 'B')) {
        int bin = s[p + 1] == 'b' || s[p + 1] == 'B';
        int nd = 0;
        p += 2;
        for (; p < n; p++, nd++) {
            int h = hex_val((unsigned char)s[p]);
            if (h < 0 || (bin && h > 1))
                break;
            if (v >> (bin ? 63 : 60))
                return fail(d, lx->line, col_of(lx, start), "integer constant out of range", -1);
            v = bin ? (v << 1 | (uint64_t)h) : (v << 4 | (uint64_t)h);
        }
        if (!nd)
            return fail(d, lx->line, col_of(lx, start), "malformed integer constant", -1);
    } else {
        size_t q = p;
        while (q < n && is_digit((unsigned char)s[q]))
            q++;
        int is_flt = 0;
        if (q < n && s[q] == '.' && (q + 1 >= n || !is_alpha((unsigned char)s[q + 1]) ||
                                     s[q + 1] == 'e' || s[q + 1] == 'E'))
            is_flt = 1;
        if (q < n && (s[q] == 'e' || s[q] == 'E'))
            is_flt = 1;
        if (is_flt) {
            /* [digits][.digits][e[+-]digits] */
            size_t r = q;
            if (r < n && s[r] == '.') {
                r++;
                while (r < n && is_digit((unsigned char)s[r]))
                    r++;
            }
            if (r < n && (s[r] == 'e' || s[r] == 'E')) {
                r++;
                if (r < n && (s[r] == '+' || s[r] == '-'))
                    r++;
                if (r >= n || !is_digit((unsigned char)s[r]))
                    return fail(d, lx->line, col_of(lx, start), "malformed floating constant", -1);
                while (r < n && is_digit((unsigned char)s[r]))
                    r++;
            }
            char buf[80];
            if (r - start >= sizeof buf)
                return fail(d, lx->line, col_of(lx, start), "floating constant too long", -1);
            memcpy(buf, s + start, r - start);
            buf[r - start] = 0;
            t->kind = TK_FLT;
            t->f = strtod(buf, NULL);
            p = r;
        } else if (s[p] == '0' && q - p > 1) {
            for (p++; p < q; p++) {
                if (s[p] > '7')
                    return fail(d, lx->line, col_of(lx, start), "malformed octal constant", -1);
                if (v >> 61)
                    return fail(d, lx->line, col_of(lx, start), "integer constant out of range", -1);
                v = v << 3 | (uint64_t)(s[p] - '0');
            }
        } else {
            for (; p < q; p++) {
                uint64_t dgt = (uint64_t)(s[p] - '0');
                if (v > (UINT64_MAX - dgt) / 10)
                    return fail(d, lx->line, col_of(lx, start), "integer constant out of range", -1);
                v = v * 10 + dgt;
            }
        }
    }
    if (t->kind == TK_INT && p < n && s[p] == 'U')
        p++;
    if (p < n && (is_follow((unsigned char)s[p]) || s[p] == '.'))
        return fail(d, lx->line, col_of(lx, start), "malformed numeric constant", -1);
    t->u = v;
    t->len = (uint32_t)(p - start);
    lx->pos = p;
    return 0;
}

int lex_next(lexer *lx, lex_tok *t, ptx_diag *d)
{
    memset(t, 0, sizeof *t);
    if (skip_space(lx, d))
        return -1;
    const char *s = lx->s;
    size_t n = lx->len, p = lx->pos;
    t->off = (uint32_t)p;
    t->line = lx->line;
    t->col = col_of(lx, p);
    if (p >= n) {
        t->kind = TK_EOF;
        return 0;
    }
    int c = (unsigned char)s[p];
    if (is_alpha(c) || c == '_' || c == '$' || c == '%') {
        size_t q = p + 1;
        while (q < n && is_follow((unsigned char)s[q]))
            q++;
        if (c == '%' && q == p + 1)
            return fail(d, t->line, t->col, "unexpected character", c);
        if (q - p > LEX_MAX_NAME)
            return fail(d, t->line, t->col, "identifier too long", -1);
        t->kind = TK_ID;
        t->len = (uint32_t)(q - p);
        lx->pos = q;
        return 0;
    }
    /* '.' + digits + a letter is a modifier (.1d, .2d, .3d of tex/sust), not a number */
    size_t dd = p + 1;
    while (c == '.' && dd < n && is_digit((unsigned char)s[dd]))
        dd++;
    int dot_mod = c == '.' && dd > p + 1 && dd < n && is_alpha((unsigned char)s[dd]);
    if (!dot_mod && (is_digit(c) || (c == '.' && p + 1 < n && is_digit((unsigned char)s[p + 1]))))
        return lex_number(lx, t, d);
    if (c == '.') {
        size_t q = p + 1;
        if (q >= n || !(dot_mod || is_alpha((unsigned char)s[q]) || s[q] == '_' || s[q] == '$'))
            return fail(d, t->line, t->col, "unexpected character", c);
        while (q < n && is_follow((unsigned char)s[q]))
            q++;
        while (q + 2 < n && s[q] == ':' && s[q + 1] == ':' && is_follow((unsigned char)s[q + 2])) {
            q += 2;
            while (q < n && is_follow((unsigned char)s[q]))
                q++;
        }
        if (q - p > LEX_MAX_NAME)
            return fail(d, t->line, t->col, "identifier too long", -1);
        t->kind = TK_DOT;
        t->len = (uint32_t)(q - p);
        lx->pos = q;
        return 0;
    }
    if (c == '"') {
        size_t q = p + 1;
        for (;;) {
            if (q >= n || s[q] == '\n')
                return fail(d, t->line, t->col, "unterminated string", -1);
            if (s[q] == '\\' && q + 1 < n && s[q + 1] != '\n') {
                q += 2;
                continue;
            }
            if (s[q] == '"')
                break;
            q++;
        }
        t->kind = TK_STR;
        t->len = (uint32_t)(q + 1 - p);
        lx->pos = q + 1;
        return 0;
    }
    static const char punct[] = ",;:()[]{}<>+-!@|=";
    static const uint8_t kinds[] = {TK_COMMA, TK_SEMI, TK_COLON, TK_LPAREN, TK_RPAREN,
                                    TK_LBRACK, TK_RBRACK, TK_LBRACE, TK_RBRACE, TK_LT,
                                    TK_GT, TK_PLUS, TK_MINUS, TK_BANG, TK_AT, TK_PIPE, TK_EQ};
    const char *hit = c ? strchr(punct, c) : NULL;
    if (!hit)
        return fail(d, t->line, t->col, "unexpected character", c);
    t->kind = kinds[hit - punct];
    t->len = 1;
    lx->pos = p + 1;
    return 0;
}

int lex_skip_braced(lexer *lx, ptx_diag *d, uint32_t line, uint32_t col)
{
    const char *s = lx->s;
    size_t n = lx->len, p = lx->pos;
    unsigned depth = 1;
    while (p < n) {
        char c = s[p];
        if (c == '\n') {
            lx->line++;
            lx->line_start = p + 1;
            p++;
        } else if (c == '"') {
            for (p++; p < n && s[p] != '"' && s[p] != '\n'; p++)
                if (s[p] == '\\' && p + 1 < n && s[p + 1] != '\n')
                    p++;
            if (p < n && s[p] == '"')
                p++;
        } else if (c == '/' && p + 1 < n && s[p + 1] == '/') {
            while (p < n && s[p] != '\n')
                p++;
        } else if (c == '/' && p + 1 < n && s[p + 1] == '*') {
            if (skip_block_comment(lx, &p, d))
                return -1;
        } else {
            p++;
            if (c == '{')
                depth++;
            else if (c == '}' && --depth == 0) {
                lx->pos = p;
                return 0;
            }
        }
    }
    lx->pos = n;
    return fail(d, line, col, "unterminated '{' block", -1);
}
