/* prog.c - a small program for DHAT (samples/dhat/make_samples.py).
 * Each of N steps keeps a 4 KiB entry in a cache (freed only at the end,
 * written once, read twice) and uses a 16 KiB scratch buffer it frees at
 * once (written, never read); a 64-byte table made at the start is read
 * every step. With "copy" it memcpy's each entry too (--mode=copy); every
 * step also reports an ad-hoc event of weight i + 1 (--mode=ad-hoc). */
#include <stdlib.h>
#include <string.h>

#include <valgrind/dhat.h>

static char *cache[64];
static int ncache;

static void cache_add(int i)
{
	char *p = malloc(4096);
	memset(p, i, 4096);
	cache[ncache++] = p;
}

static long scratch_work(int i)
{
	char *s = malloc(16384);
	memset(s, i, 16384);
	free(s);
	return i;
}

static long step(int i, const long *table, int copy)
{
	long sum = 0;
	int k;
	cache_add(i);
	DHAT_AD_HOC_EVENT(i + 1);
	sum += scratch_work(i);
	for (k = 0; k < 4096; k += 512)
		sum += cache[ncache - 1][k] + cache[ncache - 1][k + 1];
	sum += table[i % 8];
	if (copy) {
		char buf[4096];
		/* a length the compiler cannot see, so memcpy is called, not inlined */
		memcpy(buf, cache[ncache - 1], sizeof(buf) - (size_t)table[0]);
		sum += buf[7];
	}
	return sum;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, copy = argc > 2 && !strcmp(argv[2], "copy"), i;
	long *table = calloc(8, sizeof(long)), sum = 0;
	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		sum += step(i, table, copy);
	for (i = 0; i < ncache; i++)
		free(cache[i]);
	free(table);
	return sum < 0; /* 0: sum is only kept so the reads are not optimized out */
}
