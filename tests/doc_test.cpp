#include "doc.h"

#include <doctest/doctest.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

using namespace eruplan;

namespace {

struct Parsed {
  Source source;  // the doc points into it
  std::optional<Doc> doc;
  Diagnostics diags;
};

std::unique_ptr<Parsed> parse(std::string name, std::string text,
                              InputFormat format = InputFormat::Auto) {
  auto p = std::make_unique<Parsed>();
  p->source = Source{std::move(name), std::move(text), format};
  p->doc = parse_document(p->source, p->diags);
  return p;
}

// The member of an object by key, or kNoValue.
ValueId get(const Doc& doc, ValueId object, std::string_view key) {
  for (std::uint32_t i = 0; i < doc.size(object); ++i)
    if (doc.text(doc.key(object, i)) == key) return doc.member(object, i);
  return kNoValue;
}

std::string at(const Doc& doc, ValueId v) {
  const auto [line, col] = doc.line_col(doc[v].pos);
  return std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace

TEST_CASE("JSON: kinds, text and positions") {
  auto p = parse("in.json",
                 "{\n  \"a\": 12,\n  \"b\": [true, null, \"x\"],\n  \"c\": {\"d\": -1.5e3}\n}");
  REQUIRE(p->doc);
  const Doc& doc = *p->doc;
  const ValueId root = doc.root();
  CHECK(doc[root].kind == ValueKind::Object);
  CHECK(doc.size(root) == 3);
  const ValueId a = get(doc, root, "a");
  CHECK(doc[a].kind == ValueKind::Number);
  CHECK(doc.text(a) == "12");
  CHECK(at(doc, a) == "2:8");
  CHECK(at(doc, doc.key(root, 0)) == "2:3");
  const ValueId b = get(doc, root, "b");
  CHECK(doc[b].kind == ValueKind::Array);
  CHECK(at(doc, b) == "3:8");
  REQUIRE(doc.size(b) == 3);
  CHECK(doc[doc.element(b, 0)].kind == ValueKind::Bool);
  CHECK(doc[doc.element(b, 0)].flag);
  CHECK(at(doc, doc.element(b, 1)) == "3:15");
  CHECK(doc[doc.element(b, 1)].kind == ValueKind::Null);
  CHECK(doc.text(doc.element(b, 2)) == "x");
  CHECK(at(doc, doc.element(b, 2)) == "3:21");
  const ValueId d = get(doc, get(doc, root, "c"), "d");
  CHECK(doc.text(d) == "-1.5e3");
  CHECK(at(doc, d) == "4:14");
}

TEST_CASE("JSON: escaped strings take the full parser and keep the same positions") {
  const std::string plain = "{\"k\": [1, \"v\", 2.5]}";
  const std::string escaped = "{\"k\": [1, \"v\", 2.5], \"e\": \"a\\\"b\\u00e9\"}";
  auto p1 = parse("a.json", plain);
  auto p2 = parse("b.json", escaped);
  REQUIRE(p1->doc);
  REQUIRE(p2->doc);
  for (const Doc* doc : {&*p1->doc, &*p2->doc}) {
    const ValueId k = get(*doc, doc->root(), "k");
    CHECK(at(*doc, k) == "1:7");
    CHECK(at(*doc, doc->element(k, 1)) == "1:11");
    CHECK(doc->text(doc->element(k, 2)) == "2.5");
    CHECK(at(*doc, doc->element(k, 2)) == "1:16");
  }
  const Doc& doc = *p2->doc;
  const ValueId e = get(doc, doc.root(), "e");
  CHECK(doc.text(e) == "a\"b\xC3\xA9");
  CHECK(at(doc, e) == "1:27");
}

TEST_CASE("JSON: non-ASCII text and a byte-order mark") {
  auto p = parse("u.json", "\xEF\xBB\xBF{\"zone\": \"s\xC3\xBC\x64\", \"n\": 1}");
  REQUIRE(p->doc);
  const Doc& doc = *p->doc;
  CHECK(doc.text(get(doc, doc.root(), "zone")) == "s\xC3\xBC\x64");
  CHECK(at(doc, get(doc, doc.root(), "n")) == "1:26");
}

TEST_CASE("JSON: malformed input is reported with line and column") {
  auto p = parse("bad.json", "{\n  \"a\": 1,\n  \"b\": }\n}");
  CHECK_FALSE(p->doc);
  REQUIRE(p->diags.items().size() == 1);
  const std::string line = p->diags.to_string();
  CHECK(line.find("bad.json:3:8: error: malformed JSON: ") == 0);
  CHECK(line == "bad.json:3:8: error: malformed JSON: expected a value, found '}'\n");

  auto trailing = parse("t.json", "{\"a\": 1} x");
  CHECK_FALSE(trailing->doc);
  CHECK(trailing->diags.to_string().find("t.json:1:10: error: malformed JSON") == 0);

  auto empty = parse("e.json", "");
  CHECK_FALSE(empty->doc);
  CHECK(empty->diags.to_string().find("malformed JSON") != std::string::npos);

  auto control = parse("c.json", "{\"a\": \"x\ty\"}");
  CHECK_FALSE(control->doc);
  CHECK(control->diags.to_string().find("c.json:1:") == 0);

  auto leading_zero = parse("z.json", "[01]");
  CHECK_FALSE(leading_zero->doc);
}

TEST_CASE("JSON: deep nesting neither recurses nor crashes") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto p = parse("deep.json", deep);
  REQUIRE(p->doc);
  CHECK(p->doc->size(p->doc->root()) == 1);
}

TEST_CASE("YAML: kinds, plain scalars and positions") {
  auto p = parse("in.yaml", "a: 12\nb: [true, \"x\", ~]\nc:\n  d: 8Gi\n  e: 'q'\nf:\n");
  REQUIRE(p->doc);
  const Doc& doc = *p->doc;
  const ValueId a = get(doc, doc.root(), "a");
  CHECK(doc[a].kind == ValueKind::String);
  CHECK(doc[a].plain);
  CHECK(doc.text(a) == "12");
  CHECK(at(doc, a) == "1:4");
  const ValueId b = get(doc, doc.root(), "b");
  CHECK(doc[doc.element(b, 0)].plain);
  CHECK_FALSE(doc[doc.element(b, 1)].plain);  // quoted: a string, whatever it says
  CHECK(doc[doc.element(b, 2)].kind == ValueKind::Null);
  const ValueId c = get(doc, doc.root(), "c");
  CHECK(at(doc, get(doc, c, "d")) == "4:6");
  CHECK(doc.text(get(doc, c, "e")) == "q");
  // An empty value is placed at its key, not at the next line.
  const ValueId f = get(doc, doc.root(), "f");
  CHECK(doc[f].kind == ValueKind::Null);
  CHECK(at(doc, f) == "6:1");
}

TEST_CASE("YAML: malformed input, several documents, alias loops and bombs") {
  auto bad = parse("bad.yaml", "a: [1, 2\nb: 3\n");
  CHECK_FALSE(bad->doc);
  CHECK(bad->diags.to_string().find("bad.yaml:") == 0);
  CHECK(bad->diags.to_string().find("error: malformed YAML: ") != std::string::npos);

  auto tab = parse("tab.yaml", "a:\n\t- 1\n");
  CHECK_FALSE(tab->doc);
  CHECK(tab->diags.to_string().find("tab.yaml:2:") == 0);

  auto two = parse("two.yaml", "a: 1\n---\nb: 2\n");
  CHECK_FALSE(two->doc);
  CHECK(two->diags.to_string() ==
        "two.yaml:2:1: error: documents[1]: malformed YAML: the file holds more than one document "
        "(separated by "
        "---); expected one\n");

  // Documents are counted as written: an empty one between is one too.
  auto three = parse("three.yaml", "a: 1\n---\n---\nb: 2\n");
  CHECK_FALSE(three->doc);
  CHECK(three->diags.to_string().find("three.yaml:3:1: error: documents[2]: malformed YAML: ") ==
        0);

  auto trailing = parse("t.yaml", "a: 1\n---\n");  // a trailing empty document is harmless
  CHECK(trailing->doc);

  // yaml-cpp alone would loop forever on a stray comma after a top-level value.
  auto comma = parse("c.yaml", "{\"a\": 1},\n");
  CHECK_FALSE(comma->doc);
  CHECK(comma->diags.to_string() ==
        "c.yaml:1:9: error: malformed YAML: unexpected text after the document\n");
  auto comma_json =
      parse("<stdin>", "{\"a\": 1},");  // JSON fails, the YAML retry must not hang either
  CHECK_FALSE(comma_json->doc);
  CHECK(comma_json->diags.to_string().find("<stdin>:1:9: error: malformed JSON") == 0);

  auto loop = parse("loop.yaml", "a: &x [*x]\n");
  CHECK_FALSE(loop->doc);
  CHECK(loop->diags.to_string() ==
        "loop.yaml:1:8: error: malformed YAML: an alias refers to the list or mapping that "
        "contains it\n");

  auto merge_loop = parse("merge.yaml", "m: &x {<<: *x}\n");
  CHECK_FALSE(merge_loop->doc);

  // Aliases share the anchored value instead of copying it: a "billion
  // laughs" document stays as small as its text.
  std::string bomb = "a: &a [\"" + std::string(1000, 'x') + "\", x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    const char prev = static_cast<char>(c - 1);
    bomb += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" +
            prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + "]\n";
  }
  auto laughs = parse("bomb.yaml", bomb);
  REQUIRE(laughs->doc);
  const Doc& doc = *laughs->doc;
  const ValueId j = get(doc, doc.root(), "j");
  CHECK(doc.size(j) == 10);
  CHECK(doc.element(j, 0) == doc.element(j, 9));
  CHECK(doc.text(doc.element(get(doc, doc.root(), "a"), 0)).size() == 1000);

  auto not_a_map = parse("m.yaml", "a: &x [1]\nb: {<<: *x}\n");
  CHECK_FALSE(not_a_map->doc);
  CHECK(not_a_map->diags.to_string().find(
            "a merge key (<<) needs a mapping or a list of mappings") != std::string::npos);

  auto deep = parse("deep.yaml", std::string(5000, '[') + std::string(5000, ']'));
  CHECK_FALSE(deep->doc);
  CHECK(deep->diags.to_string().find("malformed YAML") != std::string::npos);
}

TEST_CASE("YAML: merge keys fill in what a mapping does not give") {
  auto p = parse("m.yaml",
                 "base: &b {memory: 8Gi, cpu: 4}\nmore: &m {cpu: 2, storage: 1Gi, name: m}\n"
                 "node: {<<: [*b, *m], cpu: 8, name: n}\n");
  REQUIRE(p->doc);
  const Doc& doc = *p->doc;
  const ValueId node = get(doc, doc.root(), "node");
  CHECK(doc.size(node) == 4);
  CHECK(doc.text(get(doc, node, "cpu")) == "8");
  CHECK(doc.text(get(doc, node, "name")) == "n");
  CHECK(doc.text(get(doc, node, "memory")) == "8Gi");
  CHECK(doc.text(get(doc, node, "storage")) == "1Gi");
  CHECK(get(doc, node, "<<") == kNoValue);
}

TEST_CASE("format: forced, by extension, else by content") {
  auto json_named_yaml = parse("x.yaml", "{\"a\": 1}");  // YAML reads JSON too
  REQUIRE(json_named_yaml->doc);
  CHECK(json_named_yaml->doc->text(get(*json_named_yaml->doc, json_named_yaml->doc->root(), "a")) ==
        "1");

  auto forced = parse("x.txt", "a: 1", InputFormat::Json);
  CHECK_FALSE(forced->doc);
  CHECK(forced->diags.to_string().find("malformed JSON") != std::string::npos);

  auto by_ext = parse("X.JSON", "a: 1");
  CHECK_FALSE(by_ext->doc);
  CHECK(by_ext->diags.to_string().find("malformed JSON") != std::string::npos);

  auto sniffed_yaml = parse("<stdin>", "a: 1\n");
  CHECK(sniffed_yaml->doc);

  auto sniffed_json = parse("<stdin>", "  {\"a\": [1]}");
  REQUIRE(sniffed_json->doc);
  CHECK_FALSE((*sniffed_json->doc)[get(*sniffed_json->doc, sniffed_json->doc->root(), "a")].plain);

  auto flow_yaml = parse("<stdin>", "{a: 1, b: [x]}");  // opens like JSON, is YAML
  REQUIRE(flow_yaml->doc);
  CHECK(flow_yaml->doc->text(get(*flow_yaml->doc, flow_yaml->doc->root(), "a")) == "1");

  auto neither = parse("<stdin>", "{\"a\": [1}");
  CHECK_FALSE(neither->doc);
  CHECK(neither->diags.to_string().find("<stdin>:1:9: error: malformed JSON") == 0);

  auto empty_yaml = parse("e.yaml", "");
  REQUIRE(empty_yaml->doc);
  CHECK((*empty_yaml->doc)[empty_yaml->doc->root()].kind == ValueKind::Null);
}

TEST_CASE("field paths render only when asked") {
  const FieldPath root;
  const FieldPath nodes = root.child("nodes");
  const FieldPath n3 = nodes.at(3);
  CHECK(n3.child("memory").str() == "nodes[3].memory");
  CHECK(n3.child("usage").child("volumes").child("/data0").str() ==
        "nodes[3].usage.volumes./data0");
  CHECK(root.child("resources").child("volumes").at(1).str() == "resources.volumes[1]");
  CHECK(root.str().empty());
}

TEST_CASE("YAML: a quoted string that is never closed is malformed") {
  auto open_double = parse("q.yaml", "nodes:\n  - name: \"a\n");
  CHECK_FALSE(open_double->doc);
  CHECK(open_double->diags.to_string() ==
        "q.yaml:2:11: error: malformed YAML: a quoted string is never closed\n");
  auto open_single = parse("q.yaml", "nodes:\n  - name: 'a\n    memory: 1Gi\n");
  CHECK_FALSE(open_single->doc);

  auto escaped = parse("q.yaml", "a: \"x\\\"y\"\nb: 'it''s'\nc: \"back\\\\\"\n");
  REQUIRE(escaped->doc);
  CHECK(escaped->doc->text(get(*escaped->doc, escaped->doc->root(), "a")) == "x\"y");
  CHECK(escaped->doc->text(get(*escaped->doc, escaped->doc->root(), "b")) == "it's");
  CHECK(escaped->doc->text(get(*escaped->doc, escaped->doc->root(), "c")) == "back\\");
}

TEST_CASE("bad bytes: NUL in JSON, control bytes and invalid UTF-8 in YAML, each at its place") {
  auto p = parse("a.json", std::string("{\"a\": 1}\0 junk", 15));
  CHECK_FALSE(p->doc);
  CHECK(p->diags.to_string() == "a.json:1:9: error: malformed JSON: a NUL byte is not allowed\n");

  p = parse("a.yaml", std::string("a: 1\nb: 2\n\0", 11));
  CHECK_FALSE(p->doc);
  CHECK(p->diags.to_string() == "a.yaml:3:1: error: malformed YAML: a NUL byte is not allowed\n");

  p = parse("a.yaml", "a: x\x04y\n");
  CHECK(p->diags.to_string() ==
        "a.yaml:1:5: error: malformed YAML: control character 0x04 is not allowed (in a "
        "double-quoted string, escape it)\n");

  p = parse("a.yaml", "a: \"x\xC0\xAF\"\n");  // an overlong '/'
  CHECK(p->diags.to_string() ==
        "a.yaml:1:6: error: malformed YAML: invalid UTF-8 (byte 0xC0); YAML input must be UTF-8\n");

  // Valid UTF-8, a BOM, tabs and CRLF line ends stay fine.
  p = parse("a.yaml", "\xEF\xBB\xBFname: \"caf\xC3\xA9 \xF0\x9F\x98\x80\"\r\nb:\t1\r\n");
  REQUIRE(p->doc);
  CHECK(p->diags.to_string().empty());
  CHECK(p->doc->text(get(*p->doc, p->doc->root(), "name")) == "caf\xC3\xA9 \xF0\x9F\x98\x80");
}

TEST_CASE("YAML: positions after a byte-order mark are those of the text as written") {
  // yaml-cpp counts from after the mark: every position used to come out 3
  // bytes early (line 3's "2" at 3:3, the key before it on line 2).
  auto p = parse("a.yaml",
                 "\xEF\xBB\xBF"
                 "a: 1\r\nbb:\r\n  c: 2\r\n");
  REQUIRE(p->doc);
  const Doc& doc = *p->doc;
  const ValueId bb = get(doc, doc.root(), "bb");
  CHECK(at(doc, get(doc, bb, "c")) == "3:6");
  CHECK(at(doc, get(doc, doc.root(), "a")) == "1:7");  // as JSON's: the mark's 3 bytes count
}

TEST_CASE("field paths show at most 64 bytes of a key") {
  const std::string key(1000, 'k');
  const FieldPath root;
  const FieldPath nodes = root.child("nodes");
  const FieldPath node = nodes.at(2);
  const FieldPath leaf = node.child(key);
  CHECK(leaf.str() == "nodes[2]." + std::string(64, 'k') + "...(1000 bytes)");
  const std::string exact(64, 'x');
  CHECK(node.child(exact).str() == "nodes[2]." + exact);
}

TEST_CASE("Reader: an unknown key far longer than any field gets no suggestion") {
  auto p =
      parse("a.json", "{\"nam\": \"x\",\n\"" + std::string(5000, 'q') + "\": 1, \"nodes\": []}");
  REQUIRE(p->doc);
  Reader r(*p->doc, "a.json", p->diags);
  constexpr std::array table{FieldSpec{"name", FieldKind::Text, "", "a name"},
                             FieldSpec{"nodes", FieldKind::Block, "", "the nodes"}};
  std::array<ValueId, 2> values;
  CHECK(r.fields(FieldPath{}, p->doc->root(), table, values.data()));
  CHECK(p->diags.to_string() ==
        "a.json:1:2: warning: nam: unknown field, ignored; did you mean name?\n"
        "a.json:2:1: warning: " +
            std::string(64, 'q') +
            "...(5000 bytes): unknown field, ignored (known fields: name nodes)\n");
}

TEST_CASE("Reader: an alias read at every use stops at the budget, once, naming the alias") {
  // 200 members, used 6,000 times: 1.2 million entries, far over 100 bytes per byte of file.
  std::string text = "x: &big {";
  for (int i = 0; i < 200; ++i) text += (i ? ", k" : "k") + std::to_string(i) + ": v";
  text += "}\nlist:\n";
  for (int i = 0; i < 6000; ++i) text += "  - *big\n";
  auto p = parse("a.yaml", text);
  REQUIRE(p->doc);
  CHECK(Reader::budget_for(text.size()) == 100 * text.size());
  CHECK(text.size() == 55'705);
  Reader r(*p->doc, "a.yaml", p->diags);
  const ValueId list = get(*p->doc, p->doc->root(), "list");
  const FieldPath root;
  const FieldPath path = root.child("list");
  REQUIRE(r.is_array(path, list));
  std::size_t read = 0, entries = 0;
  for (std::uint32_t i = 0; i < p->doc->size(list); ++i) {
    const auto members = r.members(path.at(i), p->doc->element(list, i));
    read += members.empty() ? 0 : 1;
    entries += members.size();
  }
  CHECK_FALSE(r.is_array(path, list));  // everything fails once the budget is spent
  CHECK(r.exhausted());
  CHECK(read < 6000);
  CHECK(entries == read * 200);
  CHECK(p->diags.to_string() ==
        "a.yaml:1:4: error: list[" + std::to_string(read) +
            "]: the document expands to too much to read: over 5 MiB of values from a " +
            std::to_string(text.size()) +
            "-byte file; alias *big (the value at line 1:4) is read again at every place it is "
            "used\n");
}

TEST_CASE("Reader: a 1 KB file with aliases reads at most 1 MiB of values") {
  CHECK(Reader::budget_for(1000) == std::uint64_t{1} << 20);
  CHECK(Reader::budget_for(100'000) == 10'000'000);
  // 20 members used 40 times: 800 entries of 64 bytes each is 51,200 bytes,
  // under the floor; 40 x 40 uses of a 20-member list is 32,000 entries, over it.
  std::string text = "x: &m {";
  for (int i = 0; i < 20; ++i) text += (i ? ", k" : "k") + std::to_string(i) + ": v";
  text += "}\nl: &l [";
  for (int i = 0; i < 40; ++i) text += (i ? ", *m" : "*m");
  text += "]\nlist: [";
  for (int i = 0; i < 40; ++i) text += (i ? ", *l" : "*l");
  text += "]\n";
  REQUIRE(text.size() < 1024);
  auto p = parse("a.yaml", text);
  REQUIRE(p->doc);
  Reader r(*p->doc, "a.yaml", p->diags);
  const ValueId list = get(*p->doc, p->doc->root(), "list");
  const FieldPath root;
  const FieldPath path = root.child("list");
  std::size_t entries = 0;
  for (std::uint32_t i = 0; i < 40 && !r.exhausted(); ++i) {
    const ValueId inner = p->doc->element(list, i);
    if (!r.is_array(path.at(i), inner)) break;
    for (std::uint32_t k = 0; k < p->doc->size(inner); ++k)
      entries += r.members(path.at(i).at(k), p->doc->element(inner, k)).size();
  }
  CHECK(r.exhausted());
  CHECK(entries > 800);
  CHECK(entries < 16'000);  // about 1 MiB / 70 bytes a member
  CHECK(p->diags.to_string().find("over 1 MiB of values from a " + std::to_string(text.size()) +
                                  "-byte file") != std::string::npos);
}

TEST_CASE("YAML streams refuse the bytes one document refuses, at their place") {
  // The stream reader and the one-document reader share their checks and
  // error tail: a control byte in the second document is reported the same.
  const std::string text = "a: 1\n---\nb: \x01\n";
  Diagnostics one, stream;
  std::vector<ValueId> documents;
  CHECK_FALSE(parse_document(Source{"s.yaml", text}, one));
  CHECK_FALSE(parse_document_stream(Source{"s.yaml", text}, stream, documents));
  const std::string expected =
      "s.yaml:3:4: error: malformed YAML: control character 0x01 is not allowed (in a "
      "double-quoted string, escape it)\n";
  CHECK(one.to_string() == expected);
  CHECK(stream.to_string() == expected);
  CHECK(documents.empty());

  // Without it, the stream reads both documents.
  Diagnostics fine;
  const auto doc = parse_document_stream(Source{"s.yaml", "a: 1\n---\nb: 2\n"}, fine, documents);
  REQUIRE(doc);
  CHECK(fine.items().empty());
  CHECK(documents.size() == 2);
}
