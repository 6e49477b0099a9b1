#include "CLazyLoader.h"

void CLazyLoader_preloadFFmpeg(void);
void CLazyLoader_preloadHeif(void);

void CLazyLoader_preload(void) {
    CLazyLoader_preloadFFmpeg();
    CLazyLoader_preloadHeif();
}
