// Preloaded by scripts/descriptor-check.sh: a close() that fails with EBADF is a descriptor
// closed twice. Mostly the number is free the second time and nothing happens; in a parallel
// run another thread may have been given it meanwhile, and then its socket or pipe is closed
// under it. This logs every such close, with the program and a backtrace, to
// $TANDEM_CLOSE_LOG. close(-1) is not logged (several libraries do it on purpose).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int (*real_close)(int);

int close(int fd) {
  if (!real_close) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
  int result = real_close(fd);
  int saved = errno;
  const char *path = getenv("TANDEM_CLOSE_LOG");
  if (result < 0 && saved == EBADF && fd >= 0 && path) {
    int log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log >= 0) {
      char exe[512] = {0};
      ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
      if (n < 0) n = 0;
      exe[n] = 0;
      char head[700];
      int length = snprintf(head, sizeof head, "=== close(%d) EBADF in %s (pid %d)\n", fd, exe, (int)getpid());
      write(log, head, (size_t)length);
      void *frames[48];
      backtrace_symbols_fd(frames, backtrace(frames, 48), log);
      real_close(log);
    }
  }
  errno = saved;
  return result;
}
