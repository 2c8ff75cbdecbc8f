// Package transfer moves executor groups and jobs between databases: the
// versioned JSON document (format.go), export from a store and import
// through the job service, for the `jobs export|import` command, the
// console and the job API alike.
//
// It is a package of its own rather than part of core/jobs because the
// document — its versioning, the references between jobs that replace
// database ids, the report of what an import changed — is a concept the
// three surfaces share and the job service does not need; the service keeps
// the rules for one job (validation, identity, the schedule lock) and an
// import is a batch of its applies.
package transfer
