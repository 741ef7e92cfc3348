/* isloracle: answers set and map operations with isl itself, one request per
 * line, so that poly's results can be compared with isl's in tests
 * (poly/isl_oracle_test.go). Request: OP<TAB>ARG1[<TAB>ARG2]; reply: one line,
 * the result in isl notation, "true"/"false", or "ERROR <message>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/union_set.h>
#include <isl/union_map.h>
#include <isl/options.h>

static isl_ctx *ctx;

static isl_union_set *S(const char *s) { return isl_union_set_read_from_str(ctx, s); }
static isl_union_map *M(const char *s) { return isl_union_map_read_from_str(ctx, s); }

static void put_us(isl_union_set *u) {
	if (!u) { printf("ERROR %s\n", isl_ctx_last_error_msg(ctx) ? isl_ctx_last_error_msg(ctx) : "null"); return; }
	char *str = isl_union_set_to_str(u); printf("%s\n", str); free(str); isl_union_set_free(u);
}
static void put_um(isl_union_map *u) {
	if (!u) { printf("ERROR %s\n", isl_ctx_last_error_msg(ctx) ? isl_ctx_last_error_msg(ctx) : "null"); return; }
	char *str = isl_union_map_to_str(u); printf("%s\n", str); free(str); isl_union_map_free(u);
}
static void put_bool(isl_bool b) {
	if (b < 0) printf("ERROR %s\n", isl_ctx_last_error_msg(ctx) ? isl_ctx_last_error_msg(ctx) : "bool");
	else printf("%s\n", b ? "true" : "false");
}

int main(void) {
	ctx = isl_ctx_alloc();
	isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
	static char line[1 << 20];
	while (fgets(line, sizeof line, stdin)) {
		size_t n = strlen(line);
		while (n && (line[n-1] == '\n' || line[n-1] == '\r')) line[--n] = 0;
		char *op = line, *a = strchr(line, '\t'), *b = NULL;
		if (a) { *a++ = 0; b = strchr(a, '\t'); if (b) *b++ = 0; }
		if (!a) a = "";
		if (!b) b = "";
		isl_ctx_reset_error(ctx);
		if (!strcmp(op, "set")) put_us(S(a));
		else if (!strcmp(op, "map")) put_um(M(a));
		else if (!strcmp(op, "set_union")) put_us(isl_union_set_union(S(a), S(b)));
		else if (!strcmp(op, "set_intersect")) put_us(isl_union_set_intersect(S(a), S(b)));
		else if (!strcmp(op, "set_subtract")) put_us(isl_union_set_subtract(S(a), S(b)));
		else if (!strcmp(op, "set_is_equal")) { isl_union_set *x = S(a), *y = S(b); put_bool(isl_union_set_is_equal(x, y)); isl_union_set_free(x); isl_union_set_free(y); }
		else if (!strcmp(op, "set_is_subset")) { isl_union_set *x = S(a), *y = S(b); put_bool(isl_union_set_is_subset(x, y)); isl_union_set_free(x); isl_union_set_free(y); }
		else if (!strcmp(op, "set_is_empty")) { isl_union_set *x = S(a); put_bool(isl_union_set_is_empty(x)); isl_union_set_free(x); }
		else if (!strcmp(op, "set_lexmin")) put_us(isl_union_set_lexmin(S(a)));
		else if (!strcmp(op, "set_lexmax")) put_us(isl_union_set_lexmax(S(a)));
		else if (!strcmp(op, "set_coalesce")) put_us(isl_union_set_coalesce(S(a)));
		else if (!strcmp(op, "set_gist")) put_us(isl_union_set_gist(S(a), S(b)));
		else if (!strcmp(op, "set_apply")) put_us(isl_union_set_apply(S(a), M(b)));
		else if (!strcmp(op, "set_complement")) {
			isl_set *s = isl_set_from_union_set(S(a));
			s = isl_set_complement(s);
			put_us(s ? isl_union_set_from_set(s) : NULL);
		}
		else if (!strcmp(op, "map_union")) put_um(isl_union_map_union(M(a), M(b)));
		else if (!strcmp(op, "map_intersect")) put_um(isl_union_map_intersect(M(a), M(b)));
		else if (!strcmp(op, "map_subtract")) put_um(isl_union_map_subtract(M(a), M(b)));
		else if (!strcmp(op, "map_is_equal")) { isl_union_map *x = M(a), *y = M(b); put_bool(isl_union_map_is_equal(x, y)); isl_union_map_free(x); isl_union_map_free(y); }
		else if (!strcmp(op, "map_is_subset")) { isl_union_map *x = M(a), *y = M(b); put_bool(isl_union_map_is_subset(x, y)); isl_union_map_free(x); isl_union_map_free(y); }
		else if (!strcmp(op, "map_is_empty")) { isl_union_map *x = M(a); put_bool(isl_union_map_is_empty(x)); isl_union_map_free(x); }
		else if (!strcmp(op, "map_apply_range")) put_um(isl_union_map_apply_range(M(a), M(b)));
		else if (!strcmp(op, "map_reverse")) put_um(isl_union_map_reverse(M(a)));
		else if (!strcmp(op, "map_domain")) put_us(isl_union_map_domain(M(a)));
		else if (!strcmp(op, "map_range")) put_us(isl_union_map_range(M(a)));
		else if (!strcmp(op, "map_lexmin")) put_um(isl_union_map_lexmin(M(a)));
		else if (!strcmp(op, "map_lexmax")) put_um(isl_union_map_lexmax(M(a)));
		else if (!strcmp(op, "map_deltas")) put_us(isl_union_map_deltas(M(a)));
		else if (!strcmp(op, "map_coalesce")) put_um(isl_union_map_coalesce(M(a)));
		else if (!strcmp(op, "map_gist")) put_um(isl_union_map_gist(M(a), M(b)));
		else printf("ERROR unknown op %s\n", op);
		fflush(stdout);
	}
	isl_ctx_free(ctx);
	return 0;
}
