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

#include "store/xalloc.h"

static pr_progress_fn *progress_fn;
static void *progress_ctx;

void pr_source_set_progress(pr_progress_fn *fn, void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

struct pr_source {
	char *path;
	int fd; /* plain files are read directly; gzip goes through zlib */
	int64_t file_size, next_progress;
	gzFile gz;
	int is_gzip;
	unsigned char *head;
	size_t head_len, head_pos;
	int head_done, eof;
	int64_t consumed;
	struct pr_hash hash;
};

int pr_source_open(struct pr_source **out, const char *path, struct pr_error *err)
{
	struct pr_source *src;
	struct stat sb;
	FILE *f;
	unsigned char magic[2] = { 0, 0 };

	*out = NULL;
	if (stat(path, &sb) != 0) {
		pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
		pr_error_set_source(err, path);
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) {
		pr_error_set(err, PR_E_IO, "is a directory");
		pr_error_set_source(err, path);
		return -1;
	}
	f = fopen(path, "rb");
	if (!f) {
		pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
		pr_error_set_source(err, path);
		return -1;
	}
	if (fread(magic, 1, 2, f) < 2)
		magic[0] = 0;
	fclose(f);
	src = pr_xcalloc(1, sizeof(*src));
	src->path = pr_xstrdup(path);
	src->is_gzip = magic[0] == 0x1f && magic[1] == 0x8b;
	src->file_size = (int64_t)sb.st_size;
	src->next_progress = 64 << 20;
	src->fd = -1;
	if (!src->is_gzip) {
		src->fd = open(path, O_RDONLY);
		if (src->fd < 0) {
			pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
			pr_error_set_source(err, path);
			pr_source_close(src);
			return -1;
		}
		pr_hash_init(&src->hash);
		*out = src;
		return 0;
	}
	src->gz = gzopen(path, "rb");
	if (!src->gz) {
		pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno ? errno : ENOMEM));
		pr_error_set_source(err, path);
		pr_source_close(src);
		return -1;
	}
	gzbuffer(src->gz, 1 << 18);
	pr_hash_init(&src->hash);
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
	free(src);
}

const char *pr_source_path(const struct pr_source *src)
{
	return src->path;
}

int pr_source_is_gzip(const struct pr_source *src)
{
	return src->is_gzip;
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

int pr_source_head(struct pr_source *src, const unsigned char **p, size_t *n,
		   struct pr_error *err)
{
	if (!src->head_done) {
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

void pr_source_locate(const char *path, int64_t offset, long *line, long *col)
{
	gzFile gz = gzopen(path, "rb");
	unsigned char buf[65536];
	int64_t pos = 0, line_start = 0;
	long ln = 1;
	*line = *col = 0;
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
