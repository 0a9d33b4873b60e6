/* glibc calls that Swift's Glibc module does not import: it is built without _GNU_SOURCE, so
   these GNU/Linux declarations are hidden. They are declared here as glibc defines them; libc
   itself provides them, so nothing is linked. */
#include <sys/socket.h>
#include <unistd.h>

/* accept(2) that sets close-on-exec and nonblocking in the same call, so no child process
   started by another thread between accept and fcntl inherits the connection. */
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

/* pipe(2) with O_CLOEXEC and O_NONBLOCK set atomically. */
int pipe2(int pipefd[2], int flags);

/* SO_PEERCRED's answer (struct ucred, hidden without _GNU_SOURCE). */
struct clinux_peer_credentials {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

#include <spawn.h>

/* A spawn action closing every descriptor from `from` up (glibc 2.34): a child gets only the
   standard three, whatever the parent had open without close-on-exec. */
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* sched_setaffinity(2) (hidden without _GNU_SOURCE, with its cpu_set_t macros): `mask` is a
   bit per CPU, `size` its bytes. Named apart, bound to the libc symbol, so it cannot clash
   with a declaration a header may bring in. */
int clinux_sched_setaffinity(pid_t pid, size_t size, const void *mask) __asm__("sched_setaffinity");
