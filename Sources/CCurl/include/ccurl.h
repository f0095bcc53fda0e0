#ifndef ICS_AGENDA_CCURL_H
#define ICS_AGENDA_CCURL_H

/* libcurl (Debian's libcurl4-openssl-dev), opened when a URL is first
 * fetched rather than when the program starts: linked at start-up, it and
 * the thirty libraries it needs (TLS, LDAP, Kerberos, HTTP/2) cost every run
 * about 11 ms, most runs read only files. The header gives libcurl's types
 * and constants; the functions below call libcurl's own through pointers
 * looked up once. Only what Subscriptions/ uses. */

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens libcurl and sets it up (curl_global_init), once, from any thread.
 * NULL when it is ready, else why it could not be (a static string). Call it
 * before any other function here. */
const char *ics_curl_load(void);

CURL *ics_curl_easy_init(void);
void ics_curl_easy_cleanup(CURL *handle);
const char *ics_curl_easy_strerror(CURLcode code);
struct curl_slist *ics_curl_slist_append(struct curl_slist *list, const char *text);
void ics_curl_slist_free_all(struct curl_slist *list);

/* curl_easy_setopt and curl_easy_getinfo take their value through C's
 * variadic arguments, which Swift cannot call: one typed function each kind
 * of value. */
CURLcode ics_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode ics_curl_set_size(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ics_curl_set_text(CURL *handle, CURLoption option, const char *value);
CURLcode ics_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ics_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ics_curl_set_write(CURL *handle, CURLoption option, curl_write_callback value);
/* The status of the last response; 0 when none came. */
long ics_curl_response_code(CURL *handle);
/* A number libcurl keeps about the transfer (CURLINFO_REDIRECT_COUNT, ...);
 * 0 when it has none. */
long ics_curl_info_long(CURL *handle, CURLINFO info);
/* A text libcurl keeps about the transfer (CURLINFO_EFFECTIVE_URL, ...), or
 * NULL: libcurl's, valid until the handle is cleaned up; copy it at once. */
const char *ics_curl_info_text(CURL *handle, CURLINFO info);

CURLM *ics_curl_multi_init(void);
CURLMcode ics_curl_multi_cleanup(CURLM *multi);
CURLMcode ics_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ics_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ics_curl_multi_perform(CURLM *multi, int *running);
CURLMcode ics_curl_multi_poll(CURLM *multi, struct curl_waitfd *fds, unsigned int count, int timeout_ms, int *ready);
CURLMsg *ics_curl_multi_info_read(CURLM *multi, int *left);

#ifdef __cplusplus
}
#endif

#endif
