#include "json_writer.h"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <string>

using namespace eruplan;

TEST_CASE("YamlWriter: a key long only once escaped takes the explicit '? key' form") {
  const std::string tabs(600, '\t');  // 600 bytes, 1,202 characters as "\t\t..."
  std::string out;
  YamlWriter w(out);
  w.begin_object();
  w.key(tabs);
  w.integer(1);
  w.key("short");
  w.integer(2);
  w.end_object();
  w.finish();
  CHECK(out.rfind("? \"\\t\\t", 0) == 0);
  CHECK(out.find("\n: 1\nshort: 2\n") != std::string::npos);
  const YAML::Node doc = YAML::Load(out);
  CHECK(doc[tabs].as<int>() == 1);
  CHECK(doc["short"].as<int>() == 2);
}

TEST_CASE("YamlWriter: a key of 1,000 characters as written stays implicit") {
  const std::string key(1000, 'k');
  std::string out;
  YamlWriter w(out);
  w.begin_object();
  w.key(key);
  w.integer(7);
  w.end_object();
  w.finish();
  CHECK(out == key + ": 7\n");
  CHECK(YAML::Load(out)[key].as<int>() == 7);
}
