/* libspeechd (speech-dispatcher's client library); speech-dispatcher.pc adds
   -I/usr/include/speech-dispatcher. */
#include <libspeechd.h>
