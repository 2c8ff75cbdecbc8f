package jobs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
)

// ErrNoRow is a write that matched no row: the Java admin answers
// ReturnT.FAIL, {"code":500,"msg":null,"content":null}.
var ErrNoRow = errors.New("no row written")

// groupTitleMax is the width of xxl_job_group.title. Java lets the
// database refuse a longer title and shows the driver's error; we refuse
// it up front with the console's own length message.
const groupTitleMax = 12

func javaLen(s string) int { return len(utf16.Encode([]rune(s))) }

// checkGroupNames is the shared part of group save and update
// (console.md §4, checks 1, 2 and 4); onSave tells save from update.
func (s *Service) checkGroupNames(g schema.Group, onSave bool) error {
	if javaTrim(g.AppName) == "" {
		return &Refusal{Msg: s.texts.Text("system_please_input") + "AppName"}
	}
	if n := javaLen(g.AppName); n < 4 || n > 64 {
		return s.refuse("jobgroup_field_appname_length")
	}
	if s.unsafeText(g.AppName, onSave) {
		return &Refusal{Msg: "AppName" + s.texts.Text("system_unvalid")}
	}
	if javaTrim(g.Title) == "" {
		return s.refuse("system_please_input", "jobgroup_field_title")
	}
	if s.unsafeText(g.Title, onSave) {
		return s.refuse("jobgroup_field_title", "system_unvalid")
	}
	if max := s.rules.GroupTitleMax; max > 0 {
		if javaLen(g.Title) > max {
			return &Refusal{Msg: s.texts.Text("jobgroup_field_title") + s.texts.Text("system_lengh_limit") + "[0-" + strconv.Itoa(max) + "]"}
		}
	} else if javaLen(g.Title) > groupTitleMax {
		return s.refuse("jobgroup_field_title_length")
	}
	return nil
}

// unsafeText is the markup check of a group's texts: XssUtil's patterns on
// save and update under Rules.GroupXSS, else "<" or ">" on save only.
func (s *Service) unsafeText(v string, onSave bool) bool {
	if s.rules.GroupXSS {
		return hasXSS(v)
	}
	return onSave && strings.ContainsAny(v, "<>")
}

// checkManualAddresses is check 6 for a manually registered group; under
// Rules.HTTPAddresses every address must also be an http(s) URL
// ("…[2]", checked per address after its blank check).
func (s *Service) checkManualAddresses(g schema.Group, onSave bool) error {
	if blank(g.AddressList) {
		return s.refuse("jobgroup_field_addressType_limit")
	}
	if s.unsafeText(*g.AddressList, onSave) {
		return s.refuse("jobgroup_field_registryList", "system_unvalid")
	}
	for _, item := range javaSplit(*g.AddressList, ",") {
		if javaTrim(item) == "" {
			return s.refuse("jobgroup_field_registryList_unvalid")
		}
		if s.rules.HTTPAddresses && !httpURL(item) {
			return &Refusal{Msg: s.texts.Text("jobgroup_field_registryList_unvalid") + "[2]"}
		}
	}
	return nil
}

// httpURL is xxl-tool's HttpTool.isHttp || isHttps: the text, untrimmed,
// starts with http: or https: in any case.
func httpURL(v string) bool {
	l := strings.ToLower(v)
	return strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:")
}

// AddGroup validates and stores a new executor group (console.md §4
// save); the submitted address list is stored as given, also for an
// automatic group until the registry monitor replaces it.
func (s *Service) AddGroup(ctx context.Context, g schema.Group) (int, error) {
	id, err := s.addGroup(ctx, s.store, g)
	if err != nil {
		return 0, err
	}
	s.log.Info().Int("job_group", id).Str("appname", g.AppName).Msg("executor group added")
	return id, nil
}

// addGroup is AddGroup on st, the store or a transaction of it.
func (s *Service) addGroup(ctx context.Context, st *schema.Store, g schema.Group) (int, error) {
	if err := s.checkGroupNames(g, true); err != nil {
		return 0, err
	}
	if g.AddressType != 0 {
		if err := s.checkManualAddresses(g, true); err != nil {
			return 0, err
		}
	}
	now := s.now()
	g.UpdateTime = &now
	id, err := st.GroupSave(ctx, g)
	if err != nil {
		return 0, fmt.Errorf("add group %q: %w", g.AppName, err)
	}
	if id < 1 {
		return 0, ErrNoRow
	}
	return id, nil
}

// UpdateGroup validates and rewrites a group (console.md §4 update). An
// automatic group's address list is rebuilt now from the live
// registrations of its appname.
func (s *Service) UpdateGroup(ctx context.Context, g schema.Group) error {
	if err := s.updateGroup(ctx, s.store, g); err != nil {
		return err
	}
	s.log.Info().Int("job_group", g.ID).Msg("executor group updated")
	return nil
}

// updateGroup is UpdateGroup on st, the store or a transaction of it.
func (s *Service) updateGroup(ctx context.Context, st *schema.Store, g schema.Group) error {
	if err := s.checkGroupNames(g, false); err != nil {
		return err
	}
	if g.AddressType == 0 {
		live, err := st.RegistryFindLiveValues(ctx, thread.RegistryGroupExecutor, g.AppName, thread.DeadTimeout, s.now())
		if err != nil {
			return err
		}
		// Sorted, comma-joined and cut to the column as the monitor writes it.
		g.AddressList = thread.AddressList(live)
	} else if err := s.checkManualAddresses(g, false); err != nil {
		return err
	}
	now := s.now()
	g.UpdateTime = &now
	n, err := st.GroupUpdate(ctx, g)
	if err != nil {
		return fmt.Errorf("update group %d: %w", g.ID, err)
	}
	if n < 1 {
		return ErrNoRow
	}
	return nil
}

// RemoveGroup deletes a group that no job uses, keeping at least one
// (console.md §4 remove). Both refusals are conflicts with the stored
// state (ErrConflict). Under Rules.RemoveGroupRegistry (3.4.2) an unknown
// group is already removed — no error — and the executor registrations of
// the group's AppName go with it.
func (s *Service) RemoveGroup(ctx context.Context, id int) error {
	var g schema.Group
	if s.rules.RemoveGroupRegistry {
		var err error
		g, err = s.store.GroupLoad(ctx, id)
		if errors.Is(err, schema.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	n, err := s.store.JobCount(ctx, schema.JobFilter{JobGroup: id})
	if err != nil {
		return err
	}
	if n > 0 {
		return s.refuseAs(ErrConflict, "jobgroup_del_limit_0")
	}
	all, err := s.store.GroupFindAll(ctx)
	if err != nil {
		return err
	}
	if len(all) == 1 {
		return s.refuseAs(ErrConflict, "jobgroup_del_limit_1")
	}
	removed, err := s.store.GroupRemove(ctx, id)
	if err != nil {
		return fmt.Errorf("remove group %d: %w", id, err)
	}
	if removed < 1 {
		return ErrNoRow
	}
	if s.rules.RemoveGroupRegistry {
		if _, err := s.store.RegistryRemoveByKey(ctx, thread.RegistryGroupExecutor, g.AppName); err != nil {
			return fmt.Errorf("remove the registrations of group %d: %w", id, err)
		}
	}
	s.log.Info().Int("job_group", id).Msg("executor group removed")
	return nil
}
