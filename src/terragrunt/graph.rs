//! Cycles in a directed graph, in time linear in its size: Tarjan's strongly connected
//! components with an explicit stack (a 100,000-node chain does not overflow anything), then
//! one cycle per component by a breadth-first search inside it.

use std::collections::VecDeque;

/// A directed graph: `edges[v]` holds (target, edge id) pairs.
#[derive(Debug, Default, Clone)]
pub(crate) struct Digraph {
    pub(crate) edges: Vec<Vec<(usize, usize)>>,
}

impl Digraph {
    pub(crate) fn new(nodes: usize) -> Digraph {
        Digraph {
            edges: vec![Vec::new(); nodes],
        }
    }

    pub(crate) fn add(&mut self, from: usize, to: usize, id: usize) {
        self.edges[from].push((to, id));
    }

    /// The strongly connected components that hold a cycle (more than one node, or a node with
    /// an edge to itself), each sorted, in order of their smallest node.
    pub(crate) fn cyclic_components(&self) -> Vec<Vec<usize>> {
        const UNSEEN: usize = usize::MAX;
        let n = self.edges.len();
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        // (node, position of the next edge to look at).
        let mut calls: Vec<(usize, usize)> = Vec::new();
        let mut counter = 0;
        let mut out = Vec::new();
        for start in 0..n {
            if index[start] != UNSEEN {
                continue;
            }
            index[start] = counter;
            low[start] = counter;
            counter += 1;
            stack.push(start);
            on_stack[start] = true;
            calls.push((start, 0));
            while let Some(&mut (v, ref mut next)) = calls.last_mut() {
                if let Some(&(w, _)) = self.edges[v].get(*next) {
                    *next += 1;
                    if index[w] == UNSEEN {
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = component.len() > 1 || self.edges[v].iter().any(|&(w, _)| w == v);
                    if cyclic {
                        component.sort_unstable();
                        out.push(component);
                    }
                }
            }
        }
        out.sort_unstable_by_key(|c| c[0]);
        out
    }

    /// A cycle through `start` inside `component` (sorted), as edge ids in order, or `None` when
    /// `start` is on no cycle of the component. Breadth-first, so the cycle is a shortest one.
    pub(crate) fn cycle_through(&self, start: usize, component: &[usize]) -> Option<Vec<usize>> {
        let inside = |v: usize| component.binary_search(&v).is_ok();
        // For each reached node: (previous node, edge id) on the way from `start`.
        let mut previous: std::collections::HashMap<usize, (usize, usize)> =
            std::collections::HashMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            for &(w, id) in &self.edges[v] {
                if w == start {
                    let mut path = vec![id];
                    let mut at = v;
                    while at != start {
                        let (before, edge) = previous[&at];
                        path.push(edge);
                        at = before;
                    }
                    path.reverse();
                    return Some(path);
                }
                if inside(w) && !previous.contains_key(&w) {
                    previous.insert(w, (v, id));
                    queue.push_back(w);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Digraph {
        let mut g = Digraph::new(n);
        for (id, &(a, b)) in edges.iter().enumerate() {
            g.add(a, b, id);
        }
        g
    }

    #[test]
    fn components_and_cycles() {
        let g = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 3), (4, 5)]);
        assert_eq!(g.cyclic_components(), vec![vec![0, 1, 2], vec![3]]);
        assert_eq!(g.cycle_through(0, &[0, 1, 2]), Some(vec![0, 1, 2]));
        assert_eq!(g.cycle_through(3, &[3]), Some(vec![4]));
        assert!(graph(3, &[(0, 1), (1, 2)]).cyclic_components().is_empty());
    }

    #[test]
    fn long_chains_do_not_overflow_and_stay_linear() {
        let n = 200_000;
        let mut edges: Vec<(usize, usize)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        let g = graph(n, &edges);
        assert!(g.cyclic_components().is_empty());
        edges.push((n - 1, 0));
        let g = graph(n, &edges);
        let components = g.cyclic_components();
        assert_eq!(components.len(), 1);
        assert_eq!(components[0].len(), n);
        let cycle = g.cycle_through(0, &components[0]).expect("a cycle");
        assert_eq!(cycle.len(), n);
    }
}
