/*
** CLuaShim: pattern functions with a step budget (find, match, gmatch, gsub).
**
** Placeholder until the bounded matcher lands: the standard functions stay.
*/
#include <lua.h>

#include "host.h"

void sslua_add_pattern_functions (lua_State *L, int idx) {
  (void)L;
  (void)idx;
}
