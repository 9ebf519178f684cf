// Debian's cairo (drawing, PNG) and pango (text layout in real fonts), for screen pictures.
#ifndef SENDINGSTATE_CPANGOCAIRO_H
#define SENDINGSTATE_CPANGOCAIRO_H
#include <cairo.h>
#include <pango/pangocairo.h>
#endif
