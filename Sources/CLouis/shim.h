/* liblouis' public header; Debian's liblouis.pc adds -I/usr/include/liblouis. */
#include <liblouis.h>
