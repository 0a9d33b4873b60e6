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
