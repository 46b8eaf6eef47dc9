/*
 * output.h - where written bytes go: a memory buffer, a file that
 * appears atomically, an existing device or pipe, or standard output.
 * Every command's output files (reports, panels, models, agg.json,
 * comparisons, merged traces) go through here.
 *
 * USAGE:
 *   struct pr_output out;
 *   pr_output_init_memory(&out);              or
 *   if (pr_output_open_file(&out, "mem.png", err)) return -1;
 *   ... pr_output_write(&out, p, n) any number of times (render/gfx.c does
 *       this from the Cairo stream callback) ...
 *   if (pr_output_close(&out, err)) return -1;  file: renamed into place
 *   memory: pr_output_data(&out, &len) or pr_output_detach(&out, &len)
 *   pr_output_release(&out);
 *
 * A file is written to a temporary file in the same directory
 * ("<path>.tmp.<pid>.<k>", created with O_EXCL and mode 0666 & ~umask) and
 * renamed over <path> by pr_output_close() only when every write and the
 * close succeeded. On any failure, and when the output is released without
 * a successful close, the temporary file is removed and <path> is left as
 * it was. There is no fsync: the rename protects against half-written
 * files seen by readers, not against power loss.
 *
 * A symbolic link (report.html -> archive/r1.html, also a chain of links,
 * also a dangling one) is followed to the file it names, and that file is
 * replaced the same way: the temporary file is created next to it
 * ("archive/r1.html.tmp.<pid>.<k>") and renamed onto it, so the link stays
 * a link and a failed write (a full disk) leaves the old file whole.
 *
 * A path that exists and is not a regular file (/dev/null, /dev/full, a
 * FIFO, a terminal, also through links), or a link into /proc or /dev/fd
 * (/dev/stdout: this process's own descriptors), is written in place
 * through it: renaming over it would replace the device or the link.
 * "-" is standard output (flushed, never closed). Write errors there are
 * reported like any other (a full device fails the command).
 *
 * Temporary files are registered while they exist: a signal handler
 * (cli/main.c, SIGINT, SIGTERM, SIGHUP, SIGPIPE) calls
 * pr_output_remove_temps() before the process dies, so an interrupted
 * command leaves no "*.tmp.<pid>.<k>" behind.
 *
 * Write errors are sticky: pr_output_write() after a failure does nothing
 * and returns -1; pr_output_close() reports the first failure as PR_E_IO
 * with the path in err->source ("'out.png': cannot write: No space left on
 * device").
 *
 * OWNERSHIP: the struct is the caller's (stack or heap); pr_output_release()
 * frees what it holds and is safe on a zeroed/initialised/released output.
 * pr_output_data() is borrowed until the next write or release;
 * pr_output_detach() hands the buffer to the caller (free()).
 *
 * LIMITATIONS: no fsync; written in place (not atomic) outside regular files;
 * at most 64 temporary files at once are known to the signal handler.
 */
#ifndef PR_OUTPUT_H
#define PR_OUTPUT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "base/pr_common.h"
#include "base/strbuf.h"

enum pr_output_kind {
	PR_OUTPUT_NONE = 0, /* released or never opened */
	PR_OUTPUT_MEMORY,
	PR_OUTPUT_FILE,
};

struct pr_output {
	enum pr_output_kind kind;
	struct pr_strbuf mem; /* PR_OUTPUT_MEMORY: the bytes written so far */
	FILE *fp;	      /* PR_OUTPUT_FILE: the temporary file, open */
	char *path;	      /* PR_OUTPUT_FILE: the final path, as given */
	char *target;	  /* PR_OUTPUT_FILE: what is renamed onto (path, or the file it links to) */
	char *tmp_path;	  /* PR_OUTPUT_FILE: the temporary path; NULL once renamed or in place */
	int borrowed;	  /* fp is stdout: flushed, not closed */
	int failed_errno; /* first write failure (errno), 0 = none */
	int closed;	  /* pr_output_close() ran */
	size_t written;	  /* bytes accepted so far */
};

#define PR_OUTPUT_INIT                                                                             \
	{                                                                                          \
		PR_OUTPUT_NONE, PR_STRBUF_INIT, NULL, NULL, NULL, NULL, 0, 0, 0, 0                 \
	}

/* An output that collects bytes in memory. Cannot fail. */
void pr_output_init_memory(struct pr_output *out);

/*
 * Create the temporary file next to `path` (or open the device, pipe or
 * standard output named by it, see above). Returns 0, or -1 with PR_E_IO
 * (source = path) when the directory is missing or not writable.
 */
int pr_output_open_file(struct pr_output *out, const char *path,
			struct pr_error *err) PR_MUST_CHECK;
/*
 * The same for a name of profreport's own in a directory it writes (an
 * archive's pages and index): a link there is never followed and a FIFO or
 * device never written through; whatever is at path is replaced by the
 * rename (a planted link to a file outside stays untouched; a directory
 * there fails the close).
 */
int pr_output_open_own(struct pr_output *out, const char *path, struct pr_error *err) PR_MUST_CHECK;

/*
 * Append n bytes. Returns 0, or -1 once any write has failed (the error is
 * kept for pr_output_close). Usable as the body of a Cairo write callback.
 */
int pr_output_write(struct pr_output *out, const void *p, size_t n);

/*
 * Fills err with the output's write failure, "'PATH': cannot write: REASON"
 * (PR_E_IO), and returns -1: for a writer that stops at a failed write
 * instead of leaving it to pr_output_close().
 */
int pr_output_error(const struct pr_output *out, struct pr_error *err);

/* Mark the output failed from outside (e.g. the renderer gave up). */
void pr_output_fail(struct pr_output *out, int errnum);

/*
 * Finish: memory outputs only record that they are complete; file outputs
 * are flushed, closed and renamed into place. Returns 0, or -1 with PR_E_IO
 * and the path as source; on failure the temporary file is removed.
 */
int pr_output_close(struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;

/* The bytes of a memory output (borrowed; NUL-terminated for convenience). */
const char *pr_output_data(const struct pr_output *out, size_t *len);

/* Take the bytes of a memory output (caller frees); the output becomes empty. */
char *pr_output_detach(struct pr_output *out, size_t *len);

/* Free everything; an unclosed file output removes its temporary file. */
void pr_output_release(struct pr_output *out);

/*
 * Unlinks every temporary file of this process's open outputs, and every
 * path given to pr_output_temp_add() and not forgotten since. Only
 * unlink(): async-signal-safe, for a SIGINT/SIGTERM handler that then lets
 * the signal kill the process. The outputs are not usable afterwards.
 */
void pr_output_remove_temps(void);

/*
 * Another file for pr_output_remove_temps() (a temporary store: see
 * PR_STORE_TEMPORARY); the path is copied. Forget removes the path from
 * the list, not the file. Both block the fatal signals while they change
 * the list.
 */
void pr_output_temp_add(const char *path);
void pr_output_temp_forget(const char *path);
/*
 * mkstemp(templ) and pr_output_temp_add(templ) with the signals blocked in
 * between, so a signal never leaves the new file behind. Returns the fd or
 * -1 (errno set). The caller forgets the path once it removed the file.
 */
int pr_output_temp_mkstemp(char *templ);

/* Blocks SIGINT, SIGTERM, SIGHUP and SIGPIPE (the signals that remove the temporary files)
 * for a critical section; *old gets the mask to restore (pthread_sigmask). */
void pr_block_fatal_signals(sigset_t *old);

#endif
