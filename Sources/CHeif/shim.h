#ifndef CHEIF_SHIM_H
#define CHEIF_SHIM_H
// libheif 1.15's C API imports as is; the shim exists so the module has one header to name.
#include <libheif/heif.h>
#endif
