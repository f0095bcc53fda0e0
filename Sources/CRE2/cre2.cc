#include "cre2.h"

#include <re2/re2.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace {
struct Pattern {
    re2::RE2 regex;
    Pattern(re2::StringPiece text, const re2::RE2::Options &options) : regex(text, options) {}
};
}

extern "C" void *cre2_compile(const char *pattern, size_t length, int ignore_case, int max_program, char **error) {
    re2::RE2::Options options;
    // The DFA's cache comes out of this budget (RE2's default is 8 MB). A
    // pattern such as .{1000}Z needs more; with too little the DFA is thrown
    // away again and again and RE2 falls back to its NFA, whose time per byte
    // grows with the program: 100 times slower.
    options.set_max_mem(64 << 20);
    options.set_encoding(re2::RE2::Options::EncodingUTF8);
    options.set_case_sensitive(ignore_case == 0);
    options.set_log_errors(false);
    auto *compiled = new (std::nothrow) Pattern(re2::StringPiece(pattern, length), options);
    if (compiled == nullptr) {
        if (error != nullptr) *error = nullptr;
        return nullptr;
    }
    if (!compiled->regex.ok()) {
        if (error != nullptr) *error = strdup(compiled->regex.error().c_str());
        delete compiled;
        return nullptr;
    }
    if (compiled->regex.ProgramSize() > max_program) {
        if (error != nullptr) {
            std::string message = "too large: it compiles to " + std::to_string(compiled->regex.ProgramSize()) +
                                   " instructions, at most " + std::to_string(max_program) + " are matched";
            *error = strdup(message.c_str());
        }
        delete compiled;
        return nullptr;
    }
    return compiled;
}

extern "C" int cre2_search(const void *pattern, const char *text, size_t length) {
    return re2::RE2::PartialMatch(re2::StringPiece(text, length), static_cast<const Pattern *>(pattern)->regex) ? 1 : 0;
}

extern "C" void cre2_free(void *pattern) { delete static_cast<Pattern *>(pattern); }

extern "C" void cre2_free_error(char *error) { free(error); }
