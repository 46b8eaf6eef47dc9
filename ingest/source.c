/* source.c - file/gzip byte stream with a sniffable head and a content hash. */
#include "ingest/source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static pr_progress_fn *progress_fn;
static void *progress_ctx;

void pr_source_set_progress(pr_progress_fn *fn, void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

struct pr_source {
	char *path; /* as given, for messages */
	char *file; /* what is read: path, or its spooled copy */
	int fd;	    /* plain files are read directly; gzip goes through zlib */
	int64_t file_size, next_progress;
	gzFile gz;
	int is_gzip;
	unsigned char *head;
	size_t head_len, head_pos;
	int head_done, eof;
	int64_t consumed;
	struct pr_hash hash;
};

/* ---- inputs that cannot be read twice (source.h, pr_source_spool) ---- */

struct spool {
	char *path, *copy;
};
static struct spool *spools;
static size_t nspools;

static int read_once(const char *path)
{
	struct stat sb;
	if (!strcmp(path, "-"))
		return 1;
	return stat(path, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode));
}

/* Copies fd to the open file out; 0, or errno (of the read or the write). */
static int copy_fd(int fd, int out, int *was_read)
{
	static char buf[1 << 16];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf)), w = 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*was_read = 1;
			return errno;
		}
		if (n == 0)
			return 0;
		while (w < n) {
			ssize_t k = write(out, buf + w, (size_t)(n - w));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				*was_read = 0;
				return k < 0 ? errno : EIO;
			}
			w += k;
		}
	}
}

const char *pr_source_spool(const char *path, struct pr_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int in, out, e, was_read = 0, std = !strcmp(path, "-");
	size_t i;

	if (!read_once(path))
		return path;
	for (i = 0; i < nspools; i++)
		if (!strcmp(spools[i].path, path))
			return spools[i].copy;
	in = std ? 0 : open(path, O_RDONLY);
	if (in < 0) {
		pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
		pr_error_set_source(err, path);
		return NULL;
	}
	pr_strbuf_addf(&sb, "%s/profreport-input-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	out = mkstemp(sb.buf);
	if (out >= 0)
		pr_output_temp_add(sb.buf);
	e = out < 0 ? errno : copy_fd(in, out, &was_read);
	if (!std)
		close(in);
	if (out >= 0 && close(out) && !e)
		e = errno;
	if (e) {
		if (out >= 0) {
			unlink(sb.buf);
			pr_output_temp_forget(sb.buf);
		}
		if (out >= 0 && was_read)
			pr_error_set(err, PR_E_IO, "read failed: %s", strerror(e));
		else
			pr_error_set(
				err, PR_E_IO,
				"cannot copy it to a temporary file in '%s' (a pipe is read once, "
				"then read from the copy): %s",
				tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(e));
		pr_error_set_source(err, path);
		pr_strbuf_release(&sb);
		return NULL;
	}
	spools = pr_xreallocarray(spools, nspools + 1, sizeof(*spools));
	spools[nspools].path = pr_xstrdup(path);
	spools[nspools].copy = pr_strbuf_detach(&sb, NULL);
	pr_path_set_shown(spools[nspools].copy, path);
	return spools[nspools++].copy;
}

void pr_source_spool_release(void)
{
	size_t i;
	for (i = 0; i < nspools; i++) {
		unlink(spools[i].copy);
		pr_output_temp_forget(spools[i].copy);
		free(spools[i].path);
		free(spools[i].copy);
	}
	free(spools);
	spools = NULL;
	nspools = 0;
	pr_path_shown_release();
}

/* ---- a source ---- */

static int open_error(struct pr_error *err, const char *path, const char *what, int e)
{
	pr_error_set(err, PR_E_IO, "%s%s%s", what, e ? ": " : "", e ? strerror(e) : "");
	pr_error_set_source(err, path);
	return -1;
}

int pr_source_open(struct pr_source **out, const char *path, struct pr_error *err)
{
	struct pr_source *src;
	struct stat sb;
	const char *file;
	unsigned char magic[2] = { 0, 0 };
	ssize_t got = 0;
	int fd, seekable;

	*out = NULL;
	file = pr_source_spool(path, err);
	if (!file)
		return -1;
	/* One open: a device read twice (a terminal) would lose what the first read took. */
	fd = open(file, O_RDONLY);
	if (fd < 0)
		return open_error(err, path, "cannot open", errno);
	if (fstat(fd, &sb) != 0) {
		int e = errno;
		close(fd);
		return open_error(err, path, "cannot open", e);
	}
	if (S_ISDIR(sb.st_mode)) {
		close(fd);
		return open_error(err, path, "is a directory", 0);
	}
	while (got < 2) {
		ssize_t n = read(fd, magic + got, (size_t)(2 - got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return open_error(err, path, "read failed", e);
		}
		if (n == 0)
			break;
		got += n;
	}
	seekable = lseek(fd, 0, SEEK_SET) == 0;
	src = pr_xcalloc(1, sizeof(*src));
	src->path = pr_xstrdup(path);
	src->file = pr_xstrdup(file);
	/* gzip needs its stream from the start: a device that cannot seek is read plain */
	src->is_gzip = seekable && got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	src->file_size = S_ISREG(sb.st_mode) ? (int64_t)sb.st_size : 0;
	src->next_progress = 64 << 20;
	src->fd = -1;
	pr_hash_init(&src->hash);
	if (!src->is_gzip) {
		src->fd = fd;
		if (!seekable && got) { /* the bytes read are the stream's first */
			src->head = pr_xmalloc(PR_SOURCE_HEAD);
			memcpy(src->head, magic, (size_t)got);
			src->head_len = (size_t)got;
		}
		*out = src;
		return 0;
	}
	src->gz = gzdopen(fd, "rb");
	if (!src->gz) {
		close(fd);
		pr_source_close(src);
		return open_error(err, path, "cannot open", errno ? errno : ENOMEM);
	}
	gzbuffer(src->gz, 1 << 18);
	*out = src;
	return 0;
}

void pr_source_close(struct pr_source *src)
{
	if (!src)
		return;
	if (src->gz)
		gzclose(src->gz);
	if (src->fd >= 0)
		close(src->fd);
	free(src->head);
	free(src->path);
	free(src->file);
	free(src);
}

const char *pr_source_path(const struct pr_source *src)
{
	return src->path;
}

static long raw_read(struct pr_source *src, void *buf, size_t cap, struct pr_error *err)
{
	int n, errnum;
	if (src->eof)
		return 0;
	if (cap > (1u << 30))
		cap = 1u << 30;
	if (src->fd >= 0) {
		ssize_t r;
		do
			r = read(src->fd, buf, cap);
		while (r < 0 && errno == EINTR);
		if (r < 0) {
			pr_error_set(err, PR_E_IO, "read failed: %s", strerror(errno));
			pr_error_set_source(err, src->path);
			return -1;
		}
		if (r == 0)
			src->eof = 1;
		return (long)r;
	}
	n = gzread(src->gz, buf, (unsigned)cap);
	if (n < 0) {
		const char *msg = gzerror(src->gz, &errnum);
		pr_error_set(err, errnum == Z_ERRNO ? PR_E_IO : PR_E_PARSE, "read failed: %s",
			     errnum == Z_ERRNO ? strerror(errno) : msg);
		pr_error_set_source(err, src->path);
		return -1;
	}
	if (n == 0) {
		src->eof = 1;
		/* A gzip stream cut short reads as EOF; say so rather than pretend. */
		gzerror(src->gz, &errnum);
		if (errnum == Z_BUF_ERROR && src->is_gzip) {
			pr_error_set(err, PR_E_PARSE, "truncated gzip stream");
			pr_error_set_source(err, src->path);
			return -1;
		}
	}
	return n;
}

int pr_source_head(struct pr_source *src, const unsigned char **p, size_t *n, struct pr_error *err)
{
	if (!src->head_done) {
		if (!src->head)
			src->head = pr_xmalloc(PR_SOURCE_HEAD);
		while (src->head_len < PR_SOURCE_HEAD) {
			long r = raw_read(src, src->head + src->head_len,
					  PR_SOURCE_HEAD - src->head_len, err);
			if (r < 0)
				return -1;
			if (r == 0)
				break;
			src->head_len += (size_t)r;
		}
		src->head_done = 1;
	}
	*p = src->head;
	*n = src->head_len;
	return 0;
}

long pr_source_read(struct pr_source *src, void *buf, size_t cap, struct pr_error *err)
{
	long n;
	if (src->head_pos < src->head_len) {
		size_t take = src->head_len - src->head_pos;
		if (take > cap)
			take = cap;
		memcpy(buf, src->head + src->head_pos, take);
		src->head_pos += take;
		n = (long)take;
	} else {
		n = raw_read(src, buf, cap, err);
		if (n <= 0)
			return n;
	}
	pr_hash_update(&src->hash, buf, (size_t)n);
	src->consumed += n;
	if (progress_fn && src->consumed >= src->next_progress) {
		src->next_progress = src->consumed + (64 << 20);
		progress_fn(progress_ctx, src->path, src->consumed, src->file_size);
	}
	return n;
}

int64_t pr_source_consumed(const struct pr_source *src)
{
	return src->consumed;
}

void pr_source_hash_hex(const struct pr_source *src, char out[33])
{
	pr_hash_final_hex(&src->hash, out);
}

void pr_source_locate_in(const struct pr_source *src, int64_t offset, long *line, long *col)
{
	pr_source_locate(src->file, offset, line, col);
}

void pr_source_locate(const char *path, int64_t offset, long *line, long *col)
{
	struct stat sb;
	gzFile gz;
	unsigned char buf[65536];
	int64_t pos = 0, line_start = 0;
	long ln = 1;
	*line = *col = 0;
	/* a pipe or a device gives other bytes (or waits) when opened again */
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return;
	gz = gzopen(path, "rb");
	if (!gz)
		return;
	while (pos < offset) {
		int n = gzread(gz, buf, sizeof(buf));
		int i;
		if (n <= 0)
			break;
		for (i = 0; i < n && pos < offset; i++, pos++) {
			if (buf[i] == '\n') {
				ln++;
				line_start = pos + 1;
			}
		}
	}
	gzclose(gz);
	*line = ln;
	*col = (long)(offset - line_start) + 1;
}

const char *pr_source_zlib_version(void)
{
	return zlibVersion();
}
