// markup_text: the one escaper of the JUnit (XML) and HTML reports.
#include "markup.h"

#include <doctest/doctest.h>

#include <string>

using namespace eruplan;

TEST_CASE("markup text: the five special characters as references") {
  CHECK(markup_text(R"(<a href="x">Tom & 'Jerry'</a>)") ==
        "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
  CHECK(markup_text("") == "");
  CHECK(markup_text("node-1") == "node-1");
}

TEST_CASE("markup text: what XML cannot hold is written as \\xNN, the rest kept") {
  // Tab, LF and CR are allowed; other controls are not.
  CHECK(markup_text("a\tb\nc\rd") == "a\tb\nc\rd");
  CHECK(markup_text(std::string("a\x01"
                                "b\x1f",
                                4)) == "a\\x01b\\x1f");
  // Multi-byte UTF-8 is kept (é, 节点, an emoji outside the BMP).
  CHECK(markup_text("\xc3\xa9 \xe8\x8a\x82\xe7\x82\xb9 \xf0\x9f\x98\x80") ==
        "\xc3\xa9 \xe8\x8a\x82\xe7\x82\xb9 \xf0\x9f\x98\x80");
  // Invalid UTF-8 (a lone continuation byte, a truncated sequence) and the
  // non-characters U+FFFE/U+FFFF, byte by byte.
  CHECK(markup_text("a\x80z") == "a\\x80z");
  CHECK(markup_text("\xe8\x8a") == "\\xe8\\x8a");
  CHECK(markup_text("\xef\xbf\xbe") == "\\xef\\xbf\\xbe");
}
