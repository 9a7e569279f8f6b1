// Linux interfaces the Swift Glibc module leaves out: for `routine watch`, a timer on the wall
// clock that fires at an absolute time and notices when the clock is set; for the store,
// statfs, which tells the kernel's file systems (/proc) whose files stat calls regular.
#ifdef __linux__
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/vfs.h>
#endif
