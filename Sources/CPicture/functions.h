/*
** functions.h: every cairo, pango and GObject function that pictures use, once, as X-macro
** entries: V(name, parameters, arguments) for functions without a result and
** R(result, name, parameters, arguments) for the others. Picture.c expands it into the
** table filled by dlsym and into the sspic_ functions; scripts/check-picture-abi.c into
** checks against the real headers. ER(…) and EV(…) mark entries whose int stands for one of cairo's or
** pango's enums (or whose rectangle or callback is our own spelling of theirs): those are
** checked one by one there.
*/
#define SSPIC_FUNCTIONS(R, V, ER, EV)                                                              \
  ER(sspic_surface *, cairo_image_surface_create, (int format, int width, int height),             \
     (format, width, height))                                                                      \
  V(cairo_surface_destroy, (sspic_surface * surface), (surface))                                   \
  V(cairo_surface_flush, (sspic_surface * surface), (surface))                                     \
  ER(int, cairo_surface_write_to_png_stream,                                                       \
     (sspic_surface * surface, sspic_write_func write, void *closure), (surface, write, closure))  \
  R(sspic_cairo *, cairo_create, (sspic_surface * surface), (surface))                             \
  V(cairo_destroy, (sspic_cairo * cairo), (cairo))                                                 \
  V(cairo_scale, (sspic_cairo * cairo, double x, double y), (cairo, x, y))                         \
  V(cairo_push_group, (sspic_cairo * cairo), (cairo))                                              \
  V(cairo_pop_group_to_source, (sspic_cairo * cairo), (cairo))                                     \
  V(cairo_paint_with_alpha, (sspic_cairo * cairo, double alpha), (cairo, alpha))                   \
  V(cairo_set_source_rgb, (sspic_cairo * cairo, double red, double green, double blue),           \
    (cairo, red, green, blue))                                                                     \
  V(cairo_set_line_width, (sspic_cairo * cairo, double width), (cairo, width))                     \
  V(cairo_new_path, (sspic_cairo * cairo), (cairo))                                                \
  V(cairo_close_path, (sspic_cairo * cairo), (cairo))                                              \
  V(cairo_move_to, (sspic_cairo * cairo, double x, double y), (cairo, x, y))                       \
  V(cairo_line_to, (sspic_cairo * cairo, double x, double y), (cairo, x, y))                       \
  V(cairo_rectangle, (sspic_cairo * cairo, double x, double y, double width, double height),      \
    (cairo, x, y, width, height))                                                                  \
  V(cairo_arc, (sspic_cairo * cairo, double x, double y, double radius, double from, double to),  \
    (cairo, x, y, radius, from, to))                                                               \
  V(cairo_fill, (sspic_cairo * cairo), (cairo))                                                    \
  V(cairo_fill_preserve, (sspic_cairo * cairo), (cairo))                                           \
  V(cairo_stroke, (sspic_cairo * cairo), (cairo))                                                  \
  V(cairo_save, (sspic_cairo * cairo), (cairo))                                                    \
  V(cairo_restore, (sspic_cairo * cairo), (cairo))                                                 \
  V(cairo_clip, (sspic_cairo * cairo), (cairo))                                                    \
  V(cairo_set_source_rgba, (sspic_cairo * cairo, double red, double green, double blue, double alpha), \
    (cairo, red, green, blue, alpha))                                                              \
  R(int, cairo_image_surface_get_width, (sspic_surface * surface), (surface))                      \
  ER(sspic_surface *, cairo_image_surface_create_from_png_stream,                                  \
     (sspic_read_func read, void *closure), (read, closure))                                       \
  ER(int, cairo_surface_status, (sspic_surface * surface), (surface))                              \
  ER(int, cairo_image_surface_get_format, (sspic_surface * surface), (surface))                    \
  R(int, cairo_image_surface_get_height, (sspic_surface * surface), (surface))                     \
  R(int, cairo_image_surface_get_stride, (sspic_surface * surface), (surface))                     \
  R(unsigned char *, cairo_image_surface_get_data, (sspic_surface * surface), (surface))           \
  V(cairo_surface_mark_dirty, (sspic_surface * surface), (surface))                                \
  R(sspic_font_options *, cairo_font_options_create, (void), ())                                   \
  V(cairo_font_options_destroy, (sspic_font_options * options), (options))                         \
  EV(cairo_font_options_set_antialias, (sspic_font_options * options, int antialias),             \
     (options, antialias))                                                                         \
  EV(cairo_font_options_set_hint_style, (sspic_font_options * options, int style),                \
     (options, style))                                                                             \
  EV(cairo_font_options_set_hint_metrics, (sspic_font_options * options, int metrics),            \
     (options, metrics))                                                                           \
  R(sspic_font_map *, pango_cairo_font_map_new, (void), ())                                        \
  R(sspic_context *, pango_font_map_create_context, (sspic_font_map * map), (map))                 \
  V(pango_cairo_context_set_font_options,                                                          \
    (sspic_context * context, const sspic_font_options *options), (context, options))             \
  R(sspic_font_description *, pango_font_description_new, (void), ())                              \
  V(pango_font_description_set_family, (sspic_font_description * font, const char *family),       \
    (font, family))                                                                                \
  EV(pango_font_description_set_weight, (sspic_font_description * font, int weight),              \
     (font, weight))                                                                               \
  V(pango_font_description_set_absolute_size, (sspic_font_description * font, double size),       \
    (font, size))                                                                                  \
  R(sspic_layout *, pango_layout_new, (sspic_context * context), (context))                        \
  V(pango_layout_set_font_description,                                                             \
    (sspic_layout * layout, const sspic_font_description *font), (layout, font))                   \
  V(pango_layout_set_text, (sspic_layout * layout, const char *text, int length),                 \
    (layout, text, length))                                                                        \
  EV(pango_layout_get_extents, (sspic_layout * layout, sspic_rectangle * ink, sspic_rectangle * logical), \
     (layout, ink, logical))                                                                       \
  V(pango_cairo_show_layout, (sspic_cairo * cairo, sspic_layout * layout), (cairo, layout))        \
  R(int, pango_layout_xy_to_index, (sspic_layout * layout, int x, int y, int *index, int *trailing), \
    (layout, x, y, index, trailing))                                                               \
  V(g_object_unref, (void *object), (object))
