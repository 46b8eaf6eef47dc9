/* output.c - bytes to memory, to a file renamed into place, or to a device in place. */
#include "store/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/xalloc.h"

void pr_output_init_memory(struct pr_output *out)
{
	struct pr_output blank = PR_OUTPUT_INIT;
	*out = blank;
	out->kind = PR_OUTPUT_MEMORY;
}

int pr_output_open_file(struct pr_output *out, const char *path, struct pr_error *err)
{
	struct pr_output blank = PR_OUTPUT_INIT;
	struct pr_strbuf tmp = PR_STRBUF_INIT;
	int fd = -1;
	unsigned k;

	struct stat sb;

	*out = blank;
	if (!path || !path[0]) {
		pr_error_set(err, PR_E_IO, "empty output path");
		return -1;
	}
	if (!strcmp(path, "-") || (!lstat(path, &sb) && S_ISLNK(sb.st_mode)) ||
	    (!stat(path, &sb) && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))) {
		/* standard output, a link (/dev/stdout) or a device/pipe: in place (a rename
		 * would replace the link or the device) */
		out->borrowed = !strcmp(path, "-");
		out->fp = out->borrowed ? stdout : fopen(path, "wb");
		if (!out->fp) {
			pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(errno));
			pr_error_set_source(err, path);
			return -1;
		}
		out->kind = PR_OUTPUT_FILE;
		out->path = pr_xstrdup(out->borrowed ? "standard output" : path);
		return 0;
	}
	for (k = 0; k < 1000; k++) {
		pr_strbuf_reset(&tmp);
		pr_strbuf_addf(&tmp, "%s.tmp.%ld.%u", path, (long)getpid(), k);
		fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		pr_error_set(err, PR_E_IO, "cannot create a file next to it: %s", strerror(errno));
		pr_error_set_source(err, path);
		pr_strbuf_release(&tmp);
		return -1;
	}
	out->fp = fdopen(fd, "wb");
	if (!out->fp) {
		int e = errno;
		close(fd);
		unlink(tmp.buf);
		pr_strbuf_release(&tmp);
		pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(e));
		pr_error_set_source(err, path);
		return -1;
	}
	out->kind = PR_OUTPUT_FILE;
	out->path = pr_xstrdup(path);
	out->tmp_path = pr_strbuf_detach(&tmp, NULL);
	return 0;
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

static void drop_tmp(struct pr_output *out)
{
	if (out->fp && !out->borrowed)
		fclose(out->fp);
	out->fp = NULL;
	if (out->tmp_path) {
		unlink(out->tmp_path);
		free(out->tmp_path);
		out->tmp_path = NULL;
	}
}

int pr_output_close(struct pr_output *out, struct pr_error *err)
{
	const char *what = out->path ? out->path : "memory";
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
		if (!e && out->tmp_path && rename(out->tmp_path, out->path))
			e = errno ? errno : EIO;
		if (!e) {
			free(out->tmp_path);
			out->tmp_path = NULL;
			return 0;
		}
		out->failed_errno = e;
	}
	if (!out->failed_errno)
		out->failed_errno = EBADF;
	drop_tmp(out);
	pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(out->failed_errno));
	pr_error_set_source(err, what);
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
	*out = blank;
}
