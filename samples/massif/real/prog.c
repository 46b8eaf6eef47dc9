/*
 * prog.c - the program behind massif.out.i and massif.out.B (see README.md):
 * each step adds a 4 KiB entry to a cache that is only freed at the end and
 * uses a 16 KiB scratch buffer that it frees again, so the heap grows by
 * 4 KiB per step with a 16 KiB spike. Three call levels (main -> step ->
 * cache_add / scratch_work) give the allocation tree some depth.
 */
#include <stdlib.h>
#include <string.h>

struct entry {
	struct entry *next;
	char data[4096 - sizeof(struct entry *)];
};

static struct entry *cache_add(struct entry *head, int i)
{
	struct entry *e = malloc(sizeof(*e));
	if (!e)
		abort();
	memset(e->data, i & 0xff, sizeof(e->data));
	e->next = head;
	return e;
}

static int scratch_work(int i)
{
	char *buf = malloc(16384);
	int sum = 0, k;
	if (!buf)
		abort();
	memset(buf, i & 0x7f, 16384);
	for (k = 0; k < 16384; k += 64)
		sum += buf[k];
	free(buf);
	return sum;
}

static struct entry *step(struct entry *head, int i, int *sum)
{
	head = cache_add(head, i);
	*sum += scratch_work(i);
	return head;
}

int main(int argc, char **argv)
{
	struct entry *head = NULL;
	int n = argc > 1 ? atoi(argv[1]) : 40, i, sum = 0;
	for (i = 0; i < n; i++)
		head = step(head, i, &sum);
	while (head) {
		struct entry *next = head->next;
		free(head);
		head = next;
	}
	return sum == -1;
}
