// eruplan's command line: the command table (src/commands/commands.h) wired
// into CLI11 once, files and stdin read for the commands, their output
// printed and their exit code returned. Everything else lives in the library.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "huge_pages.h"

namespace fs = std::filesystem;
using namespace eruplan;

namespace {

// Ends the process with `code`, or with 1 when standard output could not be
// written (a full disk, a closed pipe): a script must not read "done" then.
[[noreturn]] void finish(int code) {
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::fprintf(stderr, "eruplan: error: cannot write the output: %s\n", std::strerror(errno));
    std::_Exit(static_cast<int>(ExitCode::Internal));
  }
  std::exit(code);
}

// The -o/--output a command line asks for, read before (or without) CLI11,
// so that a usage error can still print SPEC §13's failure document. Table
// when absent or not json/yaml (`-o jsn` itself is the usage error then).
OutputFormat requested_output(int argc, char** argv) {
  std::string value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if ((arg == "-o" || arg == "--output") && i + 1 < argc)
      value = argv[i + 1];
    else if (arg.starts_with("--output="))
      value = arg.substr(9);
    else if (arg.starts_with("-o") && !arg.starts_with("--") && arg.size() > 2)
      value = arg.substr(arg[2] == '=' ? 3 : 2);
  }
  return value == "json"   ? OutputFormat::Json
         : value == "yaml" ? OutputFormat::Yaml
                           : OutputFormat::Table;
}

void print_usage_error(const std::string& message) {
  std::cerr << "eruplan: error: " << message << "\nRun with --help for more information.\n";
}

// A usage error found while parsing (exit 2): the message and the --help
// hint on stderr, and with -o json|yaml the failure document on stdout.
int usage_error(const std::string& message, OutputFormat format) {
  print_usage_error(message);
  if (format != OutputFormat::Table)
    std::cout << failure_document(format, ExitCode::Usage, message, {});
  return static_cast<int>(ExitCode::Usage);
}

// Inputs stop at 4 GiB (the document tree's offsets are 32-bit); the limit
// holds while reading, so /dev/zero or an endless pipe ends with an error.
constexpr std::size_t kMaxInputBytes = UINT32_MAX - 1;
constexpr const char* kTooLarge = "the input is too large (4 GiB at most)";

// Reads to the end into `text` (after what it holds), `read(out, n)` giving
// up to n bytes and 0 at the end; false when the input holds more than
// kMaxInputBytes. Grows by doubling but never past the limit. A NUL byte is
// an error in JSON and YAML alike, reported at its position: reading stops
// right after the first one, so /dev/zero costs nothing.
template <class Read>
bool read_bounded_by(Read read, std::string& text) {
  std::size_t used = text.size();
  for (;;) {
    if (used == text.size()) {
      if (text.size() > kMaxInputBytes) return false;
      text.resize(std::min(kMaxInputBytes + 1, std::max<std::size_t>(64 * 1024, 2 * text.size())));
    }
    const std::size_t got = read(text.data() + used, text.size() - used);
    if (const void* nul = std::memchr(text.data() + used, '\0', got)) {
      used = static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()) + 1;
      break;
    }
    used += got;
    if (got == 0) break;
  }
  text.resize(used);
  return used <= kMaxInputBytes;
}

bool read_bounded(std::istream& in, std::string& text) {
  return read_bounded_by(
      [&in](char* out, std::size_t n) {
        in.read(out, static_cast<std::streamsize>(n));
        return static_cast<std::size_t>(in.gcount());
      },
      text);
}

// What a directory entry that is neither a regular file nor a directory is.
std::string kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo:
      return "a named pipe";
    case fs::file_type::character:
    case fs::file_type::block:
      return "a device";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::not_found:
      return "a dangling link";
    default:
      return "not a file eruplan reads";
  }
}

// A directory's entries (--pods DIR), or nullopt when it is none. Links
// are followed; only regular files are to be read: opening a named pipe
// waits for a writer, and a device may never end.
std::optional<DirListing> list_dir(const std::string& path) {
  std::error_code ec;
  if (path == "-" || !fs::is_directory(path, ec)) return std::nullopt;
  DirListing out;
  for (const auto& e : fs::directory_iterator(path, ec)) {
    std::error_code status_error;
    const fs::file_type type = e.status(status_error).type();
    if (type == fs::file_type::directory) continue;
    if (type == fs::file_type::regular)
      out.files.push_back(e.path().string());
    else
      out.others.emplace_back(e.path().string(),
                              status_error && type != fs::file_type::not_found
                                  ? "cannot tell what it is: " + status_error.message()
                                  : kind_of(type));
  }
  return out;
}

// Reads a named pipe given as an input (-n FILE, or <(command) as
// /dev/fd/N). Opening one waits until a program writes to it, maybe
// forever: it is opened without waiting, and one with nothing to read and
// no writer for a second (time for a writer started beside eruplan to
// open it) is an error, not a hang. With a writer, it is read to its end.
constexpr int kPipeTries = 100;
constexpr useconds_t kPipeWaitMicroseconds = 10'000;
std::optional<std::string> read_pipe(const std::string& path, std::string& why) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = std::strerror(errno);
    return std::nullopt;
  }
  std::string text;
  // The first read tells: 0 is no writer and nothing left to read; data or
  // EAGAIN is a writer, and from then on the reads wait for what it writes.
  bool first = true, failed = false;
  int tries = 0;
  const bool within = read_bounded_by(
      [&](char* out, std::size_t n) -> std::size_t {
        for (;;) {
          const ssize_t got = ::read(fd, out, n);
          if (got < 0 && errno == EINTR) continue;
          if (first && got == 0 && ++tries < kPipeTries) {
            usleep(kPipeWaitMicroseconds);
            continue;
          }
          if (first && (got > 0 || (got < 0 && errno == EAGAIN))) {
            first = false;
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            if (got < 0) continue;
          }
          if (got < 0) failed = true;
          return got < 0 ? 0 : static_cast<std::size_t>(got);
        }
      },
      text);
  close(fd);
  if (first && !failed) why = "a named pipe that no program writes to";
  if (failed) why = "read error";
  if (!within) why = kTooLarge;
  if (first || failed || !within) return std::nullopt;
  return text;
}

// Runs argv[0], looked up on PATH, with standard output into a pipe and
// standard error into a temporary file; its output, or nullopt and why
// (its standard error, or why it could not run).
std::optional<std::string> run_program(const std::vector<std::string>& argv, std::string& why) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) {
    why = std::strerror(errno);
    return std::nullopt;
  }
  std::FILE* errors = std::tmpfile();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  if (errors) posix_spawn_file_actions_adddup2(&actions, fileno(errors), STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  std::string out;
  if (spawned == 0) {
    char buffer[1 << 16];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  if (spawned == 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  std::string err;
  if (errors) {
    std::rewind(errors);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, errors)) > 0;)
      err.append(buffer, n);
    std::fclose(errors);
  }
  while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
  if (spawned != 0) {
    why = std::string("cannot run ") + argv[0] + ": " + std::strerror(spawned);
    return std::nullopt;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    why = err.empty()
              ? "exited with status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status))
              : err;
    return std::nullopt;
  }
  return out;
}

// Reads a whole file, or standard input for "-"; on failure nullopt and why.
std::optional<std::string> read_input(const std::string& path, std::string& why) {
  std::string text;
  if (path == "-") {
    if (read_bounded(std::cin, text)) return text;
    why = kTooLarge;
    return std::nullopt;
  }
  std::error_code ec;
  const fs::file_type type = fs::status(path, ec).type();
  if (type == fs::file_type::directory) {
    why = "is a directory";
    return std::nullopt;
  }
  if (type == fs::file_type::fifo) return read_pipe(path, why);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = std::strerror(errno);
    return std::nullopt;
  }
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  bool within = true;
  if (size > static_cast<std::streamoff>(kMaxInputBytes)) {
    within = false;
  } else if (size > 0) {
    text.reserve(static_cast<size_t>(size));
    advise_huge_pages(text.data(), text.capacity());
    text.resize(static_cast<size_t>(size));
    in.seekg(0);
    in.read(text.data(), size);
  } else {
    in.clear();
    in.seekg(0);
    in.clear();  // a pipe or device cannot seek: read it from where it is
    within = read_bounded(in, text);
  }
  if (!within) {
    why = kTooLarge;
    return std::nullopt;
  }
  if (in.bad()) {
    why = "read error";
    return std::nullopt;
  }
  return text;
}

// A regular file read a piece at a time (--pods).
class FileStream : public ByteStream {
 public:
  FileStream(int fd, std::uint64_t size) : fd_(fd), size_(size) {
    posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  ~FileStream() override { close(fd_); }
  FileStream(const FileStream&) = delete;
  FileStream& operator=(const FileStream&) = delete;
  std::size_t read(char* out, std::size_t n) override {
    for (;;) {
      const ssize_t got = ::read(fd_, out, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR) return 0;
    }
  }
  bool rewind() override { return lseek(fd_, 0, SEEK_SET) == 0; }
  std::uint64_t size() const override { return size_; }

 private:
  int fd_;
  std::uint64_t size_;
};

// Opens a file to be read a piece at a time; anything but a regular file
// (a pipe, a device) is read whole first.
std::shared_ptr<ByteStream> open_input(const std::string& path, std::string& why) {
  struct stat st {};
  if (path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes) {
      why = kTooLarge;
      return nullptr;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      why = std::strerror(errno);
      return nullptr;
    }
    return std::make_shared<FileStream>(fd, static_cast<std::uint64_t>(st.st_size));
  }
  auto text = read_input(path, why);
  if (!text) return nullptr;
  return std::make_shared<TextStream>(std::move(*text));
}

// Writes `text` to `path`; false (and a message) when it cannot.
bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    std::cerr << "eruplan: error: cannot write " << path << ": " << std::strerror(errno) << '\n';
    return false;
  }
  return true;
}

// An option's own check as a CLI11 validator; its name shows in --help.
CLI::Validator validator(const OptionSpec& spec) {
  const OptionCheck check = spec.check;
  return CLI::Validator([check](std::string& s) { return check(s); }, spec.check_name);
}

// One option of a row, bound to its place in `args`.
CLI::Option* add_option(CLI::App* cmd, const OptionSpec& spec, Args& args) {
  const std::string key = spec.key();
  CLI::Option* option = nullptr;
  switch (spec.kind) {
    case OptionKind::Flag:
      return cmd->add_flag(spec.names, args.flags[key], spec.help);
    case OptionKind::Switch:
      return cmd->add_flag(spec.names, args.values[key], spec.help);
    case OptionKind::List:
    case OptionKind::Positionals:
      option = cmd->add_option(spec.names, args.lists[key], spec.help);
      break;
    case OptionKind::Value:
    case OptionKind::Positional:
      args.values[key] = spec.default_value;
      option = cmd->add_option(spec.names, args.values[key], spec.help);
      break;
  }
  if (!spec.type_name.empty()) option->type_name(spec.type_name);
  if (!spec.choices.empty()) option->check(CLI::IsMember(spec.choices));
  if (spec.check) option->check(validator(spec));
  if (!spec.default_value.empty()) option->capture_default_str();
  if (spec.required) option->required();
  return option;
}

// A command of the table as a CLI11 subcommand.
struct Wired {
  const CommandRow* row = nullptr;
  CLI::App* app = nullptr;
  Args args;
  std::vector<std::pair<std::string, CLI::Option*>> options;  // key, option
};

void wire(CLI::App& app, const CommandRow& row, Wired& w) {
  w.row = &row;
  w.app = app.add_subcommand(std::string(row.name), std::string(row.summary));
  for (const OptionSpec& spec : row.options)
    w.options.emplace_back(spec.key(), add_option(w.app, spec, w.args));
  w.app->set_version_flag("--version", std::string("eruplan ") + ERUPLAN_VERSION);
  // Two real examples at the end of each command's --help.
  std::string footer = "Examples:";
  for (std::string_view example : row.examples) footer += "\n  " + std::string(example);
  w.app->footer(footer);
}

// The pieces of a large output wait in a temporary file (in memory if none
// can be made) until the run ends, so a run that fails late, past its work
// bound, prints no half plan; memory holds one piece at a time.
struct Spool {
  std::FILE* file = std::tmpfile();
  std::string held;
  void write(std::string_view piece) {
    if (file == nullptr || std::fwrite(piece.data(), 1, piece.size(), file) != piece.size())
      held += piece;
  }
  void release(bool print) {
    if (file != nullptr) {
      std::rewind(file);
      std::vector<char> chunk(std::size_t{1} << 20);
      while (const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), file))
        if (print) std::fwrite(chunk.data(), 1, n, stdout);
      std::fclose(file);
    }
    if (print) std::fwrite(held.data(), 1, held.size(), stdout);
  }
};

// Runs the command and prints what it hands back.
int run(Wired& w) {
  for (const auto& [key, option] : w.options)
    if (option->count() > 0) w.args.given.insert(key);
  const FileAccess files{read_input, list_dir, run_program, open_input};
  Spool spool;
  const CommandInput input{w.args, files, [&spool](std::string_view piece) { spool.write(piece); }};
  // Never freed (a static keeps it reachable for LeakSanitizer): the process
  // ends right after printing, and tearing a large inventory down node by
  // node costs up to a tenth of the run. std::exit still flushes the streams.
  static const CommandOutput* result = new CommandOutput(w.row->run(input));
  for (const auto& [path, text] : result->files)
    if (!write_file(path, text)) return static_cast<int>(ExitCode::Internal);
  for (const auto& [path, write] : result->written) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    write([&out](std::string_view piece) {
      out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    });
    out.close();
    if (!out) {
      std::cerr << "eruplan: error: cannot write " << path << ": " << std::strerror(errno) << '\n';
      return static_cast<int>(ExitCode::Internal);
    }
  }
  if (result->exit == ExitCode::Usage) print_usage_error(result->usage);
  std::fwrite(result->err.data(), 1, result->err.size(), stderr);
  spool.release(result->exit != ExitCode::Invalid && result->exit != ExitCode::Internal);
  std::fwrite(result->out.data(), 1, result->out.size(), stdout);
  return static_cast<int>(result->exit);
}

int main_impl(int argc, char** argv) {
  CLI::App app{
      "eruplan: an offline, dry-run deployment planner (capacity pass, then strategy pass)",
      "eruplan"};
  app.set_version_flag("--version", std::string("eruplan ") + ERUPLAN_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 done, 2 usage error, 3 invalid input, 4 infeasible, 5 already satisfied, 1 "
      "internal error.\nSee man eruplan.");
  const std::span<const CommandRow> table = command_table();
  std::vector<Wired> commands(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) wire(app, table[i], commands[i]);

  if (argc > 1 && argv[1][0] != '-' && !find_command(argv[1])) {
    std::vector<std::string_view> names;
    for (const CommandRow& row : table) names.emplace_back(row.name);
    const std::string_view best = nearest_name(argv[1], names, 2);
    return usage_error("unknown command '" + std::string(argv[1]) + "'" +
                           (best.empty() ? "" : "; did you mean " + std::string(best) + "?") +
                           " (commands: " + command_names() + ")",
                       requested_output(argc, argv));
  }
  if (argc > 1) {
    // Flags the command would not use, and unknown ones, before CLI11 sees them.
    if (const CommandRow* row = find_command(argv[1]))
      if (auto wrong = check_flags(*row, std::vector<std::string>(argv + 2, argv + argc)))
        return usage_error(*wrong, requested_output(argc, argv));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return usage_error(e.what(), requested_output(argc, argv));
  }
  for (Wired& w : commands)
    if (w.app->parsed()) return run(w);
  return static_cast<int>(ExitCode::Internal);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    finish(main_impl(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "eruplan: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "eruplan: internal error\n";
  }
  return static_cast<int>(ExitCode::Internal);
}
