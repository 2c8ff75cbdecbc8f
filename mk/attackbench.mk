# Replays the resource attacks of issue 9 against an in-process admin on
# loopback and prints the numbers (about 2.5 minutes):
#   make attack-bench ATTACKBENCH_ARGS="-scenario drip -drip 70s"
.PHONY: attack-bench

attack-bench:
	$(GO) run ./scripts/attackbench $(ATTACKBENCH_ARGS)
