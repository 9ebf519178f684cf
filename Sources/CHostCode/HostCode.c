/* The files built into the binary; see include/HostCode.h. Add a file here when you add one
 * beside this file (HostCodeTests checks that every file in the folder is listed), and a new
 * folder to the target's `exclude:` in Package.swift. */
#include "HostCode.h"

#include <string.h>

/* #embed is C23; clang accepts it in any mode. */
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char file_kernel_engine_lua[] = {
#embed "kernel/engine.lua"
};
static const unsigned char file_kernel_state_lua[] = {
#embed "kernel/state.lua"
};
static const unsigned char file_preview_page_css[] = {
#embed "preview/page.css"
};
static const unsigned char file_preview_page_html[] = {
#embed "preview/page.html"
};
static const unsigned char file_preview_preview_js[] = {
#embed "preview/preview.js"
};
static const unsigned char file_sandbox_prelude_lua[] = {
#embed "sandbox/prelude.lua"
};
static const unsigned char file_spec_coverage_lua[] = {
#embed "spec/coverage.lua"
};
static const unsigned char file_spec_host_lua[] = {
#embed "spec/host.lua"
};
static const unsigned char file_spec_screen_driver_lua[] = {
#embed "spec/screen_driver.lua"
};
static const unsigned char file_spec_terminal_output_lua[] = {
#embed "spec/terminal_output.lua"
};
static const unsigned char file_templates_plugin_component_lua[] = {
#embed "templates/plugin/component.lua"
};
static const unsigned char file_templates_plugin_demo_lua[] = {
#embed "templates/plugin/demo.lua"
};
static const unsigned char file_templates_plugin_plugin_lua[] = {
#embed "templates/plugin/plugin.lua"
};
static const unsigned char file_templates_plugin_plugin_spec_lua[] = {
#embed "templates/plugin/plugin_spec.lua"
};
static const unsigned char file_templates_project_busted_lua[] = {
#embed "templates/project/busted.lua"
};
static const unsigned char file_templates_project_screen_lua[] = {
#embed "templates/project/screen.lua"
};
static const unsigned char file_templates_project_screen_spec_lua[] = {
#embed "templates/project/screen_spec.lua"
};

static const unsigned char file_tools_invariants_lua[] = {
#embed "tools/invariants.lua"
};

static const unsigned char file_tools_screen_types_lua[] = {
#embed "tools/screen_types.lua"
};

static const struct {
  const char *path;
  const unsigned char *bytes;
  size_t size;
} files[] = {
  {"kernel/engine.lua", file_kernel_engine_lua, sizeof file_kernel_engine_lua},
  {"kernel/state.lua", file_kernel_state_lua, sizeof file_kernel_state_lua},
  {"preview/page.css", file_preview_page_css, sizeof file_preview_page_css},
  {"preview/page.html", file_preview_page_html, sizeof file_preview_page_html},
  {"preview/preview.js", file_preview_preview_js, sizeof file_preview_preview_js},
  {"sandbox/prelude.lua", file_sandbox_prelude_lua, sizeof file_sandbox_prelude_lua},
  {"spec/coverage.lua", file_spec_coverage_lua, sizeof file_spec_coverage_lua},
  {"spec/host.lua", file_spec_host_lua, sizeof file_spec_host_lua},
  {"spec/screen_driver.lua", file_spec_screen_driver_lua, sizeof file_spec_screen_driver_lua},
  {"spec/terminal_output.lua", file_spec_terminal_output_lua, sizeof file_spec_terminal_output_lua},
  {"templates/plugin/component.lua", file_templates_plugin_component_lua, sizeof file_templates_plugin_component_lua},
  {"templates/plugin/demo.lua", file_templates_plugin_demo_lua, sizeof file_templates_plugin_demo_lua},
  {"templates/plugin/plugin.lua", file_templates_plugin_plugin_lua, sizeof file_templates_plugin_plugin_lua},
  {"templates/plugin/plugin_spec.lua", file_templates_plugin_plugin_spec_lua, sizeof file_templates_plugin_plugin_spec_lua},
  {"templates/project/busted.lua", file_templates_project_busted_lua, sizeof file_templates_project_busted_lua},
  {"templates/project/screen.lua", file_templates_project_screen_lua, sizeof file_templates_project_screen_lua},
  {"templates/project/screen_spec.lua", file_templates_project_screen_spec_lua, sizeof file_templates_project_screen_spec_lua},
  {"tools/invariants.lua", file_tools_invariants_lua, sizeof file_tools_invariants_lua},
  {"tools/screen_types.lua", file_tools_screen_types_lua, sizeof file_tools_screen_types_lua},
};

const unsigned char *sshc_file(const char *path, size_t *size) {
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    if (strcmp(files[i].path, path) == 0) {
      *size = files[i].size;
      return files[i].bytes;
    }
  }
  *size = 0;
  return NULL;
}

size_t sshc_file_count(void) { return sizeof files / sizeof files[0]; }

const char *sshc_file_path(size_t index) {
  return index < sizeof files / sizeof files[0] ? files[index].path : NULL;
}
