#include <zlib.h>

// inflateInit2 and deflateInit2 are macros, which Swift cannot call; these pass the version and
// the stream's size as the macros do. Window bits -15: raw deflate, as ZIP entries hold it.
static inline int czlib_inflate_init_raw(z_streamp stream) {
  return inflateInit2(stream, -15);
}

static inline int czlib_deflate_init_raw(z_streamp stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
