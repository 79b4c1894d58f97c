#include <doctest/doctest.h>

#include <string>

#include "doc.h"
#include "load.h"

using namespace eruplan;

namespace {

// The parsed value, or -1 with the error in `error`.
std::int64_t size_of(std::string_view text, std::string& error) {
  error.clear();
  return parse_size(text, error).value_or(-1);
}
std::int64_t size_of(std::string_view text) {
  std::string error;
  const auto v = size_of(text, error);
  INFO(text << ": " << error);
  return v;
}
std::int64_t cpu_of(std::string_view text, std::string& error) {
  error.clear();
  return parse_cpu(text, error).value_or(-1);
}
std::int64_t cpu_of(std::string_view text) {
  std::string error;
  return cpu_of(text, error);
}

}  // namespace

TEST_CASE("sizes: plain bytes and every suffix") {
  CHECK(size_of("0") == 0);
  CHECK(size_of("1024") == 1024);
  CHECK(size_of("+7") == 7);
  CHECK(size_of("1Ki") == 1024);
  CHECK(size_of("1Mi") == 1024 * 1024);
  CHECK(size_of("8Gi") == 8LL << 30);
  CHECK(size_of("2Ti") == 2LL << 40);
  CHECK(size_of("3Pi") == 3LL << 50);
  CHECK(size_of("7Ei") == 7LL << 60);
  CHECK(size_of("1k") == 1000);
  CHECK(size_of("1K") == 1000);
  CHECK(size_of("5M") == 5'000'000);
  CHECK(size_of("5G") == 5'000'000'000);
  CHECK(size_of("2T") == 2'000'000'000'000);
  CHECK(size_of("2P") == 2'000'000'000'000'000);
  CHECK(size_of("9E") == 9'000'000'000'000'000'000);
}

TEST_CASE("sizes: decimals and exponents are fine when they make whole bytes") {
  CHECK(size_of("1.5Gi") == 1610612736);
  CHECK(size_of("0.5Ki") == 512);
  CHECK(size_of("1.5k") == 1500);
  CHECK(size_of("1e9") == 1'000'000'000);
  CHECK(size_of("1E3") == 1000);
  CHECK(size_of("2.0") == 2);
  CHECK(size_of("12.50e1") == 125);
  CHECK(size_of("1E") == 1'000'000'000'000'000'000);  // E alone is the exa suffix
  CHECK(size_of("-0") == 0);
  CHECK(size_of("0.000") == 0);
  CHECK(size_of("9223372036854775807") == INT64_MAX);

  std::string error;
  CHECK(size_of("1.5", error) == -1);
  CHECK(error == "size 1.5 is not a whole number of bytes");
  CHECK(size_of("0.3Ki", error) == -1);
  CHECK(error.find("not a whole number of bytes") != std::string::npos);
  CHECK(size_of("1e-1", error) == -1);
  CHECK(error.find("not a whole number of bytes") != std::string::npos);
}

TEST_CASE("sizes: negative, overflow and garbage are clear errors") {
  std::string error;
  CHECK(size_of("-5", error) == -1);
  CHECK(error == "negative size -5");
  CHECK(size_of("-1Gi", error) == -1);
  CHECK(error == "negative size -1Gi");
  CHECK(size_of("9223372036854775808", error) == -1);
  CHECK(error.find("size 9223372036854775808 overflows") == 0);
  CHECK(size_of("8Ei", error) == -1);
  CHECK(error.find("overflows") != std::string::npos);
  CHECK(size_of("1e400", error) == -1);
  CHECK(error.find("overflows") != std::string::npos);
  CHECK(size_of("123456789012345678901234567890123456789012345", error) == -1);
  CHECK(error.find("overflows") != std::string::npos);
  CHECK(size_of("abc", error) == -1);
  CHECK(error == "expected a size (bytes, or a string like \"8Gi\"), got \"abc\"");
  CHECK(size_of("", error) == -1);
  CHECK(error.find("expected a size") == 0);
  CHECK(size_of("5GB", error) == -1);
  CHECK(error.find("unknown unit \"GB\"") != std::string::npos);
  CHECK(size_of("5 Gi", error) == -1);
  CHECK(error.find("unknown unit \" Gi\"") != std::string::npos);
  CHECK(size_of("100m", error) == -1);
  CHECK(error.find("unknown unit \"m\"") != std::string::npos);
  CHECK(size_of("NaN", error) == -1);
  CHECK(error.find("expected a size") == 0);
  CHECK(size_of(".inf", error) == -1);
  CHECK(size_of("0x10", error) == -1);
  CHECK(error.find("unknown unit \"x10\"") != std::string::npos);
}

TEST_CASE("sizes: a long value's error shows its first 64 bytes and its length") {
  // 30,001 bytes behind a YAML alias could be quoted once per use, twice
  // in each message; each message stays short whatever the value's length.
  std::string error;
  CHECK(size_of("9" + std::string(30000, 'x'), error) == -1);
  CHECK(error == "expected a size (bytes, or a string like \"8Gi\"), got \"9" +
                     std::string(63, 'x') + "...\" (30001 bytes): unknown unit \"" +
                     std::string(64, 'x') +
                     "...\" (30000 bytes) (use Ki Mi Gi Ti Pi Ei for powers of 1024, k K M G T "
                     "P E for powers of 1000)");
  CHECK(size_of("-" + std::string(100, '1'), error) == -1);
  CHECK(error == "negative size -" + std::string(63, '1') + "...(101 bytes)");
  // 64 bytes or fewer: as given.
  CHECK(size_of("9" + std::string(63, 'x'), error) == -1);
  CHECK(error.ends_with("got \"9" + std::string(63, 'x') + "\": unknown unit \"" +
                        std::string(63, 'x') +
                        "\" (use Ki Mi Gi Ti Pi Ei for powers of 1024, k K M G T P E for "
                        "powers of 1000)"));
}

TEST_CASE("cpu: cores and millicores to nanocores, exactly") {
  CHECK(cpu_of("0") == 0);
  CHECK(cpu_of("2") == 2'000'000'000);
  CHECK(cpu_of("1.5") == 1'500'000'000);
  CHECK(cpu_of("0.29") == 290'000'000);  // never 289999999 via a double
  CHECK(cpu_of("0.295") == 295'000'000);
  CHECK(cpu_of("0.000000001") == 1);
  CHECK(cpu_of("1500m") == 1'500'000'000);
  CHECK(cpu_of("1m") == 1'000'000);
  CHECK(cpu_of("0.5m") == 500'000);
  CHECK(cpu_of("2e0") == 2'000'000'000);
  CHECK(cpu_of("1.0000000000") == 1'000'000'000);  // trailing zeros are not precision

  std::string error;
  CHECK(cpu_of("0.0000000001", error) == -1);
  CHECK(error.find("more than 9 fractional digits") != std::string::npos);
  CHECK(cpu_of("0.0000001m", error) == -1);
  CHECK(error.find("more than 9 fractional digits") != std::string::npos);
  CHECK(cpu_of("-1", error) == -1);
  CHECK(error == "negative cpu -1");
  CHECK(cpu_of("-500m", error) == -1);
  CHECK(error == "negative cpu -500m");
  CHECK(cpu_of("10000000000", error) == -1);
  CHECK(error.find("overflows") != std::string::npos);
  CHECK(cpu_of("two", error) == -1);
  CHECK(error ==
        "expected a CPU amount (cores like 1.5, or millicores like \"1500m\"), got \"two\"");
  CHECK(cpu_of("2Gi", error) == -1);
  CHECK(error.find("expected a CPU amount") == 0);
  CHECK(cpu_of("", error) == -1);
}

TEST_CASE("whole numbers") {
  std::string error;
  CHECK(parse_integer("0", error) == 0);
  CHECK(parse_integer("42", error) == 42);
  CHECK(parse_integer("-1", error) == -1);
  CHECK(parse_integer("1e3", error) == 1000);
  CHECK(parse_integer("2.0", error) == 2);
  CHECK(parse_integer("9223372036854775807", error) == INT64_MAX);
  CHECK_FALSE(parse_integer("2.5", error));
  CHECK(error == "expected a whole number, got 2.5");
  CHECK_FALSE(parse_integer("9223372036854775808", error));
  CHECK(error.find("out of range") != std::string::npos);
  CHECK_FALSE(parse_integer("3x", error));
  CHECK(error == "expected a whole number, got \"3x\"");
}
