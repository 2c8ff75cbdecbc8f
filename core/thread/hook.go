package thread

import (
	"context"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// FinishHook sees the logs the completer finished (callbacks, the
// lost-job monitor, Finish), inside the transaction that stores their
// results, so what it decides commits with them or not at all; the
// triggers it returns must be stored as pending rows in that transaction
// (trigger.Durable) and are submitted after the commit. core/workflow's
// engine is one: a node's outcome moves its workflow run along.
type FinishHook interface {
	Finished(ctx context.Context, tx *schema.Store, logs []schema.JobLog) ([]trigger.Request, error)
}
