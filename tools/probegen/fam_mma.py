"""fam_mma.py -- (to come)."""

def generate(g):
	pass
