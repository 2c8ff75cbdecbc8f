// Package galera runs admins on a 3-node MariaDB Galera cluster (multi-
// primary, synchronous replication) on loopback, one admin per node, and
// checks that no job fires twice in a planned second while a node is
// SIGKILLed and rejoins (docs/topologies.md). The cluster is
// started by the test itself, on its own data directories and ports.
package galera
