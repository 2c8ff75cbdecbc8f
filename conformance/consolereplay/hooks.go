package consolereplay

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Hook changes the database before a scenario or an exchange, as the
// recorder (or a held-back scenario) did at that point.
type Hook struct {
	Why string // what it reproduces and the evidence, shown when it fails
	Run func(ctx context.Context, db *DB) error
}

// addUser inserts a user the recorder added by SQL, with an explicit id
// (the ids are the same in every language: 60–63).
func addUser(id int, name, password, permission, why string) Hook {
	return Hook{Why: why, Run: func(ctx context.Context, db *DB) error {
		return insertUser(ctx, db, id, name, md5Hex(password), 0, permission)
	}}
}

// addUser342 is addUser for the 3.4.2 tables (SHA-256 password hash).
func addUser342(id int, name, password, permission, why string) Hook {
	return Hook{Why: why, Run: func(ctx context.Context, db *DB) error {
		return insertUser(ctx, db, id, name, sha256Hex(password), 0, permission)
	}}
}

// emptyGroup50 is the group jobgroup_remove deletes in its "empty group"
// exchange (id=50); no list shows it, so its other columns are free.
var emptyGroup50 = Hook{
	Why: "jobgroup_remove[1] removes group 50, which no earlier list shows: inserted by the recorder just before",
	Run: func(ctx context.Context, db *DB) error {
		return insertGroup(ctx, db, 50, "rec-empty", "空组", 0, nil, db.Time(db.now()))
	},
}

// group4Touched reproduces a held-back scenario that saved group 4
// unchanged: only its update_time moved (jobgroup_save_validation[9] still
// shows the fixture time, jobgroup_remove[1] shows the scenario's time).
var group4Touched = Hook{
	Why: "held back: group 4 saved unchanged between jobgroup_save_validation and jobgroup_remove (update_time only)",
	Run: func(ctx context.Context, db *DB) error {
		return db.exec(ctx, db.sb.Update("xxl_job_group").Set("update_time", db.Time(db.now())).Where("id = ?", 4))
	},
}

// job7HandlerCleared reproduces a held-back job update: job 7 lost its
// executor handler (jobinfo_pageList shows "demoJobHandler",
// joblog_getJobsByGroup and every later list show "" and an update_time
// around jobinfo_start_stop; nothing else of the row changed).
var job7HandlerCleared = Hook{
	Why: "held back: job 7 updated with an empty executor handler, around jobinfo_start_stop",
	Run: func(ctx context.Context, db *DB) error {
		return db.exec(ctx, db.sb.Update("xxl_job_info").
			Set("executor_handler", "").Set("update_time", db.Time(db.now())).Where("id = ?", 7))
	},
}

// log20WithoutAddress is the log row joblog_logDetailCat[6] reads ("log row
// without executor address (inserted just before)"). No later list shows
// it; its status columns keep every monitor away from it.
var log20WithoutAddress = Hook{
	Why: "joblog_logDetailCat[6] reads log 20 without executor address, inserted by the recorder",
	Run: func(ctx context.Context, db *DB) error {
		return insertLog(ctx, db, logRow{id: 20, group: 2, job: 2, address: nil, triggerCode: 500,
			triggerMsg: "fixture trigger msg", alarm: 1}, db.now())
	},
}

// group4OldLogs are the rows joblog_clearLog deletes type by type: two each
// 40, 100, 200 and 400 days old (ids 100–107, from its db_after lists).
var group4OldLogs = Hook{
	Why: "joblog_clearLog inserts 2×40, 2×100, 2×200, 2×400 days old rows in group 4 (ids 100–107) before [0]",
	Run: func(ctx context.Context, db *DB) error {
		now := db.now()
		for i, days := range []int{40, 40, 100, 100, 200, 200, 400, 400} {
			if err := insertLog(ctx, db, group4Log(100+i, time.Duration(days)*24*time.Hour), now); err != nil {
				return err
			}
		}
		return nil
	},
}

// group4FreshLogs are the two rows type 5 (keep the newest 1000) must keep.
var group4FreshLogs = Hook{
	Why: "joblog_clearLog[8]: two fresh rows (ids 108, 109) inserted before this call",
	Run: func(ctx context.Context, db *DB) error {
		now := db.now()
		for _, id := range []int{108, 109} {
			if err := insertLog(ctx, db, group4Log(id, 0), now); err != nil {
				return err
			}
		}
		return nil
	},
}

// group4Log is a finished, successful row of group 4 (job id 0: the group
// has no jobs, and clearLog with jobId=0 does not filter on it).
func group4Log(id int, ago time.Duration) logRow {
	ok := "ok"
	return logRow{id: id, group: 4, job: 0, address: nil, ago: ago, triggerCode: 200, triggerMsg: "fixture trigger msg",
		handleCode: 200, handleMsg: &ok, handled: true, alarm: 1}
}

// normalUserJob reproduces the job a held-back scenario had normal1 add to
// group 2 ("normal user job", CRON 0 0 1 * * ?). Its id is the next job id:
// 15 where jobinfo_add ran (en, zh_CN), 9 in zh_TC.
func normalUserJob(id int) Hook {
	return Hook{
		Why: fmt.Sprintf("held back: normal1 added job %d 'normal user job' to group 2 after perm_normal_user_admin_only", id),
		Run: func(ctx context.Context, db *DB) error {
			return insertJob(ctx, db, job{id: id, group: 2, desc: "normal user job", schedType: "CRON",
				schedConf: "0 0 1 * * ?", handler: "demoJobHandler", glueType: "BEAN", added: db.Time(db.now())})
		},
	}
}

var (
	user60 = addUser(60, "gone1", "123456", "",
		"user_remove[1] removes user 60, absent from user_add[9]'s db_after: inserted just before")
	// pwduser changed its password to newpass1 in a held-back scenario
	// (perm_normal_user_admin_only[7] shows its hash fcccca75…, md5 of
	// newpass1; user_remove[1] does not list it yet).
	user61 = addUser(61, "pwduser", "newpass1", "2",
		"held back: user 61 pwduser (permission 2) whose password became newpass1, before perm_normal_user_admin_only")
	user62 = addUser(62, "spaceuser", "123456", " 2",
		"perm_permission_whitespace: user 62 spaceuser with permission ' 2' (its cookie)")
	user63 = addUser(63, "nogroups", "123456", "",
		"pages_user_without_groups: user 63 nogroups with an empty permission (its cookie)")
)

// runOnceSettled returns hooks for a scenario whose exchange trigger asks
// for a run once and whose exchange list shows the log: before trigger it
// notes the newest log id, before list it waits (at most 2 s) until a newer
// log row exists and no row is left without its trigger result. Run once
// is asynchronous in both admins: the 3.4.2 jar's trigger thread writes
// the row and its result within milliseconds, before the recorder's next
// request; ours queues the trigger and writes results in batches (up to
// 50 ms later), so a list asked for at once could miss the row. Against
// the jar the wait ends at once.
//
// The hooks are shared by every replay of the plan, and replays of several
// languages run at once: the noted id is kept per database.
func runOnceSettled(trigger, list int) map[int][]Hook {
	var mu sync.Mutex
	noted := map[*DB]int64{}
	note := Hook{Why: "note the newest log id before the run once", Run: func(ctx context.Context, db *DB) error {
		var id int64
		if err := db.SQL.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM xxl_job_log").Scan(&id); err != nil {
			return err
		}
		mu.Lock()
		noted[db] = id
		mu.Unlock()
		return nil
	}}
	wait := Hook{Why: "run once is asynchronous: wait until its log row and trigger result are written", Run: func(ctx context.Context, db *DB) error {
		mu.Lock()
		before := noted[db]
		mu.Unlock()
		deadline := time.Now().Add(2 * time.Second)
		for {
			var newer, open int
			err := db.SQL.QueryRowContext(ctx, "SELECT (SELECT count(1) FROM xxl_job_log WHERE id > ?), (SELECT count(1) FROM xxl_job_log WHERE trigger_code = 0)", before).Scan(&newer, &open)
			if err != nil {
				return err
			}
			if (newer > 0 && open == 0) || time.Now().After(deadline) {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
	}}
	return map[int][]Hook{trigger: {note}, list: {wait}}
}
