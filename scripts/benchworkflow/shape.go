package main

// shape is a graph of nodes 1..n: parents[n] are node n's parents (none
// for the root).
type shape map[int][]int

// wfShape is the 10-node workflow of the throughput ladder: a fan-out of
// three after the root, a second fan-out, a fan-in of four and a last
// node after it (12 edges, 5 deep):
//
//	1 → 2, 3, 4;  2 → 5, 6;  3 → 7;  4 → 8;  5, 6, 7, 8 → 9;  9 → 10
var wfShape = shape{1: nil, 2: {1}, 3: {1}, 4: {1}, 5: {2}, 6: {2}, 7: {3}, 8: {4}, 9: {5, 6, 7, 8}, 10: {9}}

// childShape is the same ten jobs as child_jobid can wire them: a tree.
// A child job has one parent per trigger — child_jobid on each of 5, 6,
// 7 and 8 would run 9 (and 10 after it) four times a run, once per
// parent's success, never once after all four — so 9 hangs off 8 alone.
var childShape = shape{1: nil, 2: {1}, 3: {1}, 4: {1}, 5: {2}, 6: {2}, 7: {3}, 8: {4}, 9: {8}, 10: {9}}

// children inverts the shape: each node's children, for child_jobid.
func (s shape) children() map[int][]int {
	out := map[int][]int{}
	for n := 1; n <= len(s); n++ {
		for _, p := range s[n] {
			out[p] = append(out[p], n)
		}
	}
	return out
}

// edges counts the shape's edges.
func (s shape) edges() int {
	n := 0
	for _, ps := range s {
		n += len(ps)
	}
	return n
}
