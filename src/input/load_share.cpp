// The apps file of `eruplan share` (SPEC §10): placement and a list of apps,
// each with weight, quota, max_count and a request's per-instance parts,
// read with the request reader's own code (request_fields.h). Every problem
// is collected with file:line:col and its field path.
#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>
#include <string>

#include "doc.h"
#include "eruplan_fields.h"
#include "load.h"
#include "request_fields.h"
#include "share_spec.h"

namespace eruplan {

namespace {

constexpr std::uint64_t kMaxWeightPart = 1'000'000'000'000'000'000ULL;  // 10^18

}  // namespace

// A weight as written, exactly: digits, an optional fraction and an optional
// exponent (2, 0.1, 1.5e2). Reduced, numerator and denominator must each be
// at most 10^18, which keeps the share comparison inside its exact range.
std::optional<Weight> parse_weight(std::string_view text, std::string& error) {
  const std::string shown = quoted(text);
  std::size_t i = 0;
  if (i < text.size() && text[i] == '+') ++i;
  if (i < text.size() && text[i] == '-') {
    error = "weight must be > 0, got " + excerpt(text);
    return std::nullopt;
  }
  std::string digits;
  std::int64_t scale = 0;  // value = digits x 10^scale
  bool any = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any = true;
    if (digits.empty() && c == '0') {
      if (point) --scale;
      continue;  // leading zeros
    }
    digits += c;
    if (point) --scale;
  }
  if (!any) {
    error = "expected a number > 0 (such as 1, 2 or 0.5), got " + shown;
    return std::nullopt;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    std::int64_t e = 0;
    bool exp_digits = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      exp_digits = true;
      e = std::min<std::int64_t>(e * 10 + (text[i] - '0'), 1000);
    }
    if (!exp_digits) i = text.size() + 1;  // malformed
    scale += negative ? -e : e;
  }
  if (i != text.size()) {
    error = "expected a number > 0 (such as 1, 2 or 0.5), got " + shown;
    return std::nullopt;
  }
  if (digits.empty()) {
    error = "weight must be > 0, got " + excerpt(text);
    return std::nullopt;
  }
  // Trailing zeros of the digits move into the scale.
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back(), ++scale;
  const std::string too_big = "weight " + excerpt(text) +
                              " is too fine or too large to compare exactly "
                              "(numerator and denominator at most 10^18)";
  if (digits.size() > 18 || scale > 18 || scale < -18) {
    error = too_big;
    return std::nullopt;
  }
  std::uint64_t num = std::stoull(digits), den = 1;
  for (std::int64_t k = 0; k < scale; ++k) num *= 10;
  for (std::int64_t k = 0; k > scale; --k) den *= 10;
  const std::uint64_t g = std::gcd(num, den);
  num /= g;
  den /= g;
  if (num > kMaxWeightPart || den > kMaxWeightPart) {
    error = too_big;
    return std::nullopt;
  }
  return Weight{num, den};
}

namespace {

std::optional<SharePlacement> parse_placement(std::string_view text) {
  return value_of(kPlacementNames, text);
}

// A request limits capacity when some dimension divides by it: cpu (CPU fit
// or binding), memory, storage, an extended resource, or a sized AUTO
// volume. Without one, and without max_count, nothing would stop the app.
bool limits_capacity(const Request& r) {
  if (r.cpu > 0 || r.memory > 0 || r.storage > 0) return true;
  for (const auto& e : r.extended)
    if (e.second > 0) return true;
  for (const VolumeRequest& v : r.volumes)
    if (v.scheduled() && v.size > 0) return true;
  return false;
}

void read_app(Reader& r, const std::string& file, const FieldPath& at, ValueId item,
              ShareSpec& spec, std::vector<std::pair<std::string, ValueId>>& names,
              Diagnostics& diags) {
  Picked<kShareAppFields> f;
  if (!r.fields(at, item, kShareAppFields, f.data())) return;
  const ValueId app = f["app"], weight = f["weight"], quota = f["quota"],
                max_count = f["max_count"], resources = f["resources"],
                node_filter = f["node_filter"], tolerations = f["tolerations"];
  ShareApp a;
  bool ok = true;
  if (app == kNoValue) {
    r.error(at, item, "app is required (the name its instances are counted by)");
    ok = false;
  } else if (auto name = r.string(at.child("app"), app)) {
    a.name = *name;
    // Against every earlier app, those with errors too: every problem at once.
    const auto first = std::find_if(names.begin(), names.end(),
                                    [&](const auto& seen) { return seen.first == a.name; });
    if (first != names.end()) {
      r.error(
          at.child("app"), app,
          "app " + quoted(a.name) + " is listed twice (first at " + r.where(first->second) + ")");
      ok = false;
    } else {
      names.emplace_back(a.name, app);
    }
  } else {
    ok = false;
  }
  if (weight != kNoValue) ok = read_weight(r, at.child("weight"), weight, a.weight) && ok;
  if (quota != kNoValue) {
    if (auto q = r.integer(at.child("quota"), quota, 0))
      a.quota = *q;
    else
      ok = false;
  }
  if (max_count != kNoValue) {
    if (auto m = r.integer(at.child("max_count"), max_count, 0))
      a.max_count = *m;
    else
      ok = false;
  }
  ok = read_request_parts(r, file, at, resources, node_filter, tolerations, a.name, a.request,
                          diags) &&
       ok;
  a.request.cpu_fit = true;  // SPEC §8.2: share fits CPU as Kubernetes does
  if (a.max_count >= 0 && a.quota > a.max_count) {
    r.error(at.child("quota"), quota,
            "quota " + std::to_string(a.quota) + " is more than max_count " +
                std::to_string(a.max_count));
    ok = false;
  }
  if (ok && a.max_count < 0 && !limits_capacity(a.request)) {
    r.error(at, item,
            "nothing would stop app " + quoted(a.name) +
                ": give it max_count, or a request that limits capacity (cpu, memory, storage, "
                "an extended resource or a sized AUTO volume)");
    ok = false;
  }
  if (!ok) return;
  spec.apps.push_back(std::move(a));
}

}  // namespace

std::optional<ShareSpec> load_share(const Source& source, Diagnostics& diags) {
  return read_document<kShareFields>(
      source, diags, [&](Reader& r, const auto& f) -> std::optional<ShareSpec> {
        const Doc& doc = r.doc();
        const FieldPath root;
        const ValueId placement = f["placement"], apps = f["apps"];
        ShareSpec spec;
        if (placement != kNoValue) {
          if (auto p = r.string(root.child("placement"), placement)) {
            if (auto parsed = parse_placement(*p))
              spec.placement = *parsed;
            else
              r.error(root.child("placement"), placement,
                      "unknown placement " + quoted(*p) +
                          "; expected first_fit, least_allocated or most_allocated");
          }
        }
        if (apps == kNoValue) {
          // A roles and frameworks file is for the Mesos model.
          bool frameworks = false;
          for (std::uint32_t i = 0; i < doc.size(doc.root()); ++i)
            frameworks = frameworks || doc.text(doc.key(doc.root(), i)) == "frameworks";
          r.error(root, doc.root(),
                  std::string("apps is required (a list of {app, resources, ...})") +
                      (frameworks ? "; a file of roles and frameworks needs --model mesos" : ""));
          return std::nullopt;
        }
        const FieldPath list = root.child("apps");
        if (!r.is_array(list, apps)) return std::nullopt;
        const std::uint32_t n = doc.size(apps);
        if (n == 0) r.error(list, apps, "apps is empty; give at least one app");
        std::vector<std::pair<std::string, ValueId>> names;  // each app's first name and where
        for (std::uint32_t i = 0; i < n; ++i) {
          const ValueId item = doc.element(apps, i);
          const FieldPath at = list.at(i);
          if (!r.is_object(at, item)) continue;
          read_app(r, source.name, at, item, spec, names, diags);
        }
        // Returned with problems too (the apps that read cleanly), so the checks
        // against the inventory report theirs as well; the caller sees the errors.
        return spec;
      });
}

void check_share(const Inventory& inventory, const ShareSpec& spec, Diagnostics& diags) {
  check_requests(
      inventory, spec.apps, [](const ShareApp& app) -> const Request& { return app.request; },
      diags);
}

bool read_weight(Reader& r, const FieldPath& path, ValueId v, Weight& out) {
  const std::optional<std::string_view> text = r.scalar(path, v);
  if (!text) return false;
  std::string problem;
  if (r.doc()[v].kind == ValueKind::Bool)
    problem = "expected a number > 0 (such as 1, 2 or 0.5), got " + std::string(*text);
  const std::optional<Weight> w = problem.empty() ? parse_weight(*text, problem) : std::nullopt;
  if (!w) {
    r.error(path, v, problem);
    return false;
  }
  out = *w;
  return true;
}

}  // namespace eruplan
