// Rodinia/Parboil/SHOC-style benchmark kernels, a sixth sweep (session 10, "breadth6"):
// hotspot (2-D thermal stencil with a shared tile and halo), pathfinder (dynamic programming
// row by row in shared memory), srad (anisotropic diffusion coefficient), needleman-wunsch
// (anti-diagonal wavefront in a shared tile), backprop layerforward (shared-memory weight
// tree reduction), kmeans (nearest centre), gaussian elimination Fan1/Fan2, lud diagonal,
// mri-q (sincos accumulation over k-space), tpacf-style histogram (binary search of bins,
// shared atomics), md (lennard-jones with a neighbour list), stencil2d, triad; written for
// openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.

#define HS 16
//@ hotspot grid=2,2 block=16,16 | tout:f32[1024] check(1e-5) | tin:f32[1024] rand(20,90) | pw:f32[1024] rand(0,1)
extern "C" __global__ void hotspot(float *tout, const float *tin, const float *pw)
{
	__shared__ float t[HS + 2][HS + 2];
	int n = 32, tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * HS + tx, y = blockIdx.y * HS + ty;
	t[ty + 1][tx + 1] = tin[y * n + x];
	if (tx == 0) t[ty + 1][0] = tin[y * n + max(x - 1, 0)];
	if (tx == HS - 1) t[ty + 1][HS + 1] = tin[y * n + min(x + 1, n - 1)];
	if (ty == 0) t[0][tx + 1] = tin[max(y - 1, 0) * n + x];
	if (ty == HS - 1) t[HS + 1][tx + 1] = tin[min(y + 1, n - 1) * n + x];
	__syncthreads();
	float c = t[ty + 1][tx + 1], sdc = 0.001f / 0.5f;
	float v = c + sdc * (pw[y * n + x] + (t[ty + 2][tx + 1] + t[ty][tx + 1] - 2.0f * c) * 0.25f +
			     (t[ty + 1][tx + 2] + t[ty + 1][tx] - 2.0f * c) * 0.5f + (80.0f - c) * 0.01f);
	tout[y * n + x] = v;
}

//@ pathfinder grid=1 block=128 | res:s32[128] check | wall:s32[1280] rand(0,9)
extern "C" __global__ void pathfinder(int *res, const int *wall)
{
	__shared__ int prev[128], cur[128];
	int t = threadIdx.x;
	prev[t] = wall[t];
	__syncthreads();
	for (int r = 1; r < 10; r++) {
		int l = prev[max(t - 1, 0)], u = prev[t], rr = prev[min(t + 1, 127)];
		cur[t] = min(min(l, u), rr) + wall[r * 128 + t];
		__syncthreads();
		prev[t] = cur[t];
		__syncthreads();
	}
	res[t] = prev[t];
}

//@ srad grid=1 block=16,16 | c:f32[256] check(1e-5) | d:f32[1024] check(1e-5) | img:f32[256] rand(0.1,1)
extern "C" __global__ void srad(float *c, float *d, const float *img)
{
	int i = threadIdx.y, j = threadIdx.x, n = 16, k = i * n + j;
	float q0sqr = 0.05f, jc = img[k];
	float dn = img[max(i - 1, 0) * n + j] - jc, ds = img[min(i + 1, n - 1) * n + j] - jc;
	float dw = img[i * n + max(j - 1, 0)] - jc, de = img[i * n + min(j + 1, n - 1)] - jc;
	float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc), l = (dn + ds + dw + de) / jc;
	float num = 0.5f * g2 - (1.0f / 16.0f) * l * l, den = 1 + 0.25f * l;
	float qsqr = num / (den * den);
	den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
	float cc = 1.0f / (1.0f + den);
	c[k] = cc < 0 ? 0 : cc > 1 ? 1 : cc;
	d[k] = dn; d[256 + k] = ds; d[512 + k] = dw; d[768 + k] = de;
}

#define NB 16
//@ nw grid=1 block=16 | score:s32[289] check | ref:s32[256] rand(-4,4) | seq:s32[289] rand(-10,0)
extern "C" __global__ void nw(int *score, const int *ref, const int *seq)
{
	__shared__ int tmp[NB + 1][NB + 1], r[NB][NB];
	int tx = threadIdx.x, penalty = 10;
	for (int i = 0; i < NB; i++) r[i][tx] = ref[i * NB + tx];
	tmp[tx + 1][0] = seq[(tx + 1) * (NB + 1)];
	if (tx == 0) tmp[0][0] = seq[0];
	tmp[0][tx + 1] = seq[tx + 1];
	__syncthreads();
	for (int m = 0; m < NB; m++) {
		if (tx <= m) {
			int x = tx + 1, y = m - tx + 1;
			tmp[y][x] = max(max(tmp[y - 1][x - 1] + r[y - 1][x - 1], tmp[y][x - 1] - penalty), tmp[y - 1][x] - penalty);
		}
		__syncthreads();
	}
	for (int m = NB - 2; m >= 0; m--) {
		if (tx <= m) {
			int x = tx + NB - m, y = NB - tx;
			tmp[y][x] = max(max(tmp[y - 1][x - 1] + r[y - 1][x - 1], tmp[y][x - 1] - penalty), tmp[y - 1][x] - penalty);
		}
		__syncthreads();
	}
	for (int i = 0; i <= NB; i++) if (tx <= NB) score[i * (NB + 1) + tx] = tmp[i][tx];
	if (tx == 0) score[16 * 17 + 16] = tmp[16][16];
}

//@ bp_forward grid=2 block=16,16 | partial:f32[32] check(1e-5) | in:f32[33] rand(0,1) | w:f32[544] rand(-1,1)
extern "C" __global__ void bp_forward(float *partial, const float *in, const float *w)
{
	__shared__ float node[16], wm[16][16];
	int by = blockIdx.x, tx = threadIdx.x, ty = threadIdx.y, hid = 16;
	int idx = (hid + 1) * 16 * by + (hid + 1) * ty + tx + 1 + hid + 1;
	if (tx == 0) node[ty] = in[16 * by + ty + 1];
	__syncthreads();
	wm[ty][tx] = w[idx % 544] * node[ty];
	__syncthreads();
	for (int i = 1; i <= 4; i++) {
		int p = 1 << i;
		if (ty % p == 0) wm[ty][tx] += wm[ty + p / 2][tx];
		__syncthreads();
	}
	if (tx == 0) partial[by * hid + ty] = wm[tx][ty];
}

//@ kmeans grid=2 block=64 | memb:s32[128] check | dist:f32[128] check(1e-5) | pts:f32[512] rand(0,10) | cen:f32[20] rand(0,10)
extern "C" __global__ void kmeans(int *memb, float *dist, const float *pts, const float *cen)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x, best = -1;
	float bd = 3.4e38f;
	for (int c = 0; c < 5; c++) {
		float d = 0;
		for (int f = 0; f < 4; f++) {
			float e = pts[f * 128 + p] - __ldg(&cen[c * 4 + f]);   /* feature-major, as Rodinia */
			d += e * e;
		}
		if (d < bd) bd = d, best = c;
	}
	memb[p] = best; dist[p] = sqrtf(bd);
}

//@ gauss grid=1 block=16,16 | a:f32[256] check(1e-4) rand(1,2) | m:f32[256] check(1e-4) | b:f32[16] check(1e-4) rand(0,1)
extern "C" __global__ void gauss(float *a, float *m, float *b)
{
	int n = 16, tx = threadIdx.x, ty = threadIdx.y;
	for (int t = 0; t < n - 1; t++) {
		if (ty == 0 && tx > t) m[tx * n + t] = a[tx * n + t] / a[t * n + t];   /* Fan1 */
		__syncthreads();
		if (tx > t && ty >= t) {   /* Fan2 */
			a[tx * n + ty] -= m[tx * n + t] * a[t * n + ty];
			if (ty == t) b[tx] -= m[tx * n + t] * b[t];
		}
		__syncthreads();
	}
}

//@ lud_diag grid=1 block=16 | a:f32[256] check(1e-4) rand(1,4)
extern "C" __global__ void lud_diag(float *a)
{
	__shared__ float s[16][16];
	int tx = threadIdx.x;
	for (int i = 0; i < 16; i++) s[i][tx] = a[i * 16 + tx] + (i == tx ? 16.0f : 0.0f);
	__syncthreads();
	for (int i = 0; i < 15; i++) {
		if (tx > i) {
			for (int j = 0; j < i; j++) s[tx][i] -= s[tx][j] * s[j][i];
			s[tx][i] /= s[i][i];
		}
		__syncthreads();
		if (tx > i) {
			for (int j = 0; j < i + 1; j++) s[i + 1][tx] -= s[i + 1][j] * s[j][tx];
		}
		__syncthreads();
	}
	for (int i = 0; i < 16; i++) a[i * 16 + tx] = s[i][tx];
}

struct kval { float kx, ky, kz, phi; };
__constant__ kval ck[32];
//@ mriq grid=2 block=64 | qr:f32[128] check(1e-3) | qi:f32[128] check(1e-3) | x:f32[128] rand(-1,1) | y:f32[128] rand(-1,1) | z:f32[128] rand(-1,1)
extern "C" __global__ void mriq(float *qr, float *qi, const float *x, const float *y, const float *z)
{
	int n = blockIdx.x * blockDim.x + threadIdx.x;
	float sx = x[n], sy = y[n], sz = z[n], r = 0, im = 0;
	for (int k = 0; k < 32; k++) {
		float kx = 0.1f * k, ky = 0.05f * (k & 7), kz = 0.3f - 0.02f * k, phi = 1.0f + 0.01f * k;
		float arg = 6.2831853f * (kx * sx + ky * sy + kz * sz), s, c;
		sincosf(arg, &s, &c);
		r += phi * c; im += phi * s;
	}
	qr[n] = r; qi[n] = im;
}

//@ tpacf grid=2 block=128 | hist:u32[16] check | dots:f32[1024] rand(-1,1)
extern "C" __global__ void tpacf(unsigned *hist, const float *dots)
{
	__shared__ unsigned sh[16];
	__shared__ float bins[17];
	int t = threadIdx.x;
	if (t < 16) sh[t] = 0;
	if (t < 17) bins[t] = cosf(3.14159265f * (16 - t) / 16.0f);
	__syncthreads();
	for (int i = blockIdx.x * 128 + t; i < 1024; i += 256) {
		float d = dots[i];
		int lo = 0, hi = 16;   /* binary search: bins ascending */
		while (hi > lo + 1) {
			int mid = (lo + hi) >> 1;
			if (d >= bins[mid]) lo = mid; else hi = mid;
		}
		atomicAdd(&sh[lo], 1u);
	}
	__syncthreads();
	if (t < 16) atomicAdd(&hist[t], sh[t]);
}

//@ md_lj grid=1 block=64 | f:f32[192] check(1e-3) | pos:f32[256] rand(0,8) | nbr:s32[512] rand(0,63)
extern "C" __global__ void md_lj(float *f, const float4 *pos, const int *nbr)
{
	int i = threadIdx.x;
	float4 p = pos[i];
	float fx = 0, fy = 0, fz = 0;
	for (int j = 0; j < 8; j++) {
		int k = nbr[j * 64 + i];   /* neighbour list, column-major as SHOC */
		if (k == i) continue;
		float4 q = pos[k];
		float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z, r2 = dx * dx + dy * dy + dz * dz;
		if (r2 < 16.0f && r2 > 0.01f) {
			float r2i = 1.0f / r2, r6i = r2i * r2i * r2i, fs = r2i * r6i * (1.5f * r6i - 2.0f);
			fx += dx * fs; fy += dy * fs; fz += dz * fs;
		}
	}
	f[i] = fx; f[64 + i] = fy; f[128 + i] = fz;
}

//@ stencil2d grid=2,2 block=8,8 | o:f64[256] check(1e-12) | in:f64[256] rand(0,1)
extern "C" __global__ void stencil2d(double *o, const double *in)
{
	int x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, n = 16;
	if (x == 0 || y == 0 || x == n - 1 || y == n - 1) { o[y * n + x] = in[y * n + x]; return; }
	double c = in[y * n + x], a = in[(y - 1) * n + x] + in[(y + 1) * n + x] + in[y * n + x - 1] + in[y * n + x + 1];
	double d = in[(y - 1) * n + x - 1] + in[(y - 1) * n + x + 1] + in[(y + 1) * n + x - 1] + in[(y + 1) * n + x + 1];
	o[y * n + x] = 0.25 * c + 0.15 * a + 0.0375 * d;
}

//@ triad grid=4 block=64 | c:f32[1024] check(1e-6) | a:f32[1024] rand(-1,1) | b:f32[1024] rand(-1,1) | s=f32:1.75
extern "C" __global__ void triad(float *c, const float *a, const float *b, float s)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 1024; i += gridDim.x * blockDim.x) c[i] = a[i] + s * b[i];
}

//@ cfd_flux grid=1 block=64 | fluxes:f32[320] check(1e-4) | vars:f32[320] rand(0.5,2) | nb:s32[256] rand(-2,63) | nrm:f32[768] rand(-1,1)
extern "C" __global__ void cfd_flux(float *fluxes, const float *vars, const int *nb, const float *nrm)
{
	/* Rodinia cfd compute_flux: density, momentum (float3), energy; 4 neighbours, -1/-2 = wing/far field */
	const int N = 64;
	int i = threadIdx.x;
	float d = vars[i], e = vars[4 * N + i] + 20.0f, mx = vars[N + i], my = vars[2 * N + i], mz = vars[3 * N + i];
	float sp2 = (mx * mx + my * my + mz * mz) / (d * d), pr = 0.4f * (e - 0.5f * d * sp2), c = sqrtf(1.4f * pr / d);
	float fd = 0, fe = 0, fx = 0, fy = 0, fz = 0;
	for (int j = 0; j < 4; j++) {
		int k = nb[j * N + i];
		float nx = nrm[(j * 3 + 0) * N + i], ny = nrm[(j * 3 + 1) * N + i], nz = nrm[(j * 3 + 2) * N + i];
		float nl = sqrtf(nx * nx + ny * ny + nz * nz);
		if (k >= 0) {
			float dn = vars[k], en = vars[4 * N + k] + 20.0f, mxn = vars[N + k], myn = vars[2 * N + k], mzn = vars[3 * N + k];
			float spn = (mxn * mxn + myn * myn + mzn * mzn) / (dn * dn), pn = 0.4f * (en - 0.5f * dn * spn);
			float cn = sqrtf(1.4f * pn / dn), f = -nl * 0.2f * 0.5f * (sqrtf(sp2) + sqrtf(spn) + c + cn);
			fd += f * (d - dn); fe += f * (e - en); fx += f * (mx - mxn); fy += f * (my - myn); fz += f * (mz - mzn);
			fx += 0.5f * nx * (pr + pn); fy += 0.5f * ny * (pr + pn); fz += 0.5f * nz * (pr + pn);
		} else if (k == -1) {
			fx += nx * pr; fy += ny * pr; fz += nz * pr;
		} else {
			fd += 0.5f * nx; fe += 0.5f * ny * e; fx += nz * pr;
		}
	}
	fluxes[i] = fd; fluxes[N + i] = fx; fluxes[2 * N + i] = fy; fluxes[3 * N + i] = fz; fluxes[4 * N + i] = fe;
}

//@ lbm_step grid=1 block=64 | dst:f32[2432] check(1e-5) | src:f32[1216] rand(0.01,0.1) | flags:s32[64] rand(0,3)
extern "C" __global__ void lbm_step(float *dst, const float *src, const int *flags)
{
	/* Parboil lbm (D3Q19, structure of arrays, BGK collision, obstacle bounce-back) on 64 cells */
	const int N = 64;
	const int ex[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
	const int ey[19] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
	const int ez[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
	const int opp[19] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
	int c = threadIdx.x;
	float f[19], rho = 0, ux = 0, uy = 0, uz = 0;
	for (int q = 0; q < 19; q++) {
		f[q] = src[q * N + c];
		rho += f[q]; ux += ex[q] * f[q]; uy += ey[q] * f[q]; uz += ez[q] * f[q];
	}
	if (flags[c] == 0) {   /* obstacle: bounce back */
		for (int q = 0; q < 19; q++) dst[19 * N + opp[q] * N + c] = f[q];   /* apart: no race with streaming */
		return;
	}
	ux /= rho; uy /= rho; uz /= rho;
	float u2 = 1.5f * (ux * ux + uy * uy + uz * uz), om = 1.95f;
	for (int q = 0; q < 19; q++) {
		float w = q == 0 ? 1.0f / 3 : q < 7 ? 1.0f / 18 : 1.0f / 36, eu = ex[q] * ux + ey[q] * uy + ez[q] * uz;
		float feq = w * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - u2);
		int to = (c + ex[q] + 4 * ey[q] + 16 * ez[q]) & 63;   /* streaming on a periodic 4x4x4 grid */
		dst[q * N + to] = (1.0f - om) * f[q] + om * feq;
	}
}

//@ particle_filter grid=1 block=128 | idx:s32[128] check | cdf:f32[128] check(1e-4) | w:f32[128] rand(0.1,1) | seed:s32[128] range(7,13)
extern "C" __global__ void particle_filter(int *idx, float *cdf, const float *w, const int *seed)
{
	/* Rodinia particlefilter: normalise weights, a CDF by a shared scan, LCG randoms, find_index by search */
	__shared__ float s[128], u0;
	int t = threadIdx.x;
	s[t] = w[t];
	__syncthreads();
	for (int d = 1; d < 128; d <<= 1) {
		float v = t >= d ? s[t - d] : 0;
		__syncthreads();
		s[t] += v;
		__syncthreads();
	}
	float total = s[127];
	cdf[t] = s[t] / total;
	if (t == 0) {
		long long x = (1103515245ll * seed[0] + 12345) % 2147483647ll;   /* the LCG of randu() */
		u0 = fabsf((float)(x / 2147483647.0)) / 128.0f;
	}
	__syncthreads();
	float u = u0 + t / 128.0f;
	int lo = 0, hi = 127;
	while (lo < hi) {
		int m = (lo + hi) >> 1;
		if (s[m] / total >= u) hi = m; else lo = m + 1;
	}
	idx[t] = lo;
}

__constant__ float4 atoms[16];
//@ cutcp grid=2 block=8,8 | grid_e:f32[128] check(1e-4)
extern "C" __global__ void cutcp(float *grid_e)
{
	/* Parboil cutcp: cutoff Coulomb potential at lattice points; atoms made in-kernel into shared */
	__shared__ float4 sa[16];
	int tx = threadIdx.x, ty = threadIdx.y, t = ty * 8 + tx;
	if (t < 16) sa[t] = make_float4((t * 37 % 16) * 0.5f, (t * 11 % 16) * 0.5f, 0.25f * blockIdx.x, (t & 1) ? 1.0f : -0.5f);
	__syncthreads();
	float x = tx * 1.0f, y = ty * 1.0f, z = 0.5f + blockIdx.x, e = 0, cut2 = 25.0f;
	for (int a = 0; a < 16; a++) {
		float dx = sa[a].x - x, dy = sa[a].y - y, dz = sa[a].z - z, r2 = dx * dx + dy * dy + dz * dz;
		if (r2 < cut2) {
			float s = 1.0f - r2 / cut2;
			e += sa[a].w * rsqrtf(r2 + 0.01f) * s * s;
		}
	}
	grid_e[blockIdx.x * 64 + t] = e;
}

//@ sad_mb grid=1 block=64 | sads:u32[64] check | cur:u8[256] rand(0,255) | ref:u8[1024] rand(0,255)
extern "C" __global__ void sad_mb(unsigned *sads, const unsigned char *cur, const unsigned char *ref)
{
	/* Parboil sad: the SAD of a 16x16 block against 64 candidate offsets, 4 pixels at a time (__vsadu4) */
	int t = threadIdx.x, ox = t & 7, oy = t >> 3;
	unsigned s = 0;
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x += 4) {
			unsigned c = *(const unsigned *)&cur[y * 16 + x];
			const unsigned char *r = &ref[(y + oy) * 32 + x + ox];
			unsigned rv = r[0] | r[1] << 8 | r[2] << 16 | (unsigned)r[3] << 24;
			s += __vsadu4(c, rv);
		}
	sads[t] = s;
}
