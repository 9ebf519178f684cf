/*
** picture.h: the parts of cairo and pango that screen pictures use, opened at the first
** picture instead of linked.
**
** Linked, cairo, pango and their ~30 dependencies (glib, harfbuzz, fontconfig, freetype, X11…)
** were loaded and relocated by every start of the CLI, most of which draw nothing. So this
** header declares the few entry points itself (the object types by the same struct tags as
** cairo's and pango's own headers), `sspic_open` finds them in Debian's libpangocairo with
** dlopen, and the `sspic_` functions call them. scripts/check-picture-abi.c compiles these
** declarations against the real headers, so a mismatch fails CI rather than a picture.
*/
#ifndef SENDINGSTATE_PICTURE_H
#define SENDINGSTATE_PICTURE_H

#include <stddef.h>

typedef struct _cairo sspic_cairo;
typedef struct _cairo_surface sspic_surface;
typedef struct _cairo_font_options sspic_font_options;
typedef struct _PangoFontMap sspic_font_map;
typedef struct _PangoContext sspic_context;
typedef struct _PangoLayout sspic_layout;
typedef struct _PangoFontDescription sspic_font_description;

/* PangoRectangle's layout (pango units). */
typedef struct sspic_rectangle {
  int x;
  int y;
  int width;
  int height;
} sspic_rectangle;

/* cairo_write_func_t, with cairo_status_t as the int it is. */
typedef int (*sspic_write_func)(void *closure, const unsigned char *data, unsigned int length);
/* cairo_read_func_t, likewise. */
typedef int (*sspic_read_func)(void *closure, unsigned char *data, unsigned int length);

/* The values used of cairo's and pango's enums (checked against theirs). */
enum {
  SSPIC_FORMAT_ARGB32 = 0,
  SSPIC_FORMAT_RGB24 = 1,
  SSPIC_STATUS_SUCCESS = 0,
  SSPIC_STATUS_READ_ERROR = 10,
  SSPIC_STATUS_WRITE_ERROR = 11,
  SSPIC_ANTIALIAS_GRAY = 2,
  SSPIC_HINT_STYLE_NONE = 1,
  SSPIC_HINT_METRICS_OFF = 1,
  SSPIC_PANGO_SCALE = 1024,
  SSPIC_WEIGHT_NORMAL = 400,
  SSPIC_WEIGHT_BOLD = 700
};

/* Opens libpangocairo-1.0.so.0 and finds every function below, once per process. 1 when they
** can be used; 0 and why in `error` when not (and every later call says the same). */
int sspic_open(char *error, size_t error_size);

/* Each calls the function of the same name after `sspic_`. Only after sspic_open returned 1. */
sspic_surface *sspic_cairo_image_surface_create(int format, int width, int height);
void sspic_cairo_surface_destroy(sspic_surface *surface);
void sspic_cairo_surface_flush(sspic_surface *surface);
int sspic_cairo_surface_write_to_png_stream(sspic_surface *surface, sspic_write_func write, void *closure);
sspic_cairo *sspic_cairo_create(sspic_surface *surface);
void sspic_cairo_destroy(sspic_cairo *cairo);
void sspic_cairo_scale(sspic_cairo *cairo, double x, double y);
void sspic_cairo_push_group(sspic_cairo *cairo);
void sspic_cairo_pop_group_to_source(sspic_cairo *cairo);
void sspic_cairo_paint_with_alpha(sspic_cairo *cairo, double alpha);
void sspic_cairo_set_source_rgb(sspic_cairo *cairo, double red, double green, double blue);
void sspic_cairo_set_line_width(sspic_cairo *cairo, double width);
void sspic_cairo_new_path(sspic_cairo *cairo);
void sspic_cairo_close_path(sspic_cairo *cairo);
void sspic_cairo_move_to(sspic_cairo *cairo, double x, double y);
void sspic_cairo_line_to(sspic_cairo *cairo, double x, double y);
void sspic_cairo_rectangle(sspic_cairo *cairo, double x, double y, double width, double height);
void sspic_cairo_arc(sspic_cairo *cairo, double x, double y, double radius, double from, double to);
void sspic_cairo_fill(sspic_cairo *cairo);
void sspic_cairo_fill_preserve(sspic_cairo *cairo);
void sspic_cairo_stroke(sspic_cairo *cairo);
void sspic_cairo_save(sspic_cairo *cairo);
void sspic_cairo_restore(sspic_cairo *cairo);
void sspic_cairo_clip(sspic_cairo *cairo);
void sspic_cairo_set_source_rgba(sspic_cairo *cairo, double red, double green, double blue, double alpha);
/* 0 for a surface cairo could not make (too large, out of memory). */
int sspic_cairo_image_surface_get_width(sspic_surface *surface);
/* Decoding (snapshot pictures): a surface read from PNG bytes (an error surface, whose status
** says why, when they are not a PNG); its status, format, size, stride and pixels; and
** mark_dirty after writing pixels directly. */
sspic_surface *sspic_cairo_image_surface_create_from_png_stream(sspic_read_func read, void *closure);
int sspic_cairo_surface_status(sspic_surface *surface);
int sspic_cairo_image_surface_get_format(sspic_surface *surface);
int sspic_cairo_image_surface_get_height(sspic_surface *surface);
int sspic_cairo_image_surface_get_stride(sspic_surface *surface);
unsigned char *sspic_cairo_image_surface_get_data(sspic_surface *surface);
void sspic_cairo_surface_mark_dirty(sspic_surface *surface);
sspic_font_options *sspic_cairo_font_options_create(void);
void sspic_cairo_font_options_destroy(sspic_font_options *options);
void sspic_cairo_font_options_set_antialias(sspic_font_options *options, int antialias);
void sspic_cairo_font_options_set_hint_style(sspic_font_options *options, int style);
void sspic_cairo_font_options_set_hint_metrics(sspic_font_options *options, int metrics);
sspic_font_map *sspic_pango_cairo_font_map_new(void);
sspic_context *sspic_pango_font_map_create_context(sspic_font_map *map);
void sspic_pango_cairo_context_set_font_options(sspic_context *context, const sspic_font_options *options);
sspic_font_description *sspic_pango_font_description_new(void);
void sspic_pango_font_description_set_family(sspic_font_description *font, const char *family);
void sspic_pango_font_description_set_weight(sspic_font_description *font, int weight);
void sspic_pango_font_description_set_absolute_size(sspic_font_description *font, double size);
sspic_layout *sspic_pango_layout_new(sspic_context *context);
void sspic_pango_layout_set_font_description(sspic_layout *layout, const sspic_font_description *font);
void sspic_pango_layout_set_text(sspic_layout *layout, const char *text, int length);
void sspic_pango_layout_get_extents(sspic_layout *layout, sspic_rectangle *ink, sspic_rectangle *logical);
void sspic_pango_cairo_show_layout(sspic_cairo *cairo, sspic_layout *layout);
/* The byte index of the character at (x, y) in pango units; 0 when the point is outside the text
** (the index is then the nearest character's). */
int sspic_pango_layout_xy_to_index(sspic_layout *layout, int x, int y, int *index, int *trailing);
void sspic_g_object_unref(void *object);

#endif
