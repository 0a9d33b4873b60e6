/* libatspi (at-spi2-core's client library, what Orca's pyatspi wraps); atspi-2.pc adds
   -I/usr/include/at-spi-2.0 and GLib's and D-Bus's include folders. The inline helpers stand in
   for GLib macros Swift cannot import (g_array_index, G_VALUE_HOLDS_STRING, casts). */
#include <atspi/atspi.h>

static inline gint tandem_array_int(GArray *array, guint i) { return g_array_index(array, gint, i); }
static inline const gchar *tandem_array_string(GArray *array, guint i) { return g_array_index(array, gchar *, i); }
static inline guint tandem_array_length(GArray *array) { return array ? array->len : 0; }

/* The event's string payload (an announcement's text, a name change's new name), or NULL. */
static inline const gchar *tandem_event_string(AtspiEvent *event) {
    return G_VALUE_HOLDS_STRING(&event->any_data) ? g_value_get_string(&event->any_data) : NULL;
}
/* The event's object payload (children-changed's child), or NULL; not a new reference. */
static inline AtspiAccessible *tandem_event_accessible(AtspiEvent *event) {
    if (!G_VALUE_HOLDS_OBJECT(&event->any_data)) return NULL;
    GObject *o = g_value_get_object(&event->any_data);
    return o && ATSPI_IS_ACCESSIBLE(o) ? ATSPI_ACCESSIBLE(o) : NULL;
}
static inline void tandem_unref(gpointer object) { if (object) g_object_unref(object); }
static inline gpointer tandem_ref(gpointer object) { return g_object_ref(object); }
static inline void tandem_clear_error(GError **error) { g_clear_error(error); }
/* Whether two accessibles belong to the same application connection (no D-Bus call). */
static inline int tandem_same_app(AtspiAccessible *a, AtspiAccessible *b) {
    return a && b && ((AtspiObject *)a)->app == ((AtspiObject *)b)->app;
}
/* An event handed to a listener's callback is the callback's to free (transfer full). */
static inline void tandem_event_free(AtspiEvent *event) { g_boxed_free(ATSPI_TYPE_EVENT, event); }
