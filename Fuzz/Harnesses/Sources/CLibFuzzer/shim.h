// libFuzzer's entry for programs that have a main of their own (compiler-rt's
// FuzzerInterface.h), and LeakSanitizer's switch (compiler-rt's lsan_interface.h). The
// libraries themselves are linked by `-sanitize=fuzzer,address`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

// Weak: a build without AddressSanitizer has no LeakSanitizer, and these do nothing.
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));

static inline void tandem_lsan_disable(void) { if (__lsan_disable) __lsan_disable(); }
static inline void tandem_lsan_enable(void) { if (__lsan_enable) __lsan_enable(); }
