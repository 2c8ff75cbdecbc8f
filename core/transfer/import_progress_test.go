package transfer

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestImportProgress: an import tells of each job of both passes, in
// order, ending with each pass complete.
func TestImportProgress(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		var jobsIn []Job
		for i := range 3 {
			jobsIn = append(jobsIn, job(fmt.Sprintf("job %d", i)))
		}
		var got []ImportProgress
		_, err := Import(context.Background(), service(s), doc(jobsIn...), ImportOptions{Mode: Merge, Access: admin,
			Progress: func(p ImportProgress) { got = append(got, p) }})
		if err != nil {
			t.Fatal(err)
		}
		var want []ImportProgress
		for pass := 1; pass <= 2; pass++ {
			for done := 0; done <= 3; done++ {
				want = append(want, ImportProgress{Pass: pass, Done: done, Total: 3})
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("progress %v, want %v", got, want)
		}
	})
}
