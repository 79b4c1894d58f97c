// Each command's run: from parsed options to the command's own function
// (command_runs.cpp), private to src/commands: the rows of commands.cpp
// point at them. A new command's run may live in the command's own file
// (declared in its header) and use what this header shares.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "command_options.h"
#include "commands.h"
#include "diagnostics.h"
#include "pipeline.h"

namespace eruplan::command_runs {

// What every run shares (a new command's run, in its own file, uses these
// too):
// -o's format: json, yaml, else table.
OutputFormat output_format(const std::string& name);
// The format a file is written in: JSON for a .json name, else YAML.
OutputFormat format_for(const std::string& path);
// A usage error (exit 2), with the failure document for -o json|yaml.
CommandOutput usage(OutputFormat format, const std::string& message);

// Reads the input files a command names (-n, -r, --pods, --template), each
// one even after another cannot be read, so that one run names every
// unreadable file (SPEC §6); ok() then reports them all at once.
class InputFiles {
 public:
  explicit InputFiles(const CommandInput& in) : in_(in) {
    const std::string& forced = in.args.value("--input-format");
    format_ = forced == "json"   ? InputFormat::Json
              : forced == "yaml" ? InputFormat::Yaml
                                 : InputFormat::Auto;
  }

  void read(std::string_view key, Source& out) { read_path(in_.args.value(key), out); }

  // One path of a repeatable flag (grow --template).
  void read_path(const std::string& path, Source& out) {
    out.format = format_;
    out.name = path == command_options::kStdin ? "<stdin>" : path;
    std::string why;
    if (auto text = in_.files.read(path, why))
      out.text = std::move(*text);
    else
      problems_.push_back({Severity::Error, Origin{out.name, 0, 0, ""}, "cannot read: " + why});
  }

  // --pods: each file, and each directory's .json, .yaml and .yml files in
  // byte order (not recursing), in command-line order; the first into
  // `first`, the others into `more` (a command that takes one file passes
  // null and gets an error for a second). Such a name in a directory that is
  // no regular file (a named pipe) is skipped with a warning.
  void read_pods(std::optional<Source>& first, std::vector<Source>* more) {
    std::vector<std::string> files;
    for (const std::string& p : in_.args.list("--pods")) {
      auto entries = in_.files.list_dir ? in_.files.list_dir(p) : std::nullopt;
      if (!entries) {
        files.push_back(p);
        continue;
      }
      auto is_input = [](const std::string& e) {
        return e.ends_with(".json") || e.ends_with(".yaml") || e.ends_with(".yml");
      };
      std::vector<std::string> in_dir;
      for (const std::string& e : entries->files)
        if (is_input(e)) in_dir.push_back(e);
      for (const auto& [e, what] : entries->others)
        if (is_input(e))
          problems_.push_back({Severity::Warning, Origin{e, 0, 0, ""},
                               "not a regular file (" + what + "), skipped"});
      std::sort(in_dir.begin(), in_dir.end());
      if (in_dir.empty())
        problems_.push_back({Severity::Error, Origin{p, 0, 0, ""},
                             "no .json, .yaml or .yml file in this directory"});
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (i == 0) {
        open_path(files[i], first.emplace());
      } else if (more) {
        open_path(files[i], more->emplace_back());
      } else {
        problems_.push_back(
            {Severity::Error, Origin{files[i], 0, 0, ""}, "this command takes one --pods file"});
        break;
      }
    }
  }

  // A --pods file: opened to be read a piece at a time where the CLI can.
  void open_path(const std::string& path, Source& out) {
    if (path == command_options::kStdin || !in_.files.open) return read_path(path, out);
    out.format = format_;
    out.name = path;
    std::string why;
    if (auto stream = in_.files.open(path, why))
      out.stream = std::move(stream);
    else
      problems_.push_back({Severity::Error, Origin{out.name, 0, 0, ""}, "cannot read: " + why});
  }

  // What plan, realloc and the what-if commands read first: -n, -r when
  // given, and --pods.
  template <class Options>
  void read_cluster(Options& options) {
    read("--nodes", options.nodes);
    read_given("--request", options.request);
    read_pods(options.pods, &options.more_pods);
  }

  // An input given by an optional flag: read when the flag was given.
  void read_given(std::string_view key, std::optional<Source>& out) {
    if (in_.args.value(key).empty()) return;
    read(key, out.emplace());
  }

  // True when every file could be read; otherwise false with `failed` set
  // to exit 3 naming each one (and the failure document with -o json|yaml).
  bool ok(OutputFormat output, CommandOutput& failed) const {
    if (std::none_of(problems_.begin(), problems_.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; }))
      return true;
    failed.exit = ExitCode::Invalid;
    for (const Diagnostic& problem : problems_) failed.err += format_diagnostic(problem) + '\n';
    if (output != OutputFormat::Table)
      failed.out =
          failure_document(output, ExitCode::Invalid, invalid_message(problems_), problems_);
    return false;
  }

  // The warnings of a run that goes on (ok() true), one line each, to go
  // before its own on stderr.
  std::string warnings() const {
    std::string out;
    for (const Diagnostic& problem : problems_) out += format_diagnostic(problem) + '\n';
    return out;
  }

 private:
  const CommandInput& in_;
  InputFormat format_ = InputFormat::Auto;
  std::vector<Diagnostic> problems_;
};

CommandOutput run_capacity(const CommandInput& in);
CommandOutput run_plan(const CommandInput& in);
CommandOutput run_validate(const CommandInput& in);
CommandOutput run_apply(const CommandInput& in);
CommandOutput run_share_row(const CommandInput& in);
CommandOutput run_realloc_row(const CommandInput& in);
CommandOutput run_compare(const CommandInput& in);
CommandOutput run_grow(const CommandInput& in);
CommandOutput run_drain(const CommandInput& in);
CommandOutput run_test(const CommandInput& in);
CommandOutput run_diff(const CommandInput& in);
CommandOutput run_schema(const CommandInput& in);
CommandOutput run_completion(const CommandInput& in);

}  // namespace eruplan::command_runs
