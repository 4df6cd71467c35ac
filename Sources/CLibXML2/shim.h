#ifndef EVIDENCE_CLIBXML2_SHIM_H
#define EVIDENCE_CLIBXML2_SHIM_H

/// libxml2's SAX2 push parser, for JUnit XML read in chunks.
///
/// The headers are found as `<libxml/…>` on both platforms: Debian installs
/// them under /usr/include/libxml2 (pkg-config adds that folder), and the
/// macOS SDK keeps them in usr/include/libxml since SDK 10.15.4.
///
/// Debian builds libxml2 with ICU, and its encoding header then includes
/// ICU's, which clash with the ICU Foundation carries. Nothing here touches
/// the ICU members of libxml2's encoding handler (only pointers to it), so
/// those headers are left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
/// The HTML parser and XPath, with which the tests read pages a browser dumped.
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

/// libxml2's deallocator is a global function pointer (or, where libxml2
/// keeps one per thread, a macro); this calls it.
static inline void cxml_free(void *pointer) {
    xmlFree(pointer);
}

/// Where the parser is in its input: line and column, from 1.
static inline int cxml_line(xmlParserCtxtPtr context) {
    return (context != NULL && context->input != NULL) ? context->input->line : 0;
}

static inline int cxml_column(xmlParserCtxtPtr context) {
    return (context != NULL && context->input != NULL) ? context->input->col : 0;
}

/// The column libxml2 keeps in a structured error (its int2 field). Const:
/// libxml2 2.12 and later hand structured errors over as `const xmlError *`,
/// earlier ones as `xmlError *`, and either converts to this.
static inline int cxml_error_column(const xmlError *error) {
    return error != NULL ? error->int2 : 0;
}

#endif
