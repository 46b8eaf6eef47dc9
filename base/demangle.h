/*
 * demangle.h - Itanium C++ ABI names ("_Z...") made readable, with the C++
 * runtime's __cxa_demangle (libstdc++, linked into pr_base).
 *
 * USAGE: char *s = pr_demangle(name); ... free(s);
 *
 * pr_demangle returns the demangled text of a whole mangled name (one that
 * starts with "_Z", as CUDA kernel names in a trace may), or NULL when name
 * is not mangled or the runtime cannot read it. libstdc++ refuses names
 * longer than 1024 bytes (its stack guard: 2 components per byte, at most
 * 2048); for those pr_demangle reads the head itself: the nested name up to
 * its first template argument list, shown as "<...>", e.g.
 * "cutlass_cudnn_train::Kernel<...>" (the arguments stay in the full name).
 *
 * OWNERSHIP: the result is malloc'd; the caller frees it.
 * LIMITATIONS: whole names only (a mangled name inside a longer text is
 * left as it is).
 */
#ifndef PR_BASE_DEMANGLE_H
#define PR_BASE_DEMANGLE_H

char *pr_demangle(const char *name);

#endif
