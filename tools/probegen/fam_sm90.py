"""fam_sm90.py -- (to come)."""

def generate(g):
	pass
