/* spill.c - a byte stream in memory, then in an unlinked scratch file (spill.h). */
#include "base/spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

struct pr_spill {
	const char *what;
	unsigned char *buf;
	size_t len, cap, max; /* bytes in buf, its allocation, the most it may grow to */
	size_t rpos;	      /* reading: the next byte of buf */
	uint64_t size;	      /* bytes put */
	int fd;		      /* -1: all in buf */
	int reading, eof;
	int err; /* errno of the first failure, 0 */
	int create_failed;
};

#define SPILL_MIN 64

struct pr_spill *pr_spill_new(const char *what, size_t mem_max)
{
	struct pr_spill *s = pr_xcalloc(1, sizeof(*s));
	s->what = what;
	s->max = mem_max < SPILL_MIN ? SPILL_MIN : mem_max;
	s->fd = -1;
	return s;
}

static int fail(struct pr_spill *s, int e)
{
	if (!s->err)
		s->err = e ? e : EIO;
	return -1;
}

/* The scratch file, made and unlinked at once. */
static int make_file(struct pr_spill *s)
{
	struct pr_strbuf path = PR_STRBUF_INIT;
	const char *dir = getenv("TMPDIR");
	pr_strbuf_addf(&path, "%s/profreport-spill-XXXXXX", dir && *dir ? dir : "/tmp");
	s->fd = mkstemp(path.buf);
	if (s->fd < 0) {
		s->create_failed = 1;
		pr_strbuf_release(&path);
		return fail(s, errno);
	}
	unlink(path.buf);
	pr_strbuf_release(&path);
	return 0;
}

/* Writes buf out to the file and empties it. */
static int flush(struct pr_spill *s)
{
	size_t off = 0;
	if (s->fd < 0 && make_file(s))
		return -1;
	while (off < s->len) {
		ssize_t w = write(s->fd, s->buf + off, s->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(s, w < 0 ? errno : EIO);
		off += (size_t)w;
	}
	s->len = 0;
	return 0;
}

int pr_spill_put(struct pr_spill *s, const void *p, size_t n)
{
	const unsigned char *src = p;
	if (s->err || s->reading)
		return s->reading ? fail(s, EINVAL) : -1;
	s->size += n;
	while (n) {
		size_t room, k;
		if (s->len == s->cap && s->cap < s->max) {
			s->cap = s->cap ? (s->cap * 2 < s->max ? s->cap * 2 : s->max)
					: (4096 < s->max ? 4096 : s->max);
			s->buf = pr_xrealloc(s->buf, s->cap);
		}
		if (s->len == s->cap && flush(s))
			return -1;
		room = s->cap - s->len;
		k = n < room ? n : room;
		memcpy(s->buf + s->len, src, k);
		s->len += k;
		src += k;
		n -= k;
	}
	return 0;
}

int pr_spill_failed(const struct pr_spill *s, struct pr_error *err)
{
	if (!s->err)
		return 0;
	if (s->create_failed) {
		const char *dir = getenv("TMPDIR");
		return pr_error_set(err, PR_E_IO, "cannot create a scratch file for %s in '%s': %s",
				    s->what, dir && *dir ? dir : "/tmp", strerror(s->err));
	}
	return pr_error_set(err, PR_E_IO, "scratch file of %s: %s", s->what, strerror(s->err));
}

int pr_spill_rewind(struct pr_spill *s, struct pr_error *err)
{
	if (s->reading)
		return pr_error_set(err, PR_E_IO, "scratch file of %s: read twice", s->what);
	s->reading = 1;
	if (!s->err && s->fd >= 0) {
		if (flush(s) == 0 && lseek(s->fd, 0, SEEK_SET) < 0)
			fail(s, errno);
		/* the reads fill the whole buffer */
		if (!s->err && s->cap < s->max) {
			s->cap = s->max;
			s->buf = pr_xrealloc(s->buf, s->cap);
		}
	}
	s->rpos = 0;
	return pr_spill_failed(s, err);
}

int pr_spill_reread(struct pr_spill *s, struct pr_error *err)
{
	if (!s->reading)
		return pr_spill_rewind(s, err);
	if (!s->err && s->fd >= 0) {
		if (lseek(s->fd, 0, SEEK_SET) < 0)
			fail(s, errno);
		s->len = 0; /* buf holds what was read: read the file again */
		s->eof = 0;
	}
	s->rpos = 0;
	return pr_spill_failed(s, err);
}

int pr_spill_read_at(struct pr_spill *s, uint64_t off, void *dst, size_t n)
{
	unsigned char *d = dst;
	uint64_t flushed = s->size - s->len; /* bytes in the file; the rest is in buf */
	if (s->err)
		return -1;
	if (s->reading || off > s->size || n > s->size - off)
		return fail(s, s->reading ? EINVAL : EIO);
	while (n && off < flushed) {
		size_t k = flushed - off < n ? (size_t)(flushed - off) : n;
		ssize_t r = pread(s->fd, d, k, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return fail(s, r < 0 ? errno : EIO);
		d += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	if (n)
		memcpy(d, s->buf + (off - flushed), n);
	return 0;
}

/* Moves what is left of buf to its start and reads the file after it. */
static void refill(struct pr_spill *s)
{
	memmove(s->buf, s->buf + s->rpos, s->len - s->rpos);
	s->len -= s->rpos;
	s->rpos = 0;
	while (!s->eof && s->len < s->cap) {
		ssize_t r = read(s->fd, s->buf + s->len, s->cap - s->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fail(s, errno);
			return;
		}
		if (r == 0)
			s->eof = 1;
		s->len += (size_t)r;
	}
}

const void *pr_spill_next(struct pr_spill *s, size_t n)
{
	const void *p;
	if (!s->reading || s->err || n > s->max)
		return NULL;
	if (s->len - s->rpos < n && s->fd >= 0)
		refill(s);
	if (s->len - s->rpos < n) {
		if (s->len != s->rpos)
			fail(s, EIO); /* a record cut short: the file lost bytes */
		return NULL;
	}
	p = s->buf + s->rpos;
	s->rpos += n;
	return p;
}

uint64_t pr_spill_size(const struct pr_spill *s)
{
	return s->size;
}

int pr_spill_on_disk(const struct pr_spill *s)
{
	return s->fd >= 0;
}

void pr_spill_free(struct pr_spill *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}
