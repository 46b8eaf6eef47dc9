/* error.c - struct pr_error helpers. */
#include "store/error.h"

#include <stdio.h>
#include <string.h>

void pr_error_init(struct pr_error *err)
{
	struct pr_error blank = PR_ERROR_INIT;
	*err = blank;
}

int pr_error_vset(struct pr_error *err, enum pr_errcode code, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->code = code;
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	return -1;
}

int pr_error_set(struct pr_error *err, enum pr_errcode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pr_error_vset(err, code, fmt, ap);
	va_end(ap);
	return -1;
}

int pr_error_at(struct pr_error *err, enum pr_errcode code, int64_t offset, long line,
		long column, const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return -1;
	va_start(ap, fmt);
	pr_error_vset(err, code, fmt, ap);
	va_end(ap);
	err->offset = offset;
	err->line = line;
	err->column = column;
	return -1;
}

void pr_error_set_source(struct pr_error *err, const char *source)
{
	if (err && source)
		snprintf(err->source, sizeof(err->source), "%s", source);
}

void pr_error_format(const struct pr_error *err, char *buf, size_t n)
{
	if (!err->source[0])
		snprintf(buf, n, "%s", err->text);
	else if (err->line > 0 && err->column > 0)
		snprintf(buf, n, "'%s':%ld:%ld: %s", err->source, err->line, err->column, err->text);
	else if (err->line > 0)
		snprintf(buf, n, "'%s':%ld: %s", err->source, err->line, err->text);
	else
		snprintf(buf, n, "'%s': %s", err->source, err->text);
}

int pr_error_exit_code(enum pr_errcode code)
{
	switch (code) {
	case PR_OK:
		return 0;
	case PR_E_REGRESSION:
		return 1;
	default:
		return 2;
	}
}

const char *pr_errcode_name(enum pr_errcode code)
{
	static const char *const names[] = {
		[PR_OK] = "ok",         [PR_E_USAGE] = "usage",   [PR_E_IO] = "io",
		[PR_E_PARSE] = "parse", [PR_E_FORMAT] = "format", [PR_E_LIMIT] = "limit",
		[PR_E_STORE] = "store", [PR_E_REGRESSION] = "regression",
	};
	if ((unsigned)code < PR_ARRAY_SIZE(names) && names[code])
		return names[code];
	return "unknown";
}
