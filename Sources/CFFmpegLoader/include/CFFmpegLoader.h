#ifndef CFFMPEG_LOADER_H
#define CFFMPEG_LOADER_H

// CFFmpegLoader has no API of its own. It defines, under their own names, the libavformat, libavcodec and
// libswresample functions Reel calls (see loader.c), so those three libraries and the ~90 codec libraries they
// pull in are loaded on first use instead of at process start. An image job that never touches a codec (JPEG
// through libjpeg-turbo, HEIF through libheif, resizing in libswscale) never loads them. Swift keeps calling the
// functions through CFFmpeg's headers as before.

#endif
