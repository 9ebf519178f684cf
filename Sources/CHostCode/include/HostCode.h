#ifndef SENDINGSTATE_HOST_CODE_H
#define SENDINGSTATE_HOST_CODE_H

#include <stddef.h>

/* The host's own code in other languages — the screen kernel's and the sandbox's Lua, the spec
   host's Lua, the preview page's HTML, CSS and JavaScript, the templates of `init` and `plugins
   new` — built into the binary at build time
   from the files beside HostCode.c (C23 #embed; the compiler's dependency file names each one, so
   editing a file rebuilds this one). Editors, luacheck and reviews see them as the files they are. */

/* The bytes of the file at `path` (relative to Sources/CHostCode, e.g. "kernel/engine.lua") and
   their count in `*size`, or NULL if no such file is built in. The bytes are not NUL-terminated. */
const unsigned char *sshc_file(const char *path, size_t *size);

/* The number of files built in, and the path of the `index`th (NULL past the end): for tests that
   check every file is reachable. */
size_t sshc_file_count(void);
const char *sshc_file_path(size_t index);

#endif
