#ifndef ICS_AGENDA_CRE2_H
#define ICS_AGENDA_CRE2_H

/* A C face for RE2 (Debian's libre2-dev), which matches in time linear in
 * the text: a user's pattern cannot stall a run, as a backtracking engine's
 * can. Only what --grep needs. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A compiled pattern is an opaque handle (void *), freed with cre2_free. */

/* The compiled pattern, or NULL with *error set to a message the caller
 * frees with cre2_free_error (NULL when memory ran out). A pattern that
 * compiles to more than max_program instructions is refused: RE2's time per
 * byte of text grows with the program when its DFA runs out of memory. */
void *cre2_compile(const char *pattern, size_t length, int ignore_case, int max_program, char **error);

/* 1 when the pattern matches somewhere in the UTF-8 text, else 0. */
int cre2_search(const void *pattern, const char *text, size_t length);

void cre2_free(void *pattern);
void cre2_free_error(char *error);

#ifdef __cplusplus
}
#endif

#endif
