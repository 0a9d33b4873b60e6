/* BrlAPI (BRLTTY's client library). Debian's libbrlapi-dev has no pkg-config file, so the
   modulemap links "brlapi" by name. */
#include <brlapi.h>

/* Key-code macros are written with UINT64_C(...) or as function-like macros and are not
   imported into Swift; re-export the ones Tandem uses. */
static const brlapi_keyCode_t CBRLAPI_KEY_TYPE_MASK = BRLAPI_KEY_TYPE_MASK;
static const brlapi_keyCode_t CBRLAPI_KEY_TYPE_CMD = BRLAPI_KEY_TYPE_CMD;
static const brlapi_keyCode_t CBRLAPI_KEY_TYPE_SYM = BRLAPI_KEY_TYPE_SYM;
static const brlapi_keyCode_t CBRLAPI_KEY_CODE_MASK = BRLAPI_KEY_CODE_MASK;
static const brlapi_keyCode_t CBRLAPI_KEY_CMD_BLK_MASK = BRLAPI_KEY_CMD_BLK_MASK;
static const brlapi_keyCode_t CBRLAPI_KEY_CMD_ARG_MASK = BRLAPI_KEY_CMD_ARG_MASK;
static const brlapi_keyCode_t CBRLAPI_KEY_CMD_ROUTE = BRLAPI_KEY_CMD_ROUTE;
static const brlapi_keyCode_t CBRLAPI_KEY_FLAGS_MASK = BRLAPI_KEY_FLAGS_MASK;
static const brlapi_keyCode_t CBRLAPI_KEY_MAX = BRLAPI_KEY_MAX;

/* BRLAPI_KEY_CMD(n): the first code of command block n (block 0 holds the plain commands,
   LNUP = block 0 + 1; block 1 is ROUTE, whose argument is the cell). */
static inline brlapi_keyCode_t cbrlapi_key_cmd(unsigned int block) {
    return BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD(block);
}

/* The keysyms BRLTTY sends for its KEY_* commands (in command mode, driver NULL). */
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_BACKSPACE = BRLAPI_KEY_SYM_BACKSPACE;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_TAB = BRLAPI_KEY_SYM_TAB;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_LINEFEED = BRLAPI_KEY_SYM_LINEFEED;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_ESCAPE = BRLAPI_KEY_SYM_ESCAPE;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_HOME = BRLAPI_KEY_SYM_HOME;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_LEFT = BRLAPI_KEY_SYM_LEFT;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_UP = BRLAPI_KEY_SYM_UP;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_RIGHT = BRLAPI_KEY_SYM_RIGHT;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_DOWN = BRLAPI_KEY_SYM_DOWN;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_PAGE_UP = BRLAPI_KEY_SYM_PAGE_UP;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_PAGE_DOWN = BRLAPI_KEY_SYM_PAGE_DOWN;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_END = BRLAPI_KEY_SYM_END;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_INSERT = BRLAPI_KEY_SYM_INSERT;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_FUNCTION = BRLAPI_KEY_SYM_FUNCTION;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_DELETE = BRLAPI_KEY_SYM_DELETE;
static const brlapi_keyCode_t CBRLAPI_KEY_SYM_UNICODE = BRLAPI_KEY_SYM_UNICODE;
