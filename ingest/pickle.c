/* pickle.c - plain-data Python pickles into jansson (see pickle.h). */
#include "ingest/pickle.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* A value on the stack or in the memo; rec indexes the container's record (0: a scalar). */
struct pv {
	json_t *v;
	size_t rec;
};

/* A container: its nesting depth, whether it is inside another (then it is
 * not changed any more: no cycle can form), and whether it may be changed
 * at all (tuples, frozensets may not). */
struct rec {
	int depth;
	unsigned char sealed, mutable_, is_dict;
};

struct pk {
	const unsigned char *b;
	size_t n, i, op_at;
	struct pv *st;
	size_t nst, ast;
	size_t *marks;
	size_t nmarks, amarks;
	struct pv *memo;
	size_t nmemo, amemo, puts;
	struct rec *recs;
	size_t nrec, arec;
	struct pr_error *err;
};

static const struct {
	unsigned char op;
	const char *name;
} opnames[] = {
	{ '(', "MARK" },
	{ '.', "STOP" },
	{ '0', "POP" },
	{ '1', "POP_MARK" },
	{ '2', "DUP" },
	{ 'F', "FLOAT" },
	{ 'I', "INT" },
	{ 'J', "BININT" },
	{ 'K', "BININT1" },
	{ 'L', "LONG" },
	{ 'M', "BININT2" },
	{ 'N', "NONE" },
	{ 'P', "PERSID" },
	{ 'Q', "BINPERSID" },
	{ 'R', "REDUCE" },
	{ 'S', "STRING" },
	{ 'T', "BINSTRING" },
	{ 'U', "SHORT_BINSTRING" },
	{ 'V', "UNICODE" },
	{ 'X', "BINUNICODE" },
	{ 'a', "APPEND" },
	{ 'b', "BUILD" },
	{ 'c', "GLOBAL" },
	{ 'd', "DICT" },
	{ '}', "EMPTY_DICT" },
	{ 'e', "APPENDS" },
	{ 'g', "GET" },
	{ 'h', "BINGET" },
	{ 'i', "INST" },
	{ 'j', "LONG_BINGET" },
	{ 'l', "LIST" },
	{ ']', "EMPTY_LIST" },
	{ 'o', "OBJ" },
	{ 'p', "PUT" },
	{ 'q', "BINPUT" },
	{ 'r', "LONG_BINPUT" },
	{ 's', "SETITEM" },
	{ 't', "TUPLE" },
	{ ')', "EMPTY_TUPLE" },
	{ 'u', "SETITEMS" },
	{ 'G', "BINFLOAT" },
	{ 0x80, "PROTO" },
	{ 0x81, "NEWOBJ" },
	{ 0x82, "EXT1" },
	{ 0x83, "EXT2" },
	{ 0x84, "EXT4" },
	{ 0x85, "TUPLE1" },
	{ 0x86, "TUPLE2" },
	{ 0x87, "TUPLE3" },
	{ 0x88, "NEWTRUE" },
	{ 0x89, "NEWFALSE" },
	{ 0x8a, "LONG1" },
	{ 0x8b, "LONG4" },
	{ 'B', "BINBYTES" },
	{ 'C', "SHORT_BINBYTES" },
	{ 0x8c, "SHORT_BINUNICODE" },
	{ 0x8d, "BINUNICODE8" },
	{ 0x8e, "BINBYTES8" },
	{ 0x8f, "EMPTY_SET" },
	{ 0x90, "ADDITEMS" },
	{ 0x91, "FROZENSET" },
	{ 0x92, "NEWOBJ_EX" },
	{ 0x93, "STACK_GLOBAL" },
	{ 0x94, "MEMOIZE" },
	{ 0x95, "FRAME" },
	{ 0x96, "BYTEARRAY8" },
	{ 0x97, "NEXT_BUFFER" },
	{ 0x98, "READONLY_BUFFER" },
};

const char *pr_pickle_opname(unsigned char op)
{
	size_t k;
	for (k = 0; k < sizeof(opnames) / sizeof(opnames[0]); k++)
		if (opnames[k].op == op)
			return opnames[k].name;
	return NULL;
}

static int fail(struct pk *p, const char *fmt, const char *a)
{
	return pr_error_at(p->err, PR_E_PARSE, (int64_t)p->op_at, 0, 0, "pickle byte %zu: %s%s",
			   p->op_at, fmt, a ? a : "");
}

static int need(struct pk *p, size_t k)
{
	if (p->n - p->i < k)
		return fail(p, "truncated argument of the opcode", NULL);
	return 0;
}

static uint64_t le(const unsigned char *b, size_t k)
{
	uint64_t v = 0;
	while (k--)
		v = (v << 8) | b[k];
	return v;
}

static size_t new_rec(struct pk *p, int mutable_, int is_dict)
{
	if (p->nrec == p->arec) {
		p->arec = p->arec ? p->arec * 2 : 64;
		p->recs = pr_xreallocarray(p->recs, p->arec, sizeof(*p->recs));
	}
	p->recs[p->nrec] = (struct rec){ 1, 0, (unsigned char)mutable_, (unsigned char)is_dict };
	return p->nrec++;
}

static void push(struct pk *p, json_t *v, size_t rec)
{
	if (p->nst == p->ast) {
		p->ast = p->ast ? p->ast * 2 : 64;
		p->st = pr_xreallocarray(p->st, p->ast, sizeof(*p->st));
	}
	p->st[p->nst].v = v;
	p->st[p->nst].rec = rec;
	p->nst++;
}

static int push_scalar(struct pk *p, json_t *v)
{
	push(p, v ? v : json_null(), 0);
	return 0;
}

static size_t mark_base(const struct pk *p)
{
	return p->nmarks ? p->marks[p->nmarks - 1] : 0;
}

/* Values may be taken from the stack down to the innermost mark only. */
static int have(struct pk *p, size_t k)
{
	if (p->nst - mark_base(p) < k)
		return fail(p, "stack underflow", NULL);
	return 0;
}

static int pop_mark(struct pk *p, size_t *base)
{
	if (!p->nmarks)
		return fail(p, "no MARK before the opcode", NULL);
	*base = p->marks[--p->nmarks];
	return 0;
}

static int depth_of(const struct pk *p, const struct pv *x)
{
	return x->rec ? p->recs[x->rec].depth : 0;
}

/* Accounts for x going inside container c: seals x, deepens c. */
static int nest(struct pk *p, size_t c, const struct pv *x)
{
	int d = depth_of(p, x) + 1;
	if (x->rec) {
		if (x->rec == c)
			return fail(p, "a container put inside itself (a recursive structure)",
				    NULL);
		p->recs[x->rec].sealed = 1;
	}
	if (d > PR_PICKLE_MAX_DEPTH)
		return pr_error_at(p->err, PR_E_LIMIT, (int64_t)p->op_at, 0, 0,
				   "pickle byte %zu: containers nested deeper than %d", p->op_at,
				   PR_PICKLE_MAX_DEPTH);
	if (d > p->recs[c].depth)
		p->recs[c].depth = d;
	return 0;
}

static int key_text(struct pk *p, json_t *k, char *buf, size_t n, const char **out)
{
	if (json_is_string(k)) {
		*out = json_string_value(k);
		return 0;
	}
	if (json_is_integer(k))
		snprintf(buf, n, "%" PRId64, (int64_t)json_integer_value(k));
	else if (json_is_true(k))
		snprintf(buf, n, "True");
	else if (json_is_false(k))
		snprintf(buf, n, "False");
	else if (json_is_null(k))
		snprintf(buf, n, "None");
	else if (json_is_real(k))
		snprintf(buf, n, "%.17g", json_real_value(k));
	else
		return fail(p, "a dict key that is a list, tuple or dict", NULL);
	*out = buf;
	return 0;
}

/* Items st[from..nst) into the container c (a dict takes them in pairs); pops them. */
static int fill(struct pk *p, const struct pv *c, size_t from)
{
	size_t k;
	struct rec *r = &p->recs[c->rec];
	if (!r->mutable_)
		return fail(p, "items added to an immutable tuple or frozenset", NULL);
	if (r->sealed)
		return fail(p, "a container changed after it was put inside another", NULL);
	if (r->is_dict && (p->nst - from) % 2)
		return fail(p, "an odd number of values for a dict's keys and values", NULL);
	for (k = from; k < p->nst; k += r->is_dict ? 2 : 1) {
		struct pv *x = &p->st[k + (r->is_dict ? 1 : 0)];
		if (nest(p, c->rec, x))
			return -1;
		if (r->is_dict) {
			char kb[40];
			const char *key = NULL;
			if (key_text(p, p->st[k].v, kb, sizeof(kb), &key))
				return -1;
			json_object_set(c->v, key, x->v);
		} else {
			json_array_append(c->v, x->v);
		}
	}
	for (k = from; k < p->nst; k++)
		json_decref(p->st[k].v);
	p->nst = from;
	return 0;
}

/* A new container from st[from..nst), replacing them. */
static int build(struct pk *p, size_t from, int is_dict, int mutable_)
{
	struct pv c;
	c.v = is_dict ? json_object() : json_array();
	c.rec = new_rec(p, 1, is_dict);
	if (fill(p, &c, from)) {
		json_decref(c.v);
		return -1;
	}
	p->recs[c.rec].mutable_ = (unsigned char)(mutable_ != 0);
	push(p, c.v, c.rec);
	return 0;
}

static int op_string(struct pk *p, size_t lenbytes, int bytes)
{
	uint64_t len;
	json_t *s;
	if (need(p, lenbytes))
		return -1;
	len = le(p->b + p->i, lenbytes);
	p->i += lenbytes;
	if (len > p->n - p->i)
		return fail(p, "a string longer than the rest of the input", NULL);
	/* bytes that are not UTF-8 become null; a str that is not is an error */
	s = json_stringn((const char *)p->b + p->i, (size_t)len);
	if (!s && !bytes)
		return fail(p, "a string that is not valid UTF-8", NULL);
	p->i += (size_t)len;
	return push_scalar(p, s);
}

static int op_long(struct pk *p, size_t lenbytes)
{
	uint64_t len, v = 0;
	const unsigned char *b;
	int neg;
	size_t k;
	if (need(p, lenbytes))
		return -1;
	len = le(p->b + p->i, lenbytes);
	p->i += lenbytes;
	if (lenbytes == 4 && len > INT32_MAX)
		return fail(p, "a negative LONG4 length", NULL);
	if (len > p->n - p->i)
		return fail(p, "an integer longer than the rest of the input", NULL);
	b = p->b + p->i;
	p->i += (size_t)len;
	if (!len)
		return push_scalar(p, json_integer(0));
	neg = (b[len - 1] & 0x80) != 0;
	/* fits int64 when every byte past the 8th (and the 8th's top bit) is the sign */
	for (k = 8; k < len; k++)
		if (b[k] != (neg ? 0xff : 0x00))
			break;
	if (k >= len && (len < 8 || ((b[7] & 0x80) != 0) == neg)) {
		size_t m = len < 8 ? (size_t)len : 8;
		v = le(b, m);
		if (neg && m < 8)
			v |= ~(uint64_t)0 << (8 * m);
		return push_scalar(p, json_integer((json_int_t)(int64_t)v));
	} else {
		/* past int64: the nearest double */
		double d = 0;
		for (k = (size_t)len; k-- > 0;)
			d = d * 256.0 + (neg ? (double)(unsigned char)~b[k] : (double)b[k]);
		if (neg)
			d = -d - 1.0;
		return push_scalar(p, isfinite(d) ? json_real(d) : json_null());
	}
}

static int memo_put(struct pk *p, uint64_t idx)
{
	const struct pv *top;
	if (have(p, 1))
		return -1;
	if (idx > p->puts)
		return fail(p, "a memo index past the number of values memoized", NULL);
	p->puts++;
	top = &p->st[p->nst - 1];
	if (idx >= p->amemo) {
		size_t old = p->amemo;
		p->amemo = p->amemo ? p->amemo * 2 : 256;
		while (p->amemo <= idx)
			p->amemo *= 2;
		p->memo = pr_xreallocarray(p->memo, p->amemo, sizeof(*p->memo));
		memset(p->memo + old, 0, (p->amemo - old) * sizeof(*p->memo));
	}
	json_decref(p->memo[idx].v);
	p->memo[idx].v = json_incref(top->v);
	p->memo[idx].rec = top->rec;
	if (idx >= p->nmemo)
		p->nmemo = (size_t)idx + 1;
	return 0;
}

static int memo_get(struct pk *p, uint64_t idx)
{
	if (idx >= p->nmemo || !p->memo[idx].v)
		return fail(p, "a memo index that was never set", NULL);
	push(p, json_incref(p->memo[idx].v), p->memo[idx].rec);
	return 0;
}

static int arg(struct pk *p, size_t k, uint64_t *v)
{
	if (need(p, k))
		return -1;
	*v = le(p->b + p->i, k);
	p->i += k;
	return 0;
}

static int refuse(struct pk *p, unsigned char op)
{
	const char *name = pr_pickle_opname(op);
	char what[120];
	if (name && (op == 'F' || op == 'I' || op == 'L' || op == 'S' || op == 'V' || op == 'g' ||
		     op == 'p'))
		snprintf(what, sizeof(what), "opcode %s of text protocol 0 is not read", name);
	else if (name)
		snprintf(what, sizeof(what),
			 "opcode %s is not plain data (it names or calls a class or function, "
			 "or needs an outside buffer): not loaded",
			 name);
	else
		snprintf(what, sizeof(what), "unknown opcode 0x%02x", op);
	return fail(p, what, NULL);
}

static int step(struct pk *p, unsigned char op, int *stop)
{
	uint64_t v;
	size_t base = 0;
	switch (op) {
	case 0x80: /* PROTO */
		if (arg(p, 1, &v))
			return -1;
		if (v > 5)
			return fail(p, "a pickle protocol past 5", NULL);
		return 0;
	case 0x95: /* FRAME: the frame's bytes follow inline */
		return arg(p, 8, &v);
	case '.':
		*stop = 1;
		return 0;
	case '(':
		if (p->nmarks == p->amarks) {
			p->amarks = p->amarks ? p->amarks * 2 : 32;
			p->marks = pr_xreallocarray(p->marks, p->amarks, sizeof(*p->marks));
		}
		p->marks[p->nmarks++] = p->nst;
		return 0;
	case '0':
		if (have(p, 1))
			return -1;
		json_decref(p->st[--p->nst].v);
		return 0;
	case '1':
		if (pop_mark(p, &base))
			return -1;
		while (p->nst > base)
			json_decref(p->st[--p->nst].v);
		return 0;
	case '2':
		if (have(p, 1))
			return -1;
		push(p, json_incref(p->st[p->nst - 1].v), p->st[p->nst - 1].rec);
		return 0;
	case '}':
		push(p, json_object(), new_rec(p, 1, 1));
		return 0;
	case ']':
	case 0x8f: /* EMPTY_SET */
		push(p, json_array(), new_rec(p, 1, 0));
		return 0;
	case ')':
		push(p, json_array(), new_rec(p, 0, 0));
		return 0;
	case 'd':
	case 'l':
	case 't':
	case 0x91: /* FROZENSET */
		if (pop_mark(p, &base))
			return -1;
		return build(p, base, op == 'd', op == 'l');
	case 0x85:
	case 0x86:
	case 0x87:
		if (have(p, (size_t)(op - 0x84)))
			return -1;
		return build(p, p->nst - (size_t)(op - 0x84), 0, 0);
	case 'a':
	case 's':
		if (have(p, op == 'a' ? 2 : 3))
			return -1;
		base = p->nst - (op == 'a' ? 1 : 2);
		goto additems;
	case 'e':
	case 'u':
	case 0x90: /* ADDITEMS */
		if (pop_mark(p, &base))
			return -1;
		if (base == 0 || base > p->nst || (p->nmarks && base - 1 < mark_base(p)))
			return fail(p, "no container below the MARK", NULL);
	additems : {
		struct pv c = p->st[base - 1];
		if (!c.rec || (op == 's' || op == 'u') != p->recs[c.rec].is_dict)
			return fail(p,
				    op == 's' || op == 'u'
					    ? "dict items added to a value that is not a dict"
					    : "items added to a value that is not a list or set",
				    NULL);
		return fill(p, &c, base);
	}
	case 'N':
		return push_scalar(p, json_null());
	case 0x88:
		return push_scalar(p, json_true());
	case 0x89:
		return push_scalar(p, json_false());
	case 'K':
		if (arg(p, 1, &v))
			return -1;
		return push_scalar(p, json_integer((json_int_t)v));
	case 'M':
		if (arg(p, 2, &v))
			return -1;
		return push_scalar(p, json_integer((json_int_t)v));
	case 'J':
		if (arg(p, 4, &v))
			return -1;
		return push_scalar(p, json_integer((json_int_t)(int32_t)(uint32_t)v));
	case 0x8a:
		return op_long(p, 1);
	case 0x8b:
		return op_long(p, 4);
	case 'G': {
		unsigned char b[8];
		double d;
		size_t k;
		if (need(p, 8))
			return -1;
		for (k = 0; k < 8; k++)
			b[k] = p->b[p->i + 7 - k];
		p->i += 8;
		memcpy(&d, b, 8);
		return push_scalar(p, isfinite(d) ? json_real(d) : json_null());
	}
	case 0x8c:
	case 'U':
		return op_string(p, 1, 0);
	case 'X':
	case 'T':
		return op_string(p, 4, 0);
	case 0x8d:
		return op_string(p, 8, 0);
	case 'C':
		return op_string(p, 1, 1);
	case 'B':
		return op_string(p, 4, 1);
	case 0x8e:
	case 0x96:
		return op_string(p, 8, 1);
	case 0x94:
		return memo_put(p, p->puts);
	case 'q':
	case 'r':
		if (arg(p, op == 'q' ? 1 : 4, &v))
			return -1;
		return memo_put(p, v);
	case 'h':
	case 'j':
		if (arg(p, op == 'h' ? 1 : 4, &v))
			return -1;
		return memo_get(p, v);
	default:
		return refuse(p, op);
	}
}

static void release(struct pk *p)
{
	size_t k;
	for (k = 0; k < p->nst; k++)
		json_decref(p->st[k].v);
	for (k = 0; k < p->nmemo; k++)
		json_decref(p->memo[k].v);
	free(p->st);
	free(p->marks);
	free(p->memo);
	free(p->recs);
}

json_t *pr_pickle_load(const unsigned char *buf, size_t n, struct pr_error *err)
{
	struct pk p;
	int stop = 0;
	json_t *out = NULL;
	memset(&p, 0, sizeof(p));
	p.b = buf;
	p.n = n;
	p.err = err;
	new_rec(&p, 0, 0); /* record 0: scalars */
	while (!stop) {
		unsigned char op;
		if (p.i >= p.n) {
			p.op_at = p.i;
			fail(&p, "the input ends before STOP", NULL);
			goto out;
		}
		p.op_at = p.i;
		op = p.b[p.i++];
		if (step(&p, op, &stop))
			goto out;
	}
	if (p.nmarks || p.nst != 1) {
		fail(&p, "STOP with other than one value on the stack", NULL);
		goto out;
	}
	out = p.st[0].v;
	p.nst = 0;
out:
	release(&p);
	return out;
}
