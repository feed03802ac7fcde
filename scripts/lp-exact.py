#!/usr/bin/env python3
"""The exact LP optimum of a total exchange on an edge list, to measure how
close txverify's LP bound comes (docs/schedules-any.md, "The LP bound").

The least C such that every ordered pair (s, t) sends one unit, split over
any paths, with at most C units on each directed link: variables f[s, e]
(the flow from source s on directed link e) and C; for every source s and
node v != s, inflow - outflow of f[s, .] at v is 1; for every link e,
sum_s f[s, e] <= C. By duality its optimum is the best ratio
sum d_w / sum w over all weights w >= 0, which txverify's bound approaches.

Usage: python3 scripts/lp-exact.py FILE.edges...   (needs numpy and scipy)
Prints: file, nodes, the optimum C, seconds.
"""
import sys
import time

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix


def read_edges(path):
    edges = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                edges.append((int(line[0]), int(line[1])))
    n = 1 + max(max(e) for e in edges)
    links = edges + [(v, u) for (u, v) in edges]
    return n, links


def optimum(n, links):
    m = len(links)
    nvar = n * m + 1  # f[s, e] at s * m + e, then C
    rows, cols, vals, rhs = [], [], [], []
    r = 0
    for s in range(n):
        index = {}
        for v in range(n):
            if v != s:
                index[v] = r
                rhs.append(1.0)
                r += 1
        for e, (u, v) in enumerate(links):
            if v != s:
                rows.append(index[v]); cols.append(s * m + e); vals.append(1.0)
            if u != s:
                rows.append(index[u]); cols.append(s * m + e); vals.append(-1.0)
    a_eq = coo_matrix((vals, (rows, cols)), shape=(r, nvar)).tocsr()
    rows, cols, vals = [], [], []
    for e in range(m):
        for s in range(n):
            rows.append(e); cols.append(s * m + e); vals.append(1.0)
        rows.append(e); cols.append(n * m); vals.append(-1.0)
    a_ub = coo_matrix((vals, (rows, cols)), shape=(m, nvar)).tocsr()
    c = np.zeros(nvar)
    c[-1] = 1.0
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(m), A_eq=a_eq, b_eq=np.array(rhs),
                  bounds=(0, None), method="highs")
    if res.status != 0:
        raise SystemExit(f"LP failed: {res.message}")
    return res.fun


for path in sys.argv[1:]:
    n, links = read_edges(path)
    start = time.time()
    value = optimum(n, links)
    print(f"{path}\t{n}\t{value:.4f}\t{time.time() - start:.1f}")
