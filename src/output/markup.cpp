// Markup text (markup.h).
#include "markup.h"

#include <utf8proc.h>

namespace eruplan {

std::string markup_text(std::string_view text) {
  std::string out;
  auto at = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  auto left = static_cast<utf8proc_ssize_t>(text.size());
  while (left > 0) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(at, left, &c);
    const bool allowed =
        n > 0 && (c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0xD800) ||
                  (c >= 0xE000 && c < 0xFFFE) || c >= 0x10000);
    if (!allowed) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[*at >> 4];
      out += kHex[*at & 15];
      ++at;
      --left;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.append(reinterpret_cast<const char*>(at), static_cast<std::size_t>(n));
    }
    at += n;
    left -= n;
  }
  return out;
}

}  // namespace eruplan
