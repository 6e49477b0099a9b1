#ifndef CEBUR128_SHIM_H
#define CEBUR128_SHIM_H
// libebur128 (ITU-R BS.1770-4 / EBU R128 loudness) is plain C that Swift imports as it is: no shims are needed.
#include <ebur128.h>
#endif
