// Package openapi is the job management API under <ctx>/openapi/v1/: JSON
// endpoints for executor groups, jobs, logs, live executors, export and
// import, for deploy pipelines and infrastructure code, described by an
// OpenAPI 3 document served at <ctx>/openapi/v1/openapi.json.
//
// It adds no rules of its own: every change goes through core/jobs (the
// console's validation order and messages, schedule writes under the
// schedule lock), "run once" through the trigger door, log text and kill
// through jobs.Logs, export and import through core/transfer.
//
// Authentication is a bearer token (xxl.job.openapi.token), separate from
// the executors' access token; without one the API is off. The token acts
// as a console user (xxl.job.openapi.user) with that user's role and group
// permissions, read on every request; without one it acts as an admin.
package openapi
