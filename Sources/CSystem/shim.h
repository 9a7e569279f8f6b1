// Linux interfaces the Swift Glibc module leaves out: for `routine watch`, a timer on the wall
// clock that fires at an absolute time and notices when the clock is set; for the store,
// statfs, which tells the kernel's file systems (/proc) whose files stat calls regular.
#ifdef __linux__
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/vfs.h>
#endif

// The size of a terminal, for the pager (ioctl is variadic, which Swift cannot call).
#include <sys/ioctl.h>
static inline int routine_terminal_rows(int fd) {
  struct winsize size;
  return ioctl(fd, TIOCGWINSZ, &size) == 0 ? (int)size.ws_row : 0;
}
