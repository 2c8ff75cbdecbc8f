package galera

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestGaleraAbortedTxSendsNothing: a write committed through another node
// aborts a local transaction that holds a lock on the same row (Galera's
// brute-force abort). The local client learns it at its next statement,
// whatever it is, a plain read included, as error 1213, and the server
// has then rolled the transaction back and left the session in
// autocommit: what the client sends next is stored on its own and its
// COMMIT succeeds. That is how a workflow step that passed over a failed
// read of its workflow stored a node's trigger without the callback
// result it was decided from (issue 28). The first part records the
// server's behaviour on a bare connection; the second checks that the
// store sends nothing more in such a transaction and reports it as the
// conflict it is.
func TestGaleraAbortedTxSendsNothing(t *testing.T) {
	if os.Getenv(EnvGalera) == "" {
		t.Skip("[suite-off] " + EnvGalera + "=1 runs the 2-node Galera abort test (mariadb-server and galera-4; see .ci/packages.d/galera)")
	}
	if testing.Short() {
		t.Skip("starts a Galera cluster")
	}
	bins, err := FindBinaries()
	if err != nil {
		t.Fatalf("%s is set but the cluster cannot be built: %v", EnvGalera, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base, err := os.MkdirTemp("", "xxl-galera-abort-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	c, err := Start(ctx, bins, base, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	db := openCluster(t, ctx, c) // node 1: the aborted transactions
	group, jobs, err := db.Seed(ctx, 1, "127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	target, err := schema.ParseJDBC(c.JDBCURL(1, "xxl_job", zone), User, Password)
	if err != nil {
		t.Fatal(err)
	}
	node2, err := schema.Open(ctx, target, schema.PoolSettings{MaxOpen: 2, MaxIdle: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node2.Close() })
	rows := func() (locked, tail int64) {
		t.Helper()
		var ids []int64
		for range 2 {
			id, err := db.Store.LogSave(ctx, schema.JobLog{JobGroup: group, JobID: jobs[0], TriggerCode: 200})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if seen, err := node2.LogIDsCausal(ctx, ids); err != nil || len(seen) != 2 {
			t.Fatalf("node 2 sees %v of %v (%v)", seen, ids, err)
		}
		return ids[0], ids[1]
	}
	// abort has node 2 write the row locked on node 1 and waits until
	// node 1 applied it (its applier aborted the lock's holder first).
	abort := func(locked int64) {
		t.Helper()
		if ok, err := node2.LogUpdateAlarmStatus(ctx, locked, 0, 1); err != nil || !ok {
			t.Fatalf("write log %d through node 2: %v %v", locked, ok, err)
		}
		for deadline := time.Now().Add(30 * time.Second); ; {
			var status int
			if err := db.SQL.QueryRowContext(ctx, "SELECT alarm_status FROM xxl_job_log WHERE id = ?", locked).Scan(&status); err != nil {
				t.Fatal(err)
			}
			if status == 1 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("node 1 never applied node 2's write of log %d", locked)
			}
			time.Sleep(5 * time.Millisecond) // no event to wait on: the applier
		}
	}
	handleCode := func(id int64) int {
		t.Helper()
		var code int
		if err := db.SQL.QueryRowContext(ctx, "SELECT handle_code FROM xxl_job_log WHERE id = ?", id).Scan(&code); err != nil {
			t.Fatal(err)
		}
		return code
	}

	t.Run("server", func(t *testing.T) {
		locked, tail := rows()
		tx, err := db.SQL.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		var id int64
		if err := tx.QueryRowContext(ctx, "SELECT id FROM xxl_job_log WHERE id = ? FOR UPDATE", locked).Scan(&id); err != nil {
			t.Fatal(err)
		}
		abort(locked)
		var one int
		readErr := tx.QueryRowContext(ctx, "SELECT 1 FROM xxl_job_group WHERE id = ?", group).Scan(&one)
		_, writeErr := tx.ExecContext(ctx, "UPDATE xxl_job_log SET handle_code = 500 WHERE id = ?", tail)
		commitErr := tx.Commit()
		t.Logf("plain read after the abort: %v; write after it: %v; commit: %v; the write stored: %v",
			readErr, writeErr, commitErr, handleCode(tail) == 500)
		if !schema.IsConflict(readErr) {
			t.Errorf("plain read after the abort: %v, want error 1213", readErr)
		}
		if writeErr != nil || commitErr != nil || handleCode(tail) != 500 {
			t.Errorf("the write after the abort was not stored on its own (write %v, commit %v): "+
				"the server no longer autocommits after an abort, which this test documents", writeErr, commitErr)
		}
	})

	t.Run("store", func(t *testing.T) {
		locked, tail := rows()
		var readErr error
		err := db.Store.WithTx(ctx, func(tx *schema.Store) error {
			if _, err := tx.LogLoadManyForUpdate(ctx, []int64{locked}); err != nil {
				return err
			}
			abort(locked)
			_, readErr = tx.LogLoad(ctx, tail) // the error passed over
			_, _ = tx.LogFinish(ctx, schema.JobLog{ID: tail, HandleCode: 500})
			return nil
		})
		if !schema.IsConflict(readErr) {
			t.Errorf("plain read after the abort: %v, want error 1213", readErr)
		}
		if !errors.Is(err, schema.ErrTxRolledBack) || !schema.IsConflict(err) {
			t.Errorf("transaction: %v, want ErrTxRolledBack (a conflict)", err)
		}
		if code := handleCode(tail); code != 0 {
			t.Errorf("log %d: handle_code %d after the aborted transaction, want 0 (nothing of it stored)", tail, code)
		}
	})
}
