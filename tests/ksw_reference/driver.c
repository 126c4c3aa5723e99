/* Test driver for galign's port of bwa 0.7.17's ksw.c (tests/ksw.rs): reads cases from
 * stdin, one a line, as whitespace-separated integers, and prints bwa's results, one
 * line a case.
 *
 *   kind m mat[m*m] o_del e_del o_ins e_ins PARAMS qlen query[qlen] tlen target[tlen]
 *
 *   kind 0, ksw_extend2, PARAMS = w end_bonus zdrop h0
 *           prints: score qle tle gtle gscore max_off
 *   kind 1, ksw_global2 with a CIGAR, PARAMS = w
 *           prints: score n_cigar cigar[0] ... (BAM-packed, len<<4|op)
 *   kind 2, ksw_global2 without a CIGAR, PARAMS = w
 *           prints: score
 *   kind 3, ksw_align2 (no profile given), PARAMS = xtra
 *           prints: score te qe score2 te2 tb qb
 *   kind 4, ksw_align2 with a profile from ksw_qinit(size, ...), PARAMS = xtra size
 *           prints: as kind 3
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "ksw.h"

kswq_t *ksw_qinit(int size, int qlen, const uint8_t *query, int m, const int8_t *mat);

static int next(void)
{
	int x;
	if (scanf("%d", &x) != 1) { fprintf(stderr, "driver: bad input\n"); exit(2); }
	return x;
}

static uint8_t *read_seq(int *len)
{
	int i;
	uint8_t *s;
	*len = next();
	s = malloc(*len + 1);
	for (i = 0; i < *len; ++i) s[i] = (uint8_t)next();
	return s;
}

static void print_kswr(kswr_t r)
{
	printf("%d %d %d %d %d %d %d\n", r.score, r.te, r.qe, r.score2, r.te2, r.tb, r.qb);
}

static void run_case(int kind)
{
	int8_t mat[256];
	int m, i, o_del, e_del, o_ins, e_ins, p[4] = {0, 0, 0, 0}, n_params, qlen, tlen;
	uint8_t *q, *t;
	m = next();
	for (i = 0; i < m * m; ++i) mat[i] = (int8_t)next();
	o_del = next(); e_del = next(); o_ins = next(); e_ins = next();
	n_params = kind == 0? 4 : kind == 4? 2 : 1;
	for (i = 0; i < n_params; ++i) p[i] = next();
	q = read_seq(&qlen);
	t = read_seq(&tlen);
	if (kind == 0) {
		int qle, tle, gtle, gscore, max_off, score;
		score = ksw_extend2(qlen, q, tlen, t, m, mat, o_del, e_del, o_ins, e_ins, p[0], p[1], p[2], p[3], &qle, &tle, &gtle, &gscore, &max_off);
		printf("%d %d %d %d %d %d\n", score, qle, tle, gtle, gscore, max_off);
	} else if (kind == 1) {
		int n_cigar = 0, score;
		uint32_t *cigar = 0;
		score = ksw_global2(qlen, q, tlen, t, m, mat, o_del, e_del, o_ins, e_ins, p[0], &n_cigar, &cigar);
		printf("%d %d", score, n_cigar);
		for (i = 0; i < n_cigar; ++i) printf(" %u", cigar[i]);
		printf("\n");
		free(cigar);
	} else if (kind == 2) {
		printf("%d\n", ksw_global2(qlen, q, tlen, t, m, mat, o_del, e_del, o_ins, e_ins, p[0], 0, 0));
	} else if (kind == 3) {
		print_kswr(ksw_align2(qlen, q, tlen, t, m, mat, o_del, e_del, o_ins, e_ins, p[0], 0));
	} else {
		kswq_t *qry = ksw_qinit(p[1], qlen, q, m, mat);
		print_kswr(ksw_align2(qlen, q, tlen, t, m, mat, o_del, e_del, o_ins, e_ins, p[0], &qry));
		free(qry);
	}
	free(q); free(t);
}

int main(void)
{
	int kind;
	while (scanf("%d", &kind) == 1) run_case(kind);
	return 0;
}
