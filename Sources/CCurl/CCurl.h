/*
** CCurl: Debian's system libcurl (libcurl4-openssl-dev), found through pkg-config. Only
** CFetch uses it; Swift code calls CFetch's bounded GET, never libcurl itself.
*/
#ifndef SENDINGSTATE_CCURL_H
#define SENDINGSTATE_CCURL_H

#include <curl/curl.h>

#endif
