// Linux interfaces the Swift Glibc module leaves out, for `routine watch`: a timer on the wall
// clock that fires at an absolute time and notices when the clock is set.
#ifdef __linux__
#include <sys/timerfd.h>
#include <sys/inotify.h>
#endif
