// Package image checks the container image and its deployment examples
// (issue 15) where no container engine runs: it reads the OCI layout that
// `make image` writes with buildah (dist/oci), unpacks a platform's layers
// into a folder and runs the image's entrypoint there the way an engine
// would — chrooted, in a user namespace, as the image's user, with only the
// image's environment — against real MariaDB and a fake executor.
//
// The image tests run when XXL_TEST_IMAGE names the OCI layout; the
// Compose/Kubernetes checks against the Dockerfile always run.
package image
