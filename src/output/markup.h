// Text for the markup eruplan writes: the JUnit report (XML 1.0) and the
// HTML report (SPEC §14) escape their text with the same rules.
#pragma once

#include <string>
#include <string_view>

namespace eruplan {

// `text` as character data or an attribute value (either quote) of XML 1.0
// or HTML: & < > " ' as references (&#39;, which HTML 4 also knows), and
// every byte XML cannot hold (controls other than tab, LF and CR, invalid
// UTF-8, U+FFFE/U+FFFF and surrogates) written as \xNN, so the document
// always parses.
std::string markup_text(std::string_view text);

}  // namespace eruplan
