# Mutation check of the fire-counting suites (issue 22): broken copies of
# the executor client's /run and of the trigger pools' door, each doubling
# every call and dropping every second one, must each fail the tests that
# count fires; a mutant that survives fails this target. The table says
# which tests killed which mutant and how fast. CI runs the ci plan after
# make test (.ci/run); make mutants MUTANTS_ARGS="-plan full" runs every
# mutant against every fire-counting package (about half an hour).
.PHONY: mutants

mutants:
	$(GO) run ./scripts/mutants $(MUTANTS_ARGS)
