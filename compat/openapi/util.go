package openapi

import (
	"errors"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

func isNotFound(err error) bool { return errors.Is(err, schema.ErrNotFound) }

func isNoRow(err error) bool { return errors.Is(err, jobs.ErrNoRow) }

func itoa(n int) string { return strconv.Itoa(n) }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
