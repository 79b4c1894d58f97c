// Running the built eruplan binary from a test: one scratch directory per
// test program, stdout and stderr captured, the exit status decoded.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace eruplan_test {

struct Ran {
  int exit = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// /tmp/eruplan_<name>_<pid>, created on first use.
inline std::filesystem::path scratch_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("eruplan_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// Runs `eruplan ARGS` in `dir` through the shell, with `stdin_text` as its
// standard input.
inline Ran run_eruplan(const std::filesystem::path& dir, const std::string& args,
                       const std::string& stdin_text = "") {
  static int counter = 0;
  const std::string tag = std::to_string(counter++);
  const std::filesystem::path in = dir / ("in" + tag), out = dir / ("out" + tag),
                              err = dir / ("err" + tag);
  std::ofstream(in) << stdin_text;
  const std::string cmd = "cd " + dir.string() + " && " + ERUPLAN_BINARY + " " + args + " <" +
                          in.string() + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace eruplan_test
