// adamw_f32 -- one AdamW step: moments, bias correction, decoupled weight decay.
extern "C" __global__ void adamw_f32(float *p, const float *g, float *m, float *v, float lr, float b1, float b2,
				     float eps, float wd, float bc1, float bc2, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float gi = g[i], mi = b1 * m[i] + (1.0f - b1) * gi, vi = b2 * v[i] + (1.0f - b2) * gi * gi;
		float mh = mi / bc1, vh = vi / bc2;
		m[i] = mi;
		v[i] = vi;
		p[i] = p[i] - lr * (mh / (sqrtf(vh) + eps) + wd * p[i]);
	}
}
