package browser_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// Per-job time zones in both consoles (docs/job-time-zones.md), on a
// database with the xxl_job_info.schedule_timezone column and our admin in
// Asia/Shanghai: the add form's time zone field defaults to the admin's
// zone (empty, its placeholder naming it) and suggests the browser's IANA
// zones; a zone given is stored, shown in the list, kept by edit and copy,
// changed by edit, refused with the server's message when it is no IANA
// id; the next trigger times of a zoned job are its zone's wall times.

// zonePage drives one console's job list.
type zonePage struct {
	open    func()          // the job list of group 2, loaded
	add     func()          // opens the add form
	edit    func(id string) // opens the edit form of a job
	copy    func(id string) // opens the copy form of a job
	next    func(id string) // opens the next trigger times of a job
	reload  func()          // waits for the list's reload after a save
	cellOf  func(id string) string
	hasZone func() bool // the form has the time zone field
}

// zoneFlow runs the checks on a console whose database has the column.
func zoneFlow(t *testing.T, tb *browser.Tab, db *consolereplay.DB, p zonePage) {
	p.open()
	if !p.hasZone() {
		t.Fatal("no time zone field on a database with the column")
	}
	if got := tb.Str(`document.getElementById('xj-f-zone').placeholder`); !strings.Contains(got, "(CST +08:00)") {
		t.Errorf("placeholder %q does not name the admin's zone", got)
	}
	if n := tb.Str(`String(document.querySelectorAll('#xj-zones option').length)`); len(n) < 3 {
		t.Errorf("%s zones suggested", n)
	}
	if tb.Str(`String(!!document.querySelector('#xj-zones option[value="America/New_York"]'))`) != "true" {
		t.Error("America/New_York is not suggested")
	}

	t.Run("add", func(t *testing.T) {
		tb.T = t
		p.add()
		if got := tb.Str(`document.getElementById('xj-f-zone').value`); got != "" {
			t.Errorf("a new job's zone is %q, want the admin's (empty)", got)
		}
		tb.Set(`#xj-f-desc`, "market open")
		tb.Set(`#xj-f-author`, "ops")
		tb.Set(`#xj-f-cron`, "0 0 9 * * ?")
		tb.Set(`#xj-f-handler`, "marketOpen")
		tb.Set(`#xj-f-zone`, "America/New York") // not an IANA id: the server's refusal
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); !strings.HasPrefix(got, "Time Zoneillegal: ") ||
			!strings.HasSuffix(got, "[America/New York]") {
			t.Errorf("refusal shown as %q", got)
		}
		tb.Confirm()
		tb.Set(`#xj-f-zone`, "America/New_York")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		p.reload()
		if got := one[string](t, db, `SELECT schedule_timezone FROM xxl_job_info WHERE job_desc = 'market open'`); got != "America/New_York" {
			t.Errorf("stored zone %q", got)
		}
	})
	id := itoa(one[int64](t, db, `SELECT id FROM xxl_job_info WHERE job_desc = 'market open'`))
	if got := p.cellOf(id); got != "CRON：0 0 9 * * ? (America/New_York)" {
		t.Errorf("list shows %q", got)
	}

	t.Run("edit", func(t *testing.T) {
		tb.T = t
		p.edit(id)
		if got := tb.Str(`document.getElementById('xj-f-zone').value`); got != "America/New_York" {
			t.Errorf("edit form zone %q", got)
		}
		tb.Set(`#xj-f-zone`, "Europe/Berlin")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		p.reload()
		if got := one[string](t, db, `SELECT schedule_timezone FROM xxl_job_info WHERE id = ?`, id); got != "Europe/Berlin" {
			t.Errorf("edited zone %q", got)
		}
	})

	t.Run("copy", func(t *testing.T) {
		tb.T = t
		p.copy(id)
		if got := tb.Str(`document.getElementById('xj-f-zone').value`); got != "Europe/Berlin" {
			t.Errorf("copy form zone %q", got)
		}
		tb.Set(`#xj-f-desc`, "market open copy")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		p.reload()
		if got := one[string](t, db, `SELECT schedule_timezone FROM xxl_job_info WHERE job_desc = 'market open copy'`); got != "Europe/Berlin" {
			t.Errorf("copied zone %q", got)
		}
	})

	t.Run("next trigger times in the job's zone", func(t *testing.T) {
		tb.T = t
		p.next(id)
		tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-next-times li').length === 5`)
		var times []string
		tb.Run(`Array.prototype.map.call(document.querySelectorAll('.xj-dialog.in .xj-next-times li'), function (li) { return li.textContent; })`, &times)
		tb.Confirm()
		wall := regexp.MustCompile(`^\d{4}-\d\d-\d\d 09:00:00 CES?T$`)
		for _, s := range times {
			if !wall.MatchString(s) {
				t.Errorf("next times %q: want 09:00 Berlin time", times)
				break
			}
		}
	})

	t.Run("back to the admin's zone", func(t *testing.T) {
		tb.T = t
		p.edit(id)
		tb.Set(`#xj-f-zone`, "")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		p.reload()
		if got := one[*string](t, db, `SELECT schedule_timezone FROM xxl_job_info WHERE id = ?`, id); got != nil {
			t.Errorf("zone %q, want NULL", *got)
		}
		if got := p.cellOf(id); got != "CRON：0 0 9 * * ?" {
			t.Errorf("list shows %q", got)
		}
	})
	tb.Clean("time zone flows")
}

func addZoneColumn(t *testing.T, db *consolereplay.DB) {
	t.Helper()
	if _, err := db.SQL.ExecContext(t.Context(), schema.AddScheduleTimezoneSQL(schema.SQLite)); err != nil {
		t.Fatal(err)
	}
}

// TestJobZones runs the flow on the 2.4.2 console.
func TestJobZones(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	url, db := newDB(t)
	executor := consolereplay.StartFakeExecutor()
	t.Cleanup(executor.Close)
	if err := (consolereplay.Fixture{At: time.Now(), Executor: executor.Address()}).Load(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	addZoneColumn(t, db)
	base := runAdmin(t, url, "en").base
	tb := browser.NewTab(t, b, 3*time.Minute)
	login(tb, base, "admin", "123456")
	rows := `#xj-job-list tbody tr`
	draws := 0
	inJob := func(id, sel string) {
		tb.T.Helper()
		tb.Run(`(function () {
			var r = Array.prototype.filter.call(document.querySelectorAll('`+rows+`'), function (r) { return r.cells[1] && r.cells[1].textContent === `+quote(id)+`; })[0];
			r.querySelector(`+quote(sel)+`).click(); return true; })()`, nil)
	}
	zoneFlow(t, tb, db, zonePage{
		open: func() {
			tb.Open(base + "/jobinfo?jobGroup=2")
			tb.Wait(`document.querySelectorAll('` + rows + ` .btn-group').length === 4`)
			// every save redraws the list once: count the draws
			tb.Run(`window.xjDraws = 0, jQuery('#xj-job-list').on('draw.dt', function () { window.xjDraws++; }), true`, nil)
			draws = 0
		},
		add: func() { tb.Click(`#xj-add`); tb.Shown(`#xj-job-modal`) },
		edit: func(id string) {
			inJob(id, ".xj-edit")
			tb.Shown(`#xj-job-modal`)
		},
		copy: func(id string) {
			inJob(id, ".xj-copy")
			tb.Shown(`#xj-job-modal`)
		},
		next: func(id string) { inJob(id, ".xj-next-time") },
		reload: func() {
			draws++
			tb.Wait(`window.xjDraws >= ` + itoa(int64(draws)))
		},
		cellOf: func(id string) string {
			return tb.Str(`(function () {
				var r = Array.prototype.filter.call(document.querySelectorAll('` + rows + `'), function (r) { return r.cells[1] && r.cells[1].textContent === ` + quote(id) + `; })[0];
				return r ? r.cells[3].textContent : 'no row'; })()`)
		},
		hasZone: func() bool { return tb.Str(`String(!!document.getElementById('xj-f-zone'))`) == "true" },
	})
}

// TestJobZones34 runs the flow on the 3.4.2 console.
func TestJobZones34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	url, db := newDB34(t)
	exec := startExecutor34(t)
	if err := (consolereplay.Fixture342{At: time.Now(), Executor: exec.address()}).Load(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	addZoneColumn(t, db)
	a := runAdmin34(t, url, db, exec, "en", "")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")
	const list = "#xj-job-list"
	loads := 0
	zoneFlow(t, tb, db, zonePage{
		open: func() {
			tb.Open(a.base + "/jobinfo?jobGroup=2")
			loads = 1
			tb.Wait(tableLoaded(list, loads))
		},
		add: func() { toolbar(tb, "xj-add"); tb.Shown(`#xj-job-modal`) },
		edit: func(id string) {
			selectRow(tb, list, id)
			toolbar(tb, "xj-edit")
			tb.Shown(`#xj-job-modal`)
		},
		copy: func(id string) {
			selectRow(tb, list, id)
			toolbar(tb, "xj-copy")
			tb.Shown(`#xj-job-modal`)
		},
		next: func(id string) {
			selectRow(tb, list, id)
			toolbar(tb, "xj-next-time")
		},
		reload: func() {
			loads++
			tb.Wait(tableLoaded(list, loads))
		},
		cellOf: func(id string) string {
			return tb.Str(`(function () { var i = jQuery('` + list + `').bootstrapTable('getData').map(function (r) { return String(r.id); }).indexOf(` + quote(id) + `);
				return i < 0 ? 'no row' : document.querySelector('` + list + ` tbody tr[data-index="' + i + '"] td:nth-child(4)').textContent; })()`)
		},
		hasZone: func() bool { return tb.Str(`String(!!document.getElementById('xj-f-zone'))`) == "true" },
	})
}

// TestJobZonesOff: without the column neither console has the field.
func TestJobZonesOff(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	tb := browser.NewTab(t, b, 2*time.Minute)
	base := startAdmin(t, "en")
	login(tb, base, "admin", "123456")
	tb.Open(base + "/jobinfo?jobGroup=2")
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 4`)
	if tb.Str(`String(!!document.querySelector('[name=scheduleTimezone]'))`) != "false" {
		t.Error("2.x: a time zone field without the column")
	}
	a := startAdmin34(t, "en", "")
	tb34 := browser.NewTab(t, b, 2*time.Minute)
	login34(tb34, a.base, "admin", "123456")
	tb34.Open(a.base + "/jobinfo?jobGroup=2")
	tb34.Wait(tableLoaded("#xj-job-list", 1))
	if tb34.Str(`String(!!document.querySelector('[name=scheduleTimezone]'))`) != "false" {
		t.Error("3.x: a time zone field without the column")
	}
}
