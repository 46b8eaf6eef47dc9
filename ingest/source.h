/*
 * source.h - a byte stream over a file, gzip-compressed or plain.
 *
 * USAGE: pr_source_open(&src, path, &err); pr_source_head(src, &p, &n)
 * returns the first bytes (up to PR_SOURCE_HEAD) for sniffing without
 * consuming them; pr_source_read() then delivers the whole stream from the
 * start. Every byte delivered is hashed: pr_source_hash_hex() after EOF is
 * the content hash of the decoded stream. A UTF-8 BOM is kept in the
 * stream (parsers skip it) so offsets match the file.
 * pr_source_locate() turns byte offsets into 1-based line/column by
 * reading the file again (error paths only; the hot path counts nothing).
 * '-' is standard input; it and FIFOs are read through a temporary copy
 * (pr_source_spool below). The file is opened once: a device that cannot
 * seek is read as it comes (its first bytes are not looked at twice).
 */
#ifndef PR_SOURCE_H
#define PR_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/hash.h"

#define PR_SOURCE_HEAD 65536

struct pr_source;

int pr_source_open(struct pr_source **out, const char *path, struct pr_error *err) PR_MUST_CHECK;
void pr_source_close(struct pr_source *src);
const char *pr_source_path(const struct pr_source *src);
/* First bytes of the decoded stream (fewer at EOF). Does not consume. */
int pr_source_head(struct pr_source *src, const unsigned char **p, size_t *n,
		   struct pr_error *err) PR_MUST_CHECK;
/* Reads up to cap bytes; returns the count, 0 at EOF, -1 on error. */
long pr_source_read(struct pr_source *src, void *buf, size_t cap, struct pr_error *err);
/* Total bytes delivered so far. */
int64_t pr_source_consumed(const struct pr_source *src);
void pr_source_hash_hex(const struct pr_source *src, char out[33]);
/* Line/column (1-based, column in bytes) of a byte offset; 0/0 if unknown. */
void pr_source_locate(const char *path, int64_t offset, long *line, long *col);
/* The same for an open source: reads the file it reads (a spooled copy too). */
void pr_source_locate_in(const struct pr_source *src, int64_t offset, long *line, long *col);

/*
 * Inputs that cannot be read twice: '-' (standard input), a FIFO (a named
 * pipe, or the /dev/fd/N of a shell's process substitution) or a socket.
 * Readers sniff a file's head, then read it from the start (and an error's
 * line/column reads it again), so such an input is copied once into a
 * temporary file ($TMPDIR, else /tmp) and read from there: pr_source_spool
 * returns the path to open (path itself when it can be read again, or when
 * it does not exist: opening it then says why), or NULL with err filled (a
 * full disk). The same path gives the same copy. The copy's name shows as
 * path (base/error.h, pr_path_shown) in errors and as a run's source.
 * pr_source_open spools by itself; a program whose other readers open INPUT
 * paths too (the CLI) spools them first. The copies are removed by
 * pr_source_spool_release and, on a fatal signal, by
 * pr_output_remove_temps (base/output.h).
 */
const char *pr_source_spool(const char *path, struct pr_error *err);
void pr_source_spool_release(void);
const char *pr_source_zlib_version(void);

/*
 * Progress: when set, fn is called from pr_source_read about every 64 MiB
 * of input with the bytes read so far and the file size on disk (which is
 * the compressed size for gzip input: done/total is then only a hint).
 */
typedef void pr_progress_fn(void *ctx, const char *path, int64_t done, int64_t total);
void pr_source_set_progress(pr_progress_fn *fn, void *ctx);

#endif
