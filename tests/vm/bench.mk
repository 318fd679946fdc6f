# Benchmark targets (bench/), included by tests/vm/vm.mk.
#   make bench [BENCH=cpu,tput,...] [BENCH_RUNS=3] [BENCH_SCHEDS=...]
#                       the full suite in one VM boot; report in bench/results/<date>/
#   make bench-quick    reduced set (1 run, short runs, 4 schedulers), < 10 min
#   make bench-traces   re-record the start-up traces in the VM (bench/traces/)
#   make bench-report DIR=bench/results/<date>   regenerate a report
# See Documentation/benchmarks.rst.
export BENCH BENCH_RUNS BENCH_RT BENCH_RAMP BENCH_RT_CPU BENCH_SRT_RT BENCH_WARMUP \
	BENCH_STARTUP_TIMEOUT BENCH_SCHEDS BENCH_STARTUP_BG BENCH_SCALE_N BENCH_TPUT_CASES BENCH_APP \
	BENCH_RESULTS BENCH_README

.PHONY: bench bench-quick bench-traces bench-report

bench: vm-modules image
	BENCH_CMDLINE="$(strip make bench$(foreach v,BENCH BENCH_RUNS BENCH_SCHEDS BENCH_APP,$(if $($(v)), $(v)=$($(v)))))" \
		$(VM_TOP)/bench/run.sh

bench-quick: vm-modules image
	BENCH_CMDLINE="$(strip make bench-quick$(foreach v,BENCH BENCH_RUNS BENCH_SCHEDS BENCH_APP,$(if $($(v)), $(v)=$($(v)))))" \
		$(VM_TOP)/bench/run.sh --quick

bench-traces: vm-modules image
	$(VM_TOP)/bench/record-traces.sh

bench-report:
	@if [ -z "$(DIR)" ]; then echo "usage: make bench-report DIR=bench/results/<date>" >&2; exit 2; fi
	$(VM_TOP)/bench/report.sh $(DIR) $(or $(BENCH_README),0)

# make demo (tests/demo.sh, target in vm.mk) replays a start-up trace from bench/
demo: VM_SHARE = $(VM_TOP)/bench
demo: export VM_OUT = $(VM_TOP)/tests/out/demo
