// The JSON reader's two inner loops, 16 bytes at a time where the CPU has
// SSE2 (every x86-64 does), else a byte at a time: the JSON spaces at the
// start of a text, and the bytes of a string up to the first one that needs
// a second look. A pod list as kubectl prints it is about half indentation,
// and most of the rest is plain ASCII strings.
//
// And the newlines of a stretch of text, for the line numbers of a file read
// a piece at a time.
//
// All read only [p, end) and stop at `end` at the latest; the plain
// versions (`_scalar`) are the reference the tests hold the fast ones to.
#pragma once

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace eruplan {

inline bool is_json_space_byte(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A byte a string's fast path stops at: the closing quote, an escape, a
// control character (never allowed raw), or the first byte of UTF-8 (checked
// on the slow path).
inline bool is_string_special_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u == '"' || u == '\\' || u < 0x20 || u >= 0x80;
}

inline const char* skip_json_space_scalar(const char* p, const char* end) {
  while (p != end && is_json_space_byte(*p)) ++p;
  return p;
}

inline const char* find_string_special_scalar(const char* p, const char* end) {
  while (p != end && !is_string_special_byte(*p)) ++p;
  return p;
}

inline std::size_t count_newlines_scalar(const char* p, const char* end) {
  std::size_t n = 0;
  for (; p != end; ++p) n += *p == '\n';
  return n;
}

#if defined(__SSE2__)

// The '\n' bytes in [p, end): byte counters 16 at a time (64 bytes a
// step), summed every 255 blocks of 16 (before they could wrap) and at the end.
inline std::size_t count_newlines(const char* p, const char* end) {
  const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  std::size_t n = 0;
  auto match = [&](const char* at) {  // -1 per newline
    return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)), nl);
  };
  while (end - p >= 16) {
    __m128i counts = zero;
    int blocks = 0;  // of 16 bytes added to the counters, at most 255
    for (; blocks <= 255 - 4 && end - p >= 64; blocks += 4, p += 64)
      counts = _mm_sub_epi8(_mm_sub_epi8(counts, _mm_add_epi8(match(p), match(p + 16))),
                            _mm_add_epi8(match(p + 32), match(p + 48)));
    for (; blocks < 255 && end - p >= 16; ++blocks, p += 16)
      counts = _mm_sub_epi8(counts, match(p));
    const __m128i sums = _mm_sad_epu8(counts, zero);  // two 64-bit sums
    n += static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
         static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
  return n + count_newlines_scalar(p, end);
}

// The first byte in [p, end) that is not a JSON space, or end.
inline const char* skip_json_space(const char* p, const char* end) {
  const __m128i space = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                tab = _mm_set1_epi8('\t');
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i is_space =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, space), _mm_cmpeq_epi8(x, nl)),
                     _mm_or_si128(_mm_cmpeq_epi8(x, cr), _mm_cmpeq_epi8(x, tab)));
    const auto other = static_cast<unsigned>(~_mm_movemask_epi8(is_space)) & 0xFFFFu;
    if (other != 0) return p + __builtin_ctz(other);
    p += 16;
  }
  return skip_json_space_scalar(p, end);
}

// The first byte in [p, end) that is_string_special_byte, or end.
inline const char* find_string_special(const char* p, const char* end) {
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                low = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed bytes: below 0x20 is a control character or, negative, 0x80-0xFF.
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                     _mm_cmplt_epi8(x, low));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
  return find_string_special_scalar(p, end);
}

#else

inline std::size_t count_newlines(const char* p, const char* end) {
  return count_newlines_scalar(p, end);
}
inline const char* skip_json_space(const char* p, const char* end) {
  return skip_json_space_scalar(p, end);
}
inline const char* find_string_special(const char* p, const char* end) {
  return find_string_special_scalar(p, end);
}

#endif

}  // namespace eruplan
