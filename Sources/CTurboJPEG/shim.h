#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H
// libjpeg-turbo's TurboJPEG API imports as is; the shim exists so the module has one header to name.
#include <turbojpeg.h>
#endif
