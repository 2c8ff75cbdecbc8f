package transfer

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

func doc(jobsIn ...Job) Document {
	return Document{Format: FormatName, Version: Version, Groups: []Group{
		{AppName: "app-orders", Title: "Orders", AddressType: 1, AddressList: []string{"http://10.0.0.1:9999/"}},
	}, Jobs: jobsIn}
}

func job(desc string, children ...Ref) Job {
	return Job{Group: "app-orders", JobDesc: desc, Author: schema.Ptr("ci"), AlarmEmail: schema.Ptr(""),
		ScheduleType: "CRON", ScheduleConf: schema.Ptr("0 0 1 * * ?"), MisfireStrategy: "DO_NOTHING",
		ExecutorRouteStrategy: schema.Ptr("FIRST"), ExecutorHandler: schema.Ptr("h"), ExecutorParam: schema.Ptr(""),
		ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), GlueType: "BEAN", GlueSource: schema.Ptr(""),
		GlueRemark: schema.Ptr("init"), ChildJobs: children}
}

func outcomes(r Report) string {
	var b strings.Builder
	for _, c := range r.Changes {
		b.WriteString(c.Kind + ":" + string(c.Outcome) + " ")
	}
	return strings.TrimSpace(b.String())
}

// TestImportModes: merge keeps what exists, overwrite updates it, a dry run
// reports the same as a real run and writes nothing, a child may refer to a
// job later in the document, and importing the same document twice
// changes nothing the second time.
func TestImportModes(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := service(s)
		b := job("b")
		d := doc(job("a", b.Ref()), b)
		dry, err := Import(ctx, svc, d, ImportOptions{Mode: Merge, DryRun: true, Access: admin})
		if err != nil || outcomes(dry) != "group:created job:created job:created" || !dry.DryRun {
			t.Fatalf("dry run: %s %v", outcomes(dry), err)
		}
		if _, ok, _ := svc.FindGroup(ctx, "app-orders"); ok {
			t.Fatal("the dry run wrote its group")
		}
		real, err := Import(ctx, svc, d, ImportOptions{Mode: Merge, Access: admin})
		if err != nil || outcomes(real) != outcomes(dry) {
			t.Fatalf("import: %s %v", outcomes(real), err)
		}
		a, _, _ := svc.FindJob(ctx, jobs.Identity{JobGroup: real.Changes[0].ID, ExecutorHandler: "h", JobDesc: "a"})
		if *a.ChildJobID != itoa(real.Changes[2].ID) {
			t.Errorf("child of a: %q, want b's id %d", *a.ChildJobID, real.Changes[2].ID)
		}
		again, err := Import(ctx, svc, d, ImportOptions{Mode: Overwrite, Access: admin})
		if err != nil || outcomes(again) != "group:unchanged job:unchanged job:unchanged" {
			t.Errorf("second import: %s %v", outcomes(again), err)
		}

		d.Groups[0].Title = "Orders v2"
		d.Jobs[1].ScheduleConf = schema.Ptr("0 0 2 * * ?")
		merged, err := Import(ctx, svc, d, ImportOptions{Mode: Merge, Access: admin})
		if err != nil || outcomes(merged) != "group:kept job:unchanged job:kept" || merged.Changes[2].Fields[0] != "scheduleConf" {
			t.Errorf("merge: %s %+v %v", outcomes(merged), merged.Changes, err)
		}
		over, err := Import(ctx, svc, d, ImportOptions{Mode: Overwrite, Access: admin})
		if err != nil || outcomes(over) != "group:updated job:unchanged job:updated" {
			t.Errorf("overwrite: %s %v", outcomes(over), err)
		}
		g, _, _ := svc.FindGroup(ctx, "app-orders")
		bj, _ := s.JobLoad(ctx, over.Changes[2].ID)
		if g.Title != "Orders v2" || *bj.ScheduleConf != "0 0 2 * * ?" {
			t.Errorf("overwrite wrote %q %q", g.Title, *bj.ScheduleConf)
		}
	})
}

// TestImportRefused: every refusal names the item and writes nothing,
// even when earlier items were fine.
func TestImportRefused(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := service(s)
		bad := job("bad")
		bad.ScheduleConf = schema.Ptr("every day")
		missingGroup := job("x")
		missingGroup.Group = "app-nowhere"
		cases := []struct {
			name string
			doc  Document
			opt  ImportOptions
			want string
		}{
			{"validation", doc(job("fine"), bad), ImportOptions{Mode: Merge, Access: admin}, `job 2 (app-orders / h / "bad"): Cronillegal`},
			{"unknown group", doc(missingGroup), ImportOptions{Mode: Merge, Access: admin},
				`job 1 (app-nowhere / h / "x"): executor group "app-nowhere" is neither in the document nor in the database`},
			{"unknown child", doc(job("a", Ref{Group: "app-orders", ExecutorHandler: "h", JobDesc: "ghost"})), ImportOptions{Mode: Merge, Access: admin},
				`job 1 (app-orders / h / "a"): child job app-orders / h / "ghost" is neither in the document nor in the database`},
			{"duplicate job", doc(job("a"), job("a")), ImportOptions{Mode: Merge, Access: admin},
				`jobs 1 and 2 of the document are the same job (app-orders / h / "a"): give them distinct descriptions or keys`},
			{"bad group", Document{Groups: []Group{{AppName: "ab", Title: "t"}}}, ImportOptions{Mode: Merge, Access: admin},
				`group "ab": AppName length is limited to 4~64`},
			{"mode", doc(), ImportOptions{Mode: "replace", Access: admin}, `import mode "replace": use merge or overwrite`},
		}
		for _, c := range cases {
			if _, err := Import(ctx, svc, c.doc, c.opt); err == nil || err.Error() != c.want {
				t.Errorf("%s: %v, want %q", c.name, err, c.want)
			}
		}
		if _, ok, _ := svc.FindGroup(ctx, "app-orders"); ok {
			t.Error("a refused import wrote its group")
		}
		if _, err := Import(ctx, svc, doc(), ImportOptions{Mode: Merge, Access: jobs.AccessOf(schema.User{Role: 0})}); !errors.Is(err, jobs.ErrPermission) {
			t.Errorf("normal user: %v", err)
		}
		var refusal *jobs.Refusal
		_, err := Import(ctx, svc, doc(bad), ImportOptions{Mode: Merge, Access: admin})
		if !errors.As(err, &refusal) || refusal.Msg != "Cronillegal" {
			t.Errorf("classification lost: %v", err)
		}
	})
}

// TestDecode refuses what is not a version-1 jobs document.
func TestDecode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"format":"xxl-admin-go/jobs","version":1,"groups":[],"jobs":[]}`, ""},
		{`{"format":"xxl-admin-go/jobs","version":2,"groups":[],"jobs":[]}`, "jobs document version 2: this xxl-admin-go reads version 1"},
		{`{"format":"other","version":1}`, `not a jobs document: format "other", want "xxl-admin-go/jobs"`},
		{`{"format":"xxl-admin-go/jobs","version":1,"jobs":[{"jobDescription":"x"}]}`, `not a jobs document: json: unknown field "jobDescription"`},
		{`{"format":"xxl-admin-go/jobs","version":1} {}`, "not a jobs document: data after the document"},
		{`[`, "not a jobs document: unexpected EOF"},
	} {
		_, err := Decode(strings.NewReader(c.in))
		if got := errText(err); got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestDocsExample: the format example in docs/job-api.md ("Export and
// import") is a document Decode accepts.
func TestDocsExample(t *testing.T) {
	raw, err := os.ReadFile("../../docs/job-api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "- **Format** (")
	if !ok {
		t.Fatal("docs/job-api.md: no format section")
	}
	_, rest, _ = strings.Cut(rest, "```json\n")
	block, _, _ := strings.Cut(rest, "```")
	doc, err := Decode(strings.NewReader(block))
	if err != nil || len(doc.Jobs) != 1 || doc.Jobs[0].Key != "orders/cleanup" {
		t.Errorf("docs/job-api.md example: %+v %v", doc, err)
	}
}
