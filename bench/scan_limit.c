/*
 * scan_limit.c - the boundary-scan limit of ingest (issue 32): one pass over
 * a JSON trace that only finds where each event object ends (brace and
 * bracket depth outside strings, escapes skipped), read as ingest reads it
 * (read(2) into a 4 MiB buffer). No parsing, no store: what ingest's time is
 * measured against (bench/ingest_cpu.sh).
 *
 * usage: scan_limit FILE    prints "BYTES bytes EVENTS events" on stdout
 * An event is an object that closes at depth 2 (inside the top level's
 * array or the traceEvents array of the top object, depth counting both
 * { and [): the objects of both Chrome trace forms.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BUF (4u << 20)

int main(int argc, char **argv)
{
	static unsigned char buf[BUF];
	unsigned long long bytes = 0, events = 0;
	int depth = 0, in_str = 0, esc = 0, top_array = -1;
	ssize_t n;
	int fd;
	if (argc != 2) {
		fprintf(stderr, "usage: scan_limit FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	while ((n = read(fd, buf, BUF)) > 0) {
		const unsigned char *p = buf, *end = buf + n;
		bytes += (unsigned long long)n;
		for (; p < end; p++) {
			unsigned char c = *p;
			if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"')
					in_str = 0;
				continue;
			}
			switch (c) {
			case '"':
				in_str = 1;
				break;
			case '[':
				if (top_array < 0)
					top_array = depth == 0;
				depth++;
				break;
			case '{':
				if (top_array < 0)
					top_array = 0;
				depth++;
				break;
			case ']':
				depth--;
				break;
			case '}':
				depth--;
				if (depth == 1 + !top_array)
					events++;
				break;
			default:
				break;
			}
		}
	}
	if (n < 0) {
		perror(argv[1]);
		return 1;
	}
	close(fd);
	printf("%llu bytes %llu events\n", bytes, events);
	return 0;
}
