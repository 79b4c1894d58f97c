// eruplan_measure RESULT COMMAND: runs `/bin/sh -c COMMAND` as its child,
// waits for it and writes "EXIT CPU_MICROSECONDS MAX_RSS_KB" to RESULT.
//
// The bounded-work test measures the binary through this small program: a
// child's peak resident size counts the memory of the process it was forked
// from (Linux keeps that peak through exec), and the test process is many
// megabytes. Forked from this one, the peak is the command's own. libc only,
// so that this process stays small.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: eruplan_measure RESULT COMMAND\n", stderr);
    return 2;
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", argv[2], static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid) return 2;
  std::FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) return 2;
  const long long cpu_us =
      (static_cast<long long>(usage.ru_utime.tv_sec) + usage.ru_stime.tv_sec) * 1000000 +
      usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
  std::fprintf(out, "%d %lld %ld\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1, cpu_us,
               usage.ru_maxrss);
  return std::fclose(out) == 0 ? 0 : 2;
}
