#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* libcurl's SONAME: the same for its OpenSSL and GnuTLS builds. */
#define LIBCURL "libcurl.so.4"

/* libcurl's functions, looked up once by load() and never changed after. */
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *fds, unsigned int count, int timeout_ms, int *ready);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char message[512];

static int resolve(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(message, sizeof message, "%s has no %s (too old a libcurl)", LIBCURL, name);
    failure = message;
    return 0;
}

#define RESOLVE(field) resolve(library, (void **)&api.field, "curl_" #field)

static void load(void) {
    /* The library stays open to the end of the run (never dlclosed). */
    void *library = dlopen(LIBCURL, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(message, sizeof message, "libcurl could not be loaded (%s; apt-get install libcurl4)", why ? why : LIBCURL);
        failure = message;
        return;
    }
    if (!(RESOLVE(global_init) && RESOLVE(easy_init) && RESOLVE(easy_cleanup) && RESOLVE(easy_strerror)
          && RESOLVE(easy_setopt) && RESOLVE(easy_getinfo) && RESOLVE(slist_append) && RESOLVE(slist_free_all)
          && RESOLVE(multi_init) && RESOLVE(multi_cleanup) && RESOLVE(multi_add_handle)
          && RESOLVE(multi_remove_handle) && RESOLVE(multi_perform) && RESOLVE(multi_poll)
          && RESOLVE(multi_info_read)))
        return;
    /* Not safe to leave to curl_easy_init, which would do it implicitly. */
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) failure = "libcurl could not set itself up (curl_global_init)";
}

const char *ics_curl_load(void) {
    pthread_once(&once, load);
    return failure;
}

CURL *ics_curl_easy_init(void) { return api.easy_init(); }
void ics_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *ics_curl_easy_strerror(CURLcode code) {
    return api.easy_strerror ? api.easy_strerror(code) : "libcurl is not loaded";
}
struct curl_slist *ics_curl_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void ics_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ics_curl_set_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode ics_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) { return api.easy_setopt(handle, option, value); }
CURLcode ics_curl_set_text(CURL *handle, CURLoption option, const char *value) { return api.easy_setopt(handle, option, value); }
CURLcode ics_curl_set_pointer(CURL *handle, CURLoption option, void *value) { return api.easy_setopt(handle, option, value); }
CURLcode ics_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) { return api.easy_setopt(handle, option, value); }
CURLcode ics_curl_set_write(CURL *handle, CURLoption option, curl_write_callback value) { return api.easy_setopt(handle, option, value); }
long ics_curl_response_code(CURL *handle) { return ics_curl_info_long(handle, CURLINFO_RESPONSE_CODE); }
long ics_curl_info_long(CURL *handle, CURLINFO info) {
    long value = 0;
    if (api.easy_getinfo(handle, info, &value) != CURLE_OK) return 0;
    return value;
}
const char *ics_curl_info_text(CURL *handle, CURLINFO info) {
    const char *value = NULL;
    if (api.easy_getinfo(handle, info, &value) != CURLE_OK) return NULL;
    return value;
}

CURLM *ics_curl_multi_init(void) { return api.multi_init(); }
CURLMcode ics_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ics_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode ics_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode ics_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode ics_curl_multi_poll(CURLM *multi, struct curl_waitfd *fds, unsigned int count, int timeout_ms, int *ready) {
    return api.multi_poll(multi, fds, count, timeout_ms, ready);
}
CURLMsg *ics_curl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }
