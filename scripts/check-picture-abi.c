/*
** check-picture-abi.c: Sources/CPicture declares the cairo and pango functions it opens with
** dlopen itself (so building needs no cairo or pango, and starting the CLI loads neither).
** This file compiles those declarations against Debian's real headers: every function's type,
** every constant and the rectangle's layout must match, or the build of this file fails.
** scripts/test.sh compiles it (`cc -fsyntax-only`, with pkg-config's flags for pangocairo).
*/
#include <cairo.h>
#include <pango/pangocairo.h>
#include <stddef.h>

#include "picture.h"
#include "../Sources/CPicture/functions.h"

#define SAME(ours, theirs) _Static_assert(__builtin_types_compatible_p(ours, theirs), #ours " differs from " #theirs)

/* Entries spelled with cairo's and pango's own types (the object types share their struct tags). */
#define EXACT_R(result, name, parameters, arguments) SAME(result(*) parameters, __typeof__(&name));
#define EXACT_V(name, parameters, arguments) SAME(void(*) parameters, __typeof__(&name));
#define LATER_R(result, name, parameters, arguments)
#define LATER_V(name, parameters, arguments)
SSPIC_FUNCTIONS(EXACT_R, EXACT_V, LATER_R, LATER_V)

/* The others: theirs take or give an enum, a PangoRectangle or a cairo_write_func_t where ours
** say int, sspic_rectangle, sspic_write_func. Their types are these: */
SAME(__typeof__(&cairo_image_surface_create), cairo_surface_t *(*)(cairo_format_t, int, int));
SAME(__typeof__(&cairo_surface_write_to_png_stream), cairo_status_t (*)(cairo_surface_t *, cairo_write_func_t, void *));
SAME(cairo_write_func_t, cairo_status_t (*)(void *, const unsigned char *, unsigned int));
SAME(__typeof__(&cairo_image_surface_create_from_png_stream), cairo_surface_t *(*)(cairo_read_func_t, void *));
SAME(cairo_read_func_t, cairo_status_t (*)(void *, unsigned char *, unsigned int));
SAME(__typeof__(&cairo_surface_status), cairo_status_t (*)(cairo_surface_t *));
SAME(__typeof__(&cairo_image_surface_get_format), cairo_format_t (*)(cairo_surface_t *));
SAME(__typeof__(&cairo_font_options_set_antialias), void (*)(cairo_font_options_t *, cairo_antialias_t));
SAME(__typeof__(&cairo_font_options_set_hint_style), void (*)(cairo_font_options_t *, cairo_hint_style_t));
SAME(__typeof__(&cairo_font_options_set_hint_metrics), void (*)(cairo_font_options_t *, cairo_hint_metrics_t));
SAME(__typeof__(&pango_font_description_set_weight), void (*)(PangoFontDescription *, PangoWeight));
SAME(__typeof__(&pango_layout_get_extents), void (*)(PangoLayout *, PangoRectangle *, PangoRectangle *));
/* …and ours are theirs with those replaced: */
SAME(__typeof__(&sspic_cairo_image_surface_create), sspic_surface *(*)(int, int, int));
SAME(__typeof__(&sspic_cairo_surface_write_to_png_stream), int (*)(sspic_surface *, sspic_write_func, void *));
SAME(sspic_write_func, int (*)(void *, const unsigned char *, unsigned int));
SAME(__typeof__(&sspic_cairo_image_surface_create_from_png_stream), sspic_surface *(*)(sspic_read_func, void *));
SAME(sspic_read_func, int (*)(void *, unsigned char *, unsigned int));
SAME(__typeof__(&sspic_cairo_surface_status), int (*)(sspic_surface *));
SAME(__typeof__(&sspic_cairo_image_surface_get_format), int (*)(sspic_surface *));
SAME(__typeof__(&sspic_cairo_font_options_set_antialias), void (*)(sspic_font_options *, int));
SAME(__typeof__(&sspic_cairo_font_options_set_hint_style), void (*)(sspic_font_options *, int));
SAME(__typeof__(&sspic_cairo_font_options_set_hint_metrics), void (*)(sspic_font_options *, int));
SAME(__typeof__(&sspic_pango_font_description_set_weight), void (*)(sspic_font_description *, int));
SAME(__typeof__(&sspic_pango_layout_get_extents), void (*)(sspic_layout *, sspic_rectangle *, sspic_rectangle *));
/* …which passes them the same way: enums as 4-byte integers, the same rectangle. */
_Static_assert(sizeof(cairo_format_t) == sizeof(int) && sizeof(cairo_status_t) == sizeof(int), "enum size");
_Static_assert(sizeof(cairo_antialias_t) == sizeof(int) && sizeof(cairo_hint_style_t) == sizeof(int), "enum size");
_Static_assert(sizeof(cairo_hint_metrics_t) == sizeof(int) && sizeof(PangoWeight) == sizeof(int), "enum size");
_Static_assert(sizeof(PangoRectangle) == sizeof(sspic_rectangle), "rectangle size");
_Static_assert(offsetof(PangoRectangle, x) == offsetof(sspic_rectangle, x), "rectangle x");
_Static_assert(offsetof(PangoRectangle, y) == offsetof(sspic_rectangle, y), "rectangle y");
_Static_assert(offsetof(PangoRectangle, width) == offsetof(sspic_rectangle, width), "rectangle width");
_Static_assert(offsetof(PangoRectangle, height) == offsetof(sspic_rectangle, height), "rectangle height");

/* The constants. */
_Static_assert((int)SSPIC_FORMAT_RGB24 == (int)CAIRO_FORMAT_RGB24, "CAIRO_FORMAT_RGB24");
_Static_assert((int)SSPIC_FORMAT_ARGB32 == (int)CAIRO_FORMAT_ARGB32, "CAIRO_FORMAT_ARGB32");
_Static_assert((int)SSPIC_STATUS_READ_ERROR == (int)CAIRO_STATUS_READ_ERROR, "CAIRO_STATUS_READ_ERROR");
_Static_assert((int)SSPIC_STATUS_SUCCESS == (int)CAIRO_STATUS_SUCCESS, "CAIRO_STATUS_SUCCESS");
_Static_assert((int)SSPIC_STATUS_WRITE_ERROR == (int)CAIRO_STATUS_WRITE_ERROR, "CAIRO_STATUS_WRITE_ERROR");
_Static_assert((int)SSPIC_ANTIALIAS_GRAY == (int)CAIRO_ANTIALIAS_GRAY, "CAIRO_ANTIALIAS_GRAY");
_Static_assert((int)SSPIC_HINT_STYLE_NONE == (int)CAIRO_HINT_STYLE_NONE, "CAIRO_HINT_STYLE_NONE");
_Static_assert((int)SSPIC_HINT_METRICS_OFF == (int)CAIRO_HINT_METRICS_OFF, "CAIRO_HINT_METRICS_OFF");
_Static_assert((int)SSPIC_PANGO_SCALE == (int)PANGO_SCALE, "PANGO_SCALE");
_Static_assert((int)SSPIC_WEIGHT_NORMAL == (int)PANGO_WEIGHT_NORMAL, "PANGO_WEIGHT_NORMAL");
_Static_assert((int)SSPIC_WEIGHT_BOLD == (int)PANGO_WEIGHT_BOLD, "PANGO_WEIGHT_BOLD");
