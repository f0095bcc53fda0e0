#pragma once
/* libxml2 (Debian's libxml2-dev): the parser and tree of CalDAV's
   multistatus answers. Only Subscriptions/XML/ imports this module.

   Debian's libxml2 is built with ICU, and its encoding.h then includes
   ICU's <unicode/ucnv.h>, whose UErrorCode clashes with the ICU that
   Foundation carries (_FoundationICU): the module would not build. Only
   xmlCharEncodingHandler's private fields depend on it, a struct the
   Swift side never touches, so the headers are read without it. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/* A generic error function that says nothing. libxml2 prints what no
   structured handler takes through its generic one (to stderr); its type
   is variadic, which Swift can neither define nor name (it sees an
   OpaquePointer), so the function is here and Swift asks for it. */
static inline void ics_xml_generic_error_ignored(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}
static inline xmlGenericErrorFunc ics_xml_generic_error_ignored_function(void) {
    return ics_xml_generic_error_ignored;
}
