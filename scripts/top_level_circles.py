#!/usr/bin/env python3
"""Top-level modules of src/ that reference each other (a pair X -> Y and Y -> X, or a
longer loop), counting every `crate::X` path (grouped `crate::{X, ..}` too) and every
`super::` path that climbs out of a top-level module, doc comments and links included
(`--code` leaves comments out).
usage: top_level_circles.py [--code] [SRC_DIR]   prints each pair and loop, then 'circles: N'."""
import os, re, sys

args = [a for a in sys.argv[1:] if a != '--code']
code_only = '--code' in sys.argv[1:]
src = args[0] if args else 'src'
path_re = re.compile(r'\b(crate|super)((?:::(?:[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\}))+)')
word_re = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


def top_of(rel):
    """The top-level module of a file's path relative to src (None for lib.rs/main.rs)."""
    first = rel[0]
    if len(rel) == 1:
        first = first[:-3]
        return None if first in ('lib', 'main') else first
    return first


def module_path(rel):
    """The module path of a file: src/a/b.rs -> [a, b], src/a/mod.rs -> [a]."""
    parts = [p[:-3] if p.endswith('.rs') else p for p in rel]
    return parts[:-1] if parts[-1] == 'mod' else parts


tops, edges = set(), {}
for root, _, names in os.walk(src):
    for n in names:
        if not n.endswith('.rs'):
            continue
        p = os.path.join(root, n)
        rel = os.path.relpath(p, src).split(os.sep)
        top = top_of(rel)
        if top is None:
            continue
        tops.add(top)
        text = open(p, encoding='utf-8', errors='replace').read()
        if code_only:
            text = re.sub(r'//[^\n]*', '', text)
        here = module_path(rel)
        for kind, rest in path_re.findall(text):
            segs = re.findall(r'\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*', rest)
            if kind == 'crate':
                base = []
            else:
                base = here[:-1]
                while segs and segs[0] == 'super':
                    base, segs = base[:-1], segs[1:]
            if base:
                targets = [base[0]]
            elif segs and segs[0].startswith('{'):
                targets = word_re.findall(segs[0])
            elif segs:
                targets = [segs[0]]
            else:
                targets = []
            for t in targets:
                if t != top and t not in ('self',):
                    edges.setdefault(top, {}).setdefault(t, p)

known = tops
pairs = []
for x in sorted(edges):
    for y in sorted(edges[x]):
        if y in known and x < y and x in edges.get(y, {}):
            pairs.append((x, y))
            print(f'pair: {x} -> {y} ({edges[x][y]}), {y} -> {x} ({edges[y][x]})')

# longer loops: strongly connected components of the top-level graph
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in edges.get(v, {}):
        if w not in known:
            continue
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
for v in sorted(known):
    if v not in index:
        strong(v)
for comp in sccs:
    print('circle: ' + ' <-> '.join(comp))
print(f'circles: {len(sccs)}')
