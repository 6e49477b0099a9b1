#ifndef CLAZYLOADER_H
#define CLAZYLOADER_H

// CLazyLoader's own API is one function, CLazyLoader_preload. Otherwise it defines, under their own names, the libavformat, libavcodec,
// libswresample (ffmpeg.c) and libheif (heif.c) functions Reel calls, so those libraries and the ~90 codec
// libraries they pull in (x265, aom, dav1d, libde265, ...) are loaded on first use instead of at process start.
// A JPEG that becomes a WebP never loads them. Swift keeps calling the functions through the CFFmpeg and CHeif
// headers as before; only the module maps stopped linking the libraries.

/// Opens every lazily loaded library now (libavcodec, libavformat, libswresample, libheif), for a process that forks
/// workers and wants them to inherit the libraries instead of opening them each. Aborts, naming the library, if one
/// is missing.
void CLazyLoader_preload(void);

#endif
