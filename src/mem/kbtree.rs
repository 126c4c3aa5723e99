//! klib's B-tree (kbtree.h, as bwa 0.7.17 bundles it) holding bwa mem's chains keyed by
//! position, ported node for node: chains with equal positions are allowed, and which of
//! them a look-up finds and the order a traversal visits them in depend on the tree's
//! shape, so the shape is bwa's (`KB_DEFAULT_SIZE` 512 over bwa's 40-byte `mem_chain_t`:
//! t = 5, nodes of up to 9 keys) and so are insertion, splitting and look-up.

/// A key: a chain's position and its id (the index the caller keeps the chain at).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The position keys are ordered by (bwa's `chain_cmp`).
    pub pos: i64,
    /// The caller's chain.
    pub id: usize,
}

/// bwa's `t`: a node holds at most `2t - 1` keys.
const T: usize = 5;
/// The most keys a node holds.
const FULL: usize = 2 * T - 1;

/// A node: its keys and, if internal, its `keys.len() + 1` children.
#[derive(Default)]
struct Node {
    keys: Vec<Key>,
    kids: Vec<usize>,
    internal: bool,
}

/// The tree (`kbtree_t(chn)`), nodes in an arena.
pub struct KbTree {
    nodes: Vec<Node>,
    root: usize,
    len: usize,
}

impl Default for KbTree {
    fn default() -> KbTree {
        KbTree {
            nodes: vec![Node::default()],
            root: 0,
            len: 0,
        }
    }
}

/// `__kb_getp_aux`: the index of the last key `<= pos` in `keys` (the first equal one
/// where there is one; -1 where none), and whether it equals `pos`.
fn getp_aux(keys: &[Key], pos: i64) -> (isize, bool) {
    if keys.is_empty() {
        return (-1, false);
    }
    let (mut begin, mut end) = (0, keys.len());
    while begin < end {
        let mid = (begin + end) >> 1;
        if keys[mid].pos < pos {
            begin = mid + 1;
        } else {
            end = mid;
        }
    }
    if begin == keys.len() {
        return (begin as isize - 1, false);
    }
    let equal = keys[begin].pos == pos;
    match pos < keys[begin].pos {
        true => (begin as isize - 1, false),
        false => (begin as isize, equal),
    }
}

impl KbTree {
    /// The number of keys (`kb_size`).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the tree is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The closest key at or before `pos` (`kb_intervalp`'s `lower`): where keys equal
    /// `pos`, the one bwa finds.
    pub fn lower(&self, pos: i64) -> Option<Key> {
        let mut lower = None;
        let mut x = self.root;
        loop {
            let node = &self.nodes[x];
            let (i, equal) = getp_aux(&node.keys, pos);
            if i >= 0 {
                lower = Some(node.keys[i as usize]);
                if equal {
                    return lower;
                }
            }
            if !node.internal {
                return lower;
            }
            x = node.kids[(i + 1) as usize];
        }
    }

    /// Inserts `key` (`kb_putp`), after any equal key bwa would put it after.
    pub fn insert(&mut self, key: Key) {
        self.len += 1;
        let mut r = self.root;
        if self.nodes[r].keys.len() == FULL {
            let s = self.nodes.len();
            self.nodes.push(Node {
                keys: Vec::new(),
                kids: vec![r],
                internal: true,
            });
            self.root = s;
            self.split(s, 0);
            r = s;
        }
        self.insert_below(r, key);
    }

    /// `__kb_putp_aux`.
    fn insert_below(&mut self, mut x: usize, key: Key) {
        loop {
            let (i, _) = getp_aux(&self.nodes[x].keys, key.pos);
            if !self.nodes[x].internal {
                self.nodes[x].keys.insert((i + 1) as usize, key);
                return;
            }
            let mut i = (i + 1) as usize;
            let kid = self.nodes[x].kids[i];
            if self.nodes[kid].keys.len() == FULL {
                self.split(x, i);
                if key.pos > self.nodes[x].keys[i].pos {
                    i += 1;
                }
            }
            x = self.nodes[x].kids[i];
        }
    }

    /// `__kb_split`: the full child `i` of `x` split in two around its middle key,
    /// which moves up into `x` at `i`.
    fn split(&mut self, x: usize, i: usize) {
        let y = self.nodes[x].kids[i];
        let keys = self.nodes[y].keys.split_off(T);
        let kids = match self.nodes[y].internal {
            true => self.nodes[y].kids.split_off(T),
            false => Vec::new(),
        };
        let middle = self.nodes[y].keys.pop().expect("a full node");
        let z = self.nodes.len();
        let internal = self.nodes[y].internal;
        self.nodes.push(Node {
            keys,
            kids,
            internal,
        });
        self.nodes[x].kids.insert(i + 1, z);
        self.nodes[x].keys.insert(i, middle);
    }

    /// The keys in order (`__kb_traverse`: in order, equal keys as the tree holds them).
    pub fn in_order(&self) -> Vec<Key> {
        let mut out = Vec::with_capacity(self.len);
        self.visit(self.root, &mut out);
        out
    }

    /// Appends the keys under node `x` in order.
    fn visit(&self, x: usize, out: &mut Vec<Key>) {
        let node = &self.nodes[x];
        for (i, key) in node.keys.iter().enumerate() {
            if node.internal {
                self.visit(node.kids[i], out);
            }
            out.push(*key);
        }
        if node.internal {
            self.visit(node.kids[node.keys.len()], out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In order by position; `lower` finds the closest key at or before a position.
    #[test]
    fn keys_come_out_sorted_and_lower_finds_the_closest() {
        let mut tree = KbTree::default();
        let mut state = 11u64;
        for id in 0..500 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tree.insert(Key {
                pos: (state >> 54) as i64,
                id,
            });
        }
        let keys = tree.in_order();
        assert_eq!(keys.len(), 500);
        assert!(keys.windows(2).all(|w| w[0].pos <= w[1].pos));
        for probe in -1..1100 {
            let want = keys.iter().rev().find(|k| k.pos <= probe).map(|k| k.pos);
            assert_eq!(tree.lower(probe).map(|k| k.pos), want, "probe {probe}");
        }
    }
}
