// The commands as a table, as Ninja's tools are: one row per command (its
// name, its options gathered from shared option groups, its run function,
// its help examples). cli/ wires every row once into the argument parser;
// --help, the shell completions and the man page's command list come from
// the same rows. A run reads its inputs through FileAccess (the CLI's file
// and stdin reading) and returns one CommandOutput; nothing here prints.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "load.h"
#include "pipeline.h"

namespace eruplan {

// A flag's own check of its value: empty when fine, else why not (a usage
// error, exit 2, naming the flag).
using OptionCheck = std::string (*)(const std::string& value);

enum class OptionKind {
  Value,       // --count 3 (once)
  List,        // --label a=b --label c=d (repeatable)
  Flag,        // --explain
  Switch,      // --cpu-bind, --cpu-bind=false: a flag that may carry a value
  Positional,  // completion SHELL
  Positionals  // test PATH...
};

// One command-line option, as data: the CLI builds the parser from it, the
// completions and --help show it.
struct OptionSpec {
  std::string names;  // as CLI11 writes them: "-n,--nodes", "--cpu-bind{true}", "paths"
  OptionKind kind = OptionKind::Value;
  std::string help;
  std::string default_value;         // shown in --help and read when absent
  std::vector<std::string> choices;  // a fixed set of values
  std::vector<std::string> suggest;  // values completions offer, when not `choices`
  OptionCheck check = nullptr;
  std::string check_name;  // the check's name in --help: "INTEGER"
  std::string type_name;   // in --help; empty: TEXT
  bool file = false;       // the value is a path (completions offer files)
  bool required = false;   // a positional that must be given

  // The name a run reads it by: the first long name ("--nodes"), or the
  // positional's name.
  std::string key() const;
};

// The values of one command line, by option key.
struct Args {
  std::map<std::string, std::string, std::less<>> values;              // Value, Switch, Positional
  std::map<std::string, std::vector<std::string>, std::less<>> lists;  // List, Positionals
  std::map<std::string, bool, std::less<>> flags;                      // Flag
  std::set<std::string, std::less<>> given;  // options written on the command line

  bool has(std::string_view key) const { return given.contains(key); }
  // The value as given, else the option's default ("" for none).
  const std::string& value(std::string_view key) const;
  const std::vector<std::string>& list(std::string_view key) const;
  bool flag(std::string_view key) const;
};

// A directory's entries (file names with their path): its regular files and
// links to them, which are read, and what else it holds but directories (a
// named pipe, a device, a socket, a dangling link), which is not opened (a
// named pipe would block the run), with what it is ("a named pipe").
struct DirListing {
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> others;
};

// How a run reads files: injected by the CLI, so the library does no I/O of
// its own. "-" is standard input.
struct FileAccess {
  // The whole file; nullopt with `why` set when it cannot be read.
  std::function<std::optional<std::string>(const std::string& path, std::string& why)> read;
  // The entries of a directory, or nullopt when `path` is not a directory;
  // may be unset (nothing is a directory).
  std::function<std::optional<DirListing>(const std::string& path)> list_dir;
  // Runs a program (argv[0] looked up on PATH) and gives its standard
  // output; nullopt with `why` (its standard error, or why it could not
  // start) when it fails. May be unset (eruplan snapshot then fails).
  std::function<std::optional<std::string>(const std::vector<std::string>& argv, std::string& why)>
      run;
  // A file opened to be read a piece at a time (--pods, which may be larger
  // than the memory it should take); null with `why` set when it cannot be
  // read. May be unset: such files are then read whole.
  std::function<std::shared_ptr<ByteStream>(const std::string& path, std::string& why)> open;
};

// What a command hands back to the CLI, for every command alike.
struct CommandOutput {
  ExitCode exit = ExitCode::Ok;
  std::string out;    // for stdout
  std::string err;    // for stderr
  std::string usage;  // exit 2: what is wrong; the CLI adds the --help hint
  // Files to write before printing (--save-inventory, --report): path, text.
  std::vector<std::pair<std::string, std::string>> files;
  // Files written after those a piece at a time (compare --report's page,
  // which may be many times its input): path, and what hands each piece to
  // the writer given.
  using PieceWriter = std::function<void(const std::function<void(std::string_view)>&)>;
  std::vector<std::pair<std::string, PieceWriter>> written;
  // The run's structured result, kept alive so the process may end without
  // tearing a large inventory down.
  std::shared_ptr<const void> keep;
};

struct CommandInput {
  const Args& args;
  const FileAccess& files;
  // When set, large outputs are handed over in pieces as they are rendered
  // (CommandOutput::out then holds the rest).
  std::function<void(std::string_view)> stream_out;
};

using CommandRun = CommandOutput (*)(const CommandInput& input);

// A flag of a shared group that this command would not use: giving it is a
// usage error saying what to use instead (rather than silently ignoring it).
struct RefusedOption {
  std::string key;      // "--strategy"
  std::string instead;  // "use --strategies to name the strategies to compare"
};

struct CommandRow {
  std::string_view name;
  std::string_view summary;  // one line for --help, completions and the man page
  std::vector<OptionSpec> options;
  CommandRun run;
  std::vector<std::string_view> examples;
  std::vector<RefusedOption> refused = {};  // not in `options`
};

std::span<const CommandRow> command_table();
const CommandRow* find_command(std::string_view name);
// "capacity, plan, apply, ...": the commands in the order the usage error lists them.
std::string command_names();

// The flags of a command line after the command (argv[2...]) checked
// against its row before parsing: a refused flag gets what to use instead,
// an unknown one the nearest flag of the command ("did you mean") or the
// command it belongs to. The usage message, or nullopt when all are known.
std::optional<std::string> check_flags(const CommandRow& row, const std::vector<std::string>& args);

// The bash and zsh completion scripts, made from the table.
std::string completion_script(std::string_view shell);
std::string bash_completion();  // completions.cpp
std::string zsh_completion();

}  // namespace eruplan
