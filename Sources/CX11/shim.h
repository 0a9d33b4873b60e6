/* Xlib (libx11-dev, x11.pc), for the one question `tandem atspi` asks X itself: which window
   typed keys go to now (Docs/atspi.md#actions). The inline helpers stand in for Xlib macros
   Swift cannot import (casts). */
#include <X11/Xlib.h>
#include <X11/Xatom.h>

/* Xlib's default error handler ends the process; a window that goes away between two calls
   is normal here, and each call's own result says it failed. */
static int tandem_x_ignore_error(Display *display, XErrorEvent *event) { (void)display; (void)event; return 0; }
static inline void tandem_x_ignore_errors(void) { XSetErrorHandler(tandem_x_ignore_error); }

static inline Atom tandem_x_cardinal(void) { return XA_CARDINAL; }
static inline Atom tandem_x_string(void) { return XA_STRING; }
static inline Atom tandem_x_wm_name(void) { return XA_WM_NAME; }
