/* output.c - bytes to memory, to a file renamed into place, or to a device in place. */
#include "base/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

/* ---- temporary files alive in this process, for the signal handler ---- */

/*
 * A fixed table of pointers to paths the table owns, each slot set or
 * cleared by one store and read by pr_output_remove_temps() from a signal
 * handler. Changes happen with the fatal signals blocked in the calling
 * thread (outputs are written by the main thread; the writer's thread
 * exists only during an ingest), so the handler never sees a half-made
 * entry, and a path is freed only after its slot is cleared. Paths beyond
 * the table's size are not registered (a signal could then leave that file
 * behind; nothing else changes).
 */
#define MAX_TEMPS 64
static char *volatile temps[MAX_TEMPS];

void pr_block_fatal_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void pr_output_temp_add(const char *path)
{
	char *copy = pr_xstrdup(path);
	sigset_t old;
	size_t i;
	pr_block_fatal_signals(&old);
	for (i = 0; i < MAX_TEMPS && temps[i]; i++)
		;
	if (i < MAX_TEMPS)
		temps[i] = copy;
	restore_signals(&old);
	if (i == MAX_TEMPS)
		free(copy);
}

int pr_output_temp_mkstemp(char *templ)
{
	sigset_t old;
	int fd;
	pr_block_fatal_signals(&old);
	fd = mkstemp(templ);
	if (fd >= 0)
		pr_output_temp_add(templ); /* blocks again: the mask nests */
	restore_signals(&old);
	return fd;
}

void pr_output_temp_forget(const char *path)
{
	char *gone = NULL;
	sigset_t old;
	size_t i;
	pr_block_fatal_signals(&old);
	for (i = 0; i < MAX_TEMPS; i++) {
		if (temps[i] && !strcmp(temps[i], path)) {
			gone = temps[i];
			temps[i] = NULL;
			break;
		}
	}
	restore_signals(&old);
	free(gone);
}

void pr_output_remove_temps(void)
{
	size_t i;
	for (i = 0; i < MAX_TEMPS; i++) {
		char *p = temps[i];
		if (p)
			unlink(p);
	}
}

/* ---- where a path leads ---- */

/* The directory part of path, "." when it has none. */
static void dir_of(const char *path, struct pr_strbuf *out)
{
	const char *slash = strrchr(path, '/');
	pr_strbuf_reset(out);
	if (!slash)
		pr_strbuf_addstr(out, ".");
	else if (slash == path)
		pr_strbuf_addstr(out, "/");
	else
		pr_strbuf_add(out, path, (size_t)(slash - path));
}

/*
 * Follows the symbolic links from path to the file they name (which need not
 * exist yet: a dangling link names the file to create). Returns 0 and the
 * file's path in *out; 1 when a link leads into /proc or /dev/fd (/dev/stdout
 * and its kind name this process's open descriptors: only writing through
 * them is right); -1 with errno on a loop or an unreadable link.
 */
static int follow_links(const char *path, struct pr_strbuf *out)
{
	struct pr_strbuf dir = PR_STRBUF_INIT;
	char link[PATH_MAX];
	struct stat sb;
	int hops;

	pr_strbuf_reset(out);
	pr_strbuf_addstr(out, path);
	for (hops = 0; hops < 40; hops++) {
		ssize_t n;
		if (lstat(out->buf, &sb) || !S_ISLNK(sb.st_mode)) {
			pr_strbuf_release(&dir);
			return 0;
		}
		n = readlink(out->buf, link, sizeof(link) - 1);
		if (n < 0) {
			pr_strbuf_release(&dir);
			return -1;
		}
		link[n] = 0;
		if (!strncmp(link, "/proc/", 6) || !strncmp(link, "/dev/fd/", 8) ||
		    !strncmp(out->buf, "/proc/", 6) || !strncmp(out->buf, "/dev/fd/", 8)) {
			pr_strbuf_release(&dir);
			return 1;
		}
		if (link[0] == '/') {
			pr_strbuf_reset(out);
			pr_strbuf_addstr(out, link);
		} else {
			dir_of(out->buf, &dir);
			pr_strbuf_reset(out);
			pr_strbuf_addf(out, "%s/%s", dir.buf, link);
		}
	}
	pr_strbuf_release(&dir);
	errno = ELOOP;
	return -1;
}

void pr_output_init_memory(struct pr_output *out)
{
	struct pr_output blank = PR_OUTPUT_INIT;
	*out = blank;
	out->kind = PR_OUTPUT_MEMORY;
}

/*
 * Writes in place through path: standard output, a device, a pipe,
 * /dev/stdout. Opened for appending, not truncating: a device or a pipe does
 * not care, and /dev/stdout onto a file (`>> log`) must add to the file, not
 * cut it to zero behind the shell's back.
 */
static int open_in_place(struct pr_output *out, const char *path, struct pr_error *err)
{
	out->borrowed = !strcmp(path, "-");
	out->fp = out->borrowed ? stdout : fopen(path, "ab");
	if (!out->fp) {
		pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(errno));
		pr_error_set_source(err, path);
		return -1;
	}
	out->kind = PR_OUTPUT_FILE;
	out->path = pr_xstrdup(out->borrowed ? "standard output" : path);
	return 0;
}

static int open_file(struct pr_output *out, const char *path, int own, struct pr_error *err)
{
	struct pr_output blank = PR_OUTPUT_INIT;
	struct pr_strbuf tmp = PR_STRBUF_INIT, target = PR_STRBUF_INIT;
	sigset_t old;
	struct stat sb;
	int fd = -1, e;
	unsigned k;

	*out = blank;
	if (!path || !path[0]) {
		pr_error_set(err, PR_E_IO, "empty output path");
		return -1;
	}
	/* A name of profreport's own (pr_output_open_own): whatever is there (a
	 * link, a FIFO, an empty file) is replaced by the rename, never written
	 * through. */
	if (own) {
		pr_strbuf_addstr(&target, path);
		goto create;
	}
	/* Standard output, or an existing path that is not a regular file (followed
	 * through links): a device or a pipe is written in place; a rename would
	 * replace it. */
	if (!strcmp(path, "-") ||
	    (!stat(path, &sb) && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)))
		return open_in_place(out, path, err);
	/* A link is followed to the file it names, which is then replaced like any
	 * regular file: the temporary file goes next to it and is renamed onto it,
	 * so the link stays a link and a failed write leaves the old file. */
	switch (follow_links(path, &target)) {
	case 1:
		pr_strbuf_release(&target);
		return open_in_place(out, path, err);
	case -1:
		pr_error_set(err, PR_E_IO, "cannot follow the link: %s", strerror(errno));
		pr_error_set_source(err, path);
		pr_strbuf_release(&target);
		return -1;
	}
create:
	pr_block_fatal_signals(&old);
	for (k = 0; k < 1000; k++) {
		pr_strbuf_reset(&tmp);
		pr_strbuf_addf(&tmp, "%s.tmp.%ld.%u", target.buf, (long)getpid(), k);
		fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	e = errno;
	if (fd >= 0) {
		out->tmp_path = pr_strbuf_detach(&tmp, NULL);
		pr_output_temp_add(out->tmp_path);
	}
	restore_signals(&old);
	if (fd < 0) {
		pr_error_set(err, PR_E_IO, "cannot create a file next to %s: %s",
			     strcmp(target.buf, path) ? "the file it links to" : "it", strerror(e));
		pr_error_set_source(err, path);
		pr_strbuf_release(&tmp);
		pr_strbuf_release(&target);
		return -1;
	}
	out->kind = PR_OUTPUT_FILE;
	out->path = pr_xstrdup(path);
	out->target = pr_strbuf_detach(&target, NULL);
	out->fp = fdopen(fd, "wb");
	if (!out->fp) {
		e = errno;
		close(fd);
		pr_output_release(out);
		pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(e));
		pr_error_set_source(err, path);
		return -1;
	}
	return 0;
}

int pr_output_open_file(struct pr_output *out, const char *path, struct pr_error *err)
{
	return open_file(out, path, 0, err);
}

int pr_output_open_own(struct pr_output *out, const char *path, struct pr_error *err)
{
	return open_file(out, path, 1, err);
}

int pr_output_write(struct pr_output *out, const void *p, size_t n)
{
	if (out->failed_errno || out->closed)
		return -1;
	if (!n)
		return 0;
	switch (out->kind) {
	case PR_OUTPUT_MEMORY:
		pr_strbuf_add(&out->mem, p, n);
		break;
	case PR_OUTPUT_FILE:
		if (fwrite(p, 1, n, out->fp) != n) {
			out->failed_errno = errno ? errno : EIO;
			return -1;
		}
		break;
	default:
		out->failed_errno = EBADF;
		return -1;
	}
	out->written += n;
	return 0;
}

void pr_output_fail(struct pr_output *out, int errnum)
{
	if (!out->failed_errno)
		out->failed_errno = errnum ? errnum : EIO;
}

/* Removes the temporary file, and forgets it (also for the signal handler). */
static void forget_tmp(struct pr_output *out, int remove)
{
	sigset_t old;
	char *p = out->tmp_path;
	if (!p)
		return;
	pr_block_fatal_signals(&old);
	if (remove)
		unlink(p);
	pr_output_temp_forget(p);
	out->tmp_path = NULL;
	restore_signals(&old);
	free(p);
}

static void drop_tmp(struct pr_output *out)
{
	if (out->fp && !out->borrowed)
		fclose(out->fp);
	out->fp = NULL;
	forget_tmp(out, 1);
}

int pr_output_close(struct pr_output *out, struct pr_error *err)
{
	int e = 0;

	if (out->closed)
		return pr_error_set(err, PR_E_IO, "output closed twice");
	out->closed = 1;
	if (out->kind == PR_OUTPUT_MEMORY && !out->failed_errno)
		return 0;
	if (out->kind == PR_OUTPUT_FILE && !out->failed_errno) {
		errno = 0;
		if (fflush(out->fp) || ferror(out->fp))
			e = errno ? errno : EIO;
		errno = 0;
		if (!out->borrowed && fclose(out->fp) && !e)
			e = errno ? errno : EIO;
		out->fp = NULL;
		if (!e && out->tmp_path) {
			sigset_t old;
			/* Renamed and forgotten with the signals held, so that a signal
			 * never removes a temporary name that is already the output. */
			pr_block_fatal_signals(&old);
			if (rename(out->tmp_path, out->target))
				e = errno ? errno : EIO;
			else
				forget_tmp(out, 0);
			restore_signals(&old);
		}
		if (!e)
			return 0;
		out->failed_errno = e;
	}
	if (!out->failed_errno)
		out->failed_errno = EBADF;
	drop_tmp(out);
	return pr_output_error(out, err);
}

int pr_output_error(const struct pr_output *out, struct pr_error *err)
{
	pr_error_set(err, PR_E_IO, "cannot write: %s",
		     strerror(out->failed_errno ? out->failed_errno : EIO));
	pr_error_set_source(err, out->path ? out->path : "memory");
	return -1;
}

const char *pr_output_data(const struct pr_output *out, size_t *len)
{
	if (len)
		*len = out->mem.len;
	return out->mem.buf;
}

char *pr_output_detach(struct pr_output *out, size_t *len)
{
	return pr_strbuf_detach(&out->mem, len);
}

void pr_output_release(struct pr_output *out)
{
	struct pr_output blank = PR_OUTPUT_INIT;
	drop_tmp(out);
	pr_strbuf_release(&out->mem);
	free(out->path);
	free(out->target);
	*out = blank;
}
