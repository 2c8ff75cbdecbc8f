package workflow

import (
	"fmt"
	"slices"
	"strings"
)

// index is a graph's adjacency, by node id.
type index struct {
	nodes    map[int]Node
	parents  map[int][]int
	children map[int][]int
}

func indexOf(g Graph) index {
	ix := index{nodes: make(map[int]Node, len(g.Nodes)), parents: map[int][]int{}, children: map[int][]int{}}
	for _, n := range g.Nodes {
		ix.nodes[n.ID] = n
	}
	for _, e := range g.Edges {
		ix.parents[e.To] = append(ix.parents[e.To], e.From)
		ix.children[e.From] = append(ix.children[e.From], e.To)
	}
	return ix
}

// Parents returns each node's parents, by node id.
func (g Graph) Parents() map[int][]int { return indexOf(g).parents }

// Children returns each node's children, by node id.
func (g Graph) Children() map[int][]int { return indexOf(g).children }

// Roots are the nodes without parents, in the order of Nodes.
func (g Graph) Roots() []int {
	ix := indexOf(g)
	var out []int
	for _, n := range g.Nodes {
		if len(ix.parents[n.ID]) == 0 {
			out = append(out, n.ID)
		}
	}
	return out
}

// Node returns the node of the given id.
func (g Graph) Node(id int) (Node, bool) {
	for _, n := range g.Nodes {
		if n.ID == id {
			return n, true
		}
	}
	return Node{}, false
}

// findCycle returns the nodes of a cycle, first node repeated at the end
// (nil when the graph is a DAG): an iterative depth-first search, so that
// a long chain does not grow the stack, linear in nodes and edges.
func (ix index) findCycle(order []int) []int {
	const (
		white = iota
		grey
		black
	)
	color := make(map[int]int, len(order))
	type frame struct{ node, next int }
	for _, start := range order {
		if color[start] != white {
			continue
		}
		stack := []frame{{node: start}}
		color[start] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			kids := ix.children[top.node]
			if top.next == len(kids) {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			kid := kids[top.next]
			top.next++
			switch color[kid] {
			case white:
				color[kid] = grey
				stack = append(stack, frame{node: kid})
			case grey: // kid is on the stack: the cycle is its part from kid on
				var cycle []int
				for i := len(stack) - 1; i >= 0; i-- {
					cycle = append(cycle, stack[i].node)
					if stack[i].node == kid {
						break
					}
				}
				slices.Reverse(cycle)
				return append(cycle, kid)
			}
		}
	}
	return nil
}

// describe names a node for messages: its id, label and job.
func (ix index) describe(id int) string {
	n := ix.nodes[id]
	if n.Label != "" {
		return fmt.Sprintf("%d %q (job %d)", id, n.Label, n.JobID)
	}
	return fmt.Sprintf("%d (job %d)", id, n.JobID)
}

// describePath names a cycle's nodes joined by arrows.
func (ix index) describePath(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = ix.describe(id)
	}
	return strings.Join(parts, " → ")
}

// topological orders the nodes so that every node comes after its
// parents (Kahn's algorithm; the graph is a DAG, validated at save).
func (ix index) topological(g Graph) []int {
	indegree := make(map[int]int, len(g.Nodes))
	for _, e := range g.Edges {
		indegree[e.To]++
	}
	var order, queue []int
	for _, n := range g.Nodes {
		if indegree[n.ID] == 0 {
			queue = append(queue, n.ID)
		}
	}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		order = append(order, id)
		for _, c := range ix.children[id] {
			if indegree[c]--; indegree[c] == 0 {
				queue = append(queue, c)
			}
		}
	}
	return order
}
