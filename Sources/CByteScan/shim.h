/* Byte scans for the page source reader (TandemImport's XMLScanner, Docs/import.md#reader):
   16 bytes classified at once, as a bit mask (bit k: byte k). Swift's SIMD types compare
   lanes but give no mask, so these are C: SSE2 (part of every x86_64) where the compiler has
   it, a plain loop elsewhere (aarch64), with the same answers. Header only: nothing linked. */
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The bytes of p[0..<16] an attribute value's loop must stop at: `quote`, '<', '&', a byte
   under 0x20 (tab, line break, characters XML forbids) or at or over 0x80 (UTF-8 to check). */
static inline uint32_t cbytescan_value_stops16(const uint8_t *p, uint8_t quote) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    /* As signed bytes, 0x80-0xFF are negative: one compare finds them and the controls. */
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)quote)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
    return (uint32_t)_mm_movemask_epi8(m);
#else
    uint32_t mask = 0;
    for (int k = 0; k < 16; k++) {
        uint8_t b = p[k];
        if (b < 0x20 || b >= 0x80 || b == quote || b == '<' || b == '&') mask |= 1u << k;
    }
    return mask;
#endif
}

/* The bytes of p[0..<16] that are not an ASCII name character (letters, digits, '-', '.',
   '_', ':'; a byte at or over 0x80 is not one here): where a name written in ASCII ends. */
static inline uint32_t cbytescan_not_name16(const uint8_t *p) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    /* '-' '.' '/' '0'-'9' ':' (0x2D-0x3A) without '/'; as signed bytes 0x80-0xFF are below. */
    __m128i punct = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x2C)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x3B)));
    punct = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), punct);
    /* Letters: with 0x20 set, 'a'-'z' (0x61-0x7A). */
    __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8(0x60)), _mm_cmplt_epi8(lower, _mm_set1_epi8(0x7B)));
    __m128i name = _mm_or_si128(_mm_or_si128(punct, letter), _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    return (uint32_t)(~_mm_movemask_epi8(name)) & 0xFFFFu;
#else
    uint32_t mask = 0;
    for (int k = 0; k < 16; k++) {
        uint8_t b = p[k], l = b | 0x20;
        int name = (l >= 'a' && l <= 'z') || (b >= '0' && b <= ':') || b == '-' || b == '.' || b == '_';
        if (!name) mask |= 1u << k;
    }
    return mask;
#endif
}

/* Whether the `count` bytes at a and at b are the same; `end` is the end of the buffer both
   are in (16 bytes are read at a time where they are there, the bytes past `count` ignored). */
static inline int cbytescan_equal(const uint8_t *a, const uint8_t *b, long count, const uint8_t *end) {
#if defined(__SSE2__)
    long k = 0;
    if (count >= 16) {
        /* 16 bytes a step, the last step the last 16 bytes (over some already compared). */
        for (; k + 16 < count; k += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(a + k));
            __m128i y = _mm_loadu_si128((const __m128i *)(b + k));
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) != 0xFFFF) return 0;
        }
        __m128i x = _mm_loadu_si128((const __m128i *)(a + count - 16));
        __m128i y = _mm_loadu_si128((const __m128i *)(b + count - 16));
        return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xFFFF;
    }
    long rest = count;
    if (rest == 0) return 1;
    if (a + k + 16 <= end && b + k + 16 <= end) {
        __m128i x = _mm_loadu_si128((const __m128i *)(a + k));
        __m128i y = _mm_loadu_si128((const __m128i *)(b + k));
        uint32_t differ = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y));
        return (differ & ((1u << rest) - 1)) == 0;
    }
    return memcmp(a + k, b + k, (size_t)rest) == 0;
#else
    (void)end;
    return memcmp(a, b, (size_t)count) == 0;
#endif
}

/* Whether the first `count` bytes (0 < count <= 16) at a and at b are the same; 16 bytes must be
   readable at both (the bytes past `count` are ignored). */
static inline int cbytescan_same16(const uint8_t *a, const uint8_t *b, long count) {
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)a);
    __m128i y = _mm_loadu_si128((const __m128i *)b);
    uint32_t differ = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) & 0xFFFFu;
    return (differ & (uint32_t)((1u << count) - 1)) == 0;
#else
    return memcmp(a, b, (size_t)count) == 0;
#endif
}

/* `cbytescan_value_stops16` in the low 16 bits and, in the high 16, which of the bytes are
   `quote`: whether the first stop is the closing quote is then a bit, not a byte read again. */
static inline uint32_t cbytescan_value_stops_quotes16(const uint8_t *p, uint8_t quote) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i q = _mm_cmpeq_epi8(v, _mm_set1_epi8((char)quote));
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    m = _mm_or_si128(m, q);
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
    return (uint32_t)_mm_movemask_epi8(m) | ((uint32_t)_mm_movemask_epi8(q) << 16);
#else
    uint32_t quotes = 0;
    for (int k = 0; k < 16; k++) if (p[k] == quote) quotes |= 1u << k;
    return cbytescan_value_stops16(p, quote) | (quotes << 16);
#endif
}

/* Text between tags as page sources indent it: in the low 16 bits, the bytes of p[0..<16] that
   are neither a space nor a line feed (where the skip stops), in the high 16, the line feeds
   (the lines passed, counted by popcount). */
static inline uint32_t cbytescan_blanks16(const uint8_t *p) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i space = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
    __m128i feed = _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'));
    uint32_t blank = (uint32_t)_mm_movemask_epi8(_mm_or_si128(space, feed));
    return (~blank & 0xFFFFu) | ((uint32_t)_mm_movemask_epi8(feed) << 16);
#else
    uint32_t mask = 0;
    for (int k = 0; k < 16; k++) {
        if (p[k] != ' ' && p[k] != '\n') mask |= 1u << k;
        if (p[k] == '\n') mask |= 1u << (k + 16);
    }
    return mask;
#endif
}

/* How many bytes at a and at b, up to max, are the same before the first that differs (a
   run of attributes repeated from an earlier tag, found with one compare). */
static inline long cbytescan_common_prefix(const uint8_t *a, const uint8_t *b, long max) {
    long k = 0;
#if defined(__SSE2__)
    for (; k + 32 <= max; k += 32) {
        __m128i x0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(a + k)), _mm_loadu_si128((const __m128i *)(b + k)));
        __m128i x1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(a + k + 16)), _mm_loadu_si128((const __m128i *)(b + k + 16)));
        uint32_t same = (uint32_t)_mm_movemask_epi8(x0) | ((uint32_t)_mm_movemask_epi8(x1) << 16);
        if (same != 0xFFFFFFFFu) return k + __builtin_ctz(~same);
    }
    if (k + 16 <= max) {
        uint32_t same = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(a + k)), _mm_loadu_si128((const __m128i *)(b + k))));
        if (same != 0xFFFFu) return k + __builtin_ctz(~same);
        k += 16;
    }
#endif
    while (k < max && a[k] == b[k]) k++;
    return k;
}

/* Asks for the cache line holding p to be fetched ahead of its use (a hint: nothing is read). */
static inline void cbytescan_prefetch(const void *p) {
    __builtin_prefetch(p, 0, 3);
}
