/* SPDX-License-Identifier: MIT */
/* The run option table: target, meters, event sources and outputs of one run, as data. */
#include <stddef.h>

#include "core/mem.h"
#include "core/options.h"
#include "core/si_units.h"
#include "run/run_options.h"

#define ROFF(f) offsetof(struct run_args, f)
#define G_RUN "Run options (command line only: a shared profile never picks the device)"
#define G_OUT "Output"

/* In the order of enum samples_mode (run/output.h). */
static const struct opt_choice explain_choices[] = {
	{ "none", "run the jobs" },
	{ "fio", "a fio command line per job (shell-quoted)" },
	{ NULL, NULL },
};

static const struct opt_choice samples_choices[] = {
	{ "auto", "CSV; meters at >= 10 samples per bin as min/mean/max bins" },
	{ "raw", "CSV, every sample" },
	{ "binary", "NAME.samples.bin: every sample as a 40-byte record" },
	{ NULL, NULL },
};

/* auto, then D0..D7: --mark-input's index is the input's number + 1. */
static const struct opt_choice mark_input_choices[] = {
	{ "auto", "the one input whose edges pair with the marker's" },
	{ "D0", NULL }, { "D1", NULL }, { "D2", NULL }, { "D3", NULL },
	{ "D4", NULL }, { "D5", NULL }, { "D6", NULL }, { "D7", NULL },
	{ NULL, NULL },
};

const struct opt_desc run_options[] = {
	{ .name = "target", .type = OPT_STRP, .off = ROFF(run.target), .metavar = "PATH",
	  .help = "directory (a scratch file is created there and removed), file, or block "
		  "device (needs --allow-raw-device)",
	  .group = G_RUN, .complete = "file" },
	{ .name = "profile", .type = OPT_STRP, .off = ROFF(run.profile), .shortopt = 'p',
	  .metavar = "PROFILE", .help = "profile file or name (also the first argument)",
	  .group = G_RUN, .complete = "profiles file:*.ini" },
	{ .name = "label", .type = OPT_STRP, .off = ROFF(run.label), .metavar = "TEXT",
	  .help = "the device's name as you know it (\"SanDisk Ultra 32 GB\"), kept in the "
		  "result: compare, size and the report page show it instead of the probed model",
	  .group = G_RUN },
	{ .name = "jobs", .type = OPT_STRP, .off = ROFF(run.jobs_filter), .metavar = "A,B",
	  .help = "run only these sections of the profile", .group = G_RUN },
	{ .name = "meter", .type = OPT_STRLIST, .off = ROFF(run.meters), .size = MAX_METERS,
	  .count_off = ROFF(run.nmeters), .metavar = "SPEC",
	  .help = "meter DRIVER:CONNECTION[,key=value] (repeatable; `iowatt meters --help` "
		  "lists drivers and keys)",
	  .group = G_RUN, .complete = "meters" },
	{ .name = "dry-run", .type = OPT_FLAG, .off = ROFF(run.dry_run),
	  .help = "print the plan (jobs, bytes moved, estimated time) and stop: nothing is "
		  "opened, created or written",
	  .group = G_RUN },
	{ .name = "explain", .type = OPT_ENUM, .off = ROFF(run.explain), .def = "none",
	  .choices = explain_choices, .metavar = "TOOL",
	  .help = "print, per job, the command of TOOL that runs the same I/O, and stop: "
		  "nothing is opened, created or written",
	  .group = G_RUN },
	{ .name = "no-meter", .type = OPT_FLAG, .off = ROFF(run.no_meter),
	  .help = "measure I/O only, no power", .group = G_RUN },
	{ .name = "keep", .type = OPT_FLAG, .off = ROFF(run.keep),
	  .help = "keep the scratch file after the run", .group = G_RUN },
	{ .name = "allow-raw-device", .type = OPT_FLAG, .off = ROFF(run.allow_raw_device),
	  .help = "allow a block device as target: writes DESTROY its data", .group = G_RUN },
	{ .name = "force", .type = OPT_FLAG, .off = ROFF(run.force),
	  .help = "skip the safety checks (mounted device, low free space) and let write "
		  "jobs overwrite an existing file (never extended for a read job)",
	  .group = G_RUN },
	{ .name = "same-size", .type = OPT_FLAG, .off = ROFF(run.same_size),
	  .help = "size=auto: calibrate each job once before the first round and keep that "
		  "size for every round (default: calibrate before each round)",
	  .group = G_RUN },
	{ .name = "same-size-as", .type = OPT_STRLIST, .off = ROFF(run.same_size_as),
	  .size = MAX_SAME_SIZE_FILES, .count_off = ROFF(run.nsame_size_as), .metavar = "RESULT",
	  .help = "size=auto, --same-size: no smaller than a job of the same name used in "
		  "RESULT (another device's run): every device gets the largest size (repeatable)",
	  .group = G_RUN, .complete = "file:*.json" },
	{ .name = "rates-from", .type = OPT_STRP, .off = ROFF(run.rates_from),
	  .metavar = "RESULT",
	  .help = "the device's earlier result: the plan's ETA and the size=auto calibrations' "
		  "checks use its jobs' rates (default: the newest result of the same device in "
		  "the output directory)",
	  .group = G_RUN, .complete = "file:*.json" },
	{ .name = "costs-from", .type = OPT_STRP, .off = ROFF(run.costs_from),
	  .metavar = "RESULT",
	  .help = "an earlier result of the device: the plan's power-model forecast simulates "
		  "its measured uJ per read/write/flush (pooled energy_models, else the job's "
		  "power.energy_model) instead of assumed ones, and says which it used",
	  .group = G_RUN, .complete = "file:*.json" },
	{ .name = "stop-on-undervoltage", .type = OPT_FLAG, .off = ROFF(run.stop_on_undervoltage),
	  .help = "stop the run at the first undervoltage event", .group = G_RUN },
	{ .name = "strict", .type = OPT_FLAG, .off = ROFF(run.strict),
	  .help = "a gate for CI: exit 4 when a job is INVALID, 5 when none is but one is "
		  "UNCERTAIN (the result is written either way)", .group = G_RUN },
	{ .name = "uv-threshold", .type = OPT_DOUBLE, .off = ROFF(run.uv_threshold_v),
	  .def = "4.75", .min = 0.5, .max = 60, .metavar = "VOLTS",
	  .help = "a meter voltage below this is an undervoltage event", .group = G_RUN },
	{ .name = "uv-gpio", .type = OPT_STRP, .off = ROFF(run.uv_gpio),
	  .metavar = "CHIP:LINE[,active_low]", .help = "GPIO line that signals undervoltage",
	  .group = G_RUN },
	{ .name = "mark-gpio", .type = OPT_STRP, .off = ROFF(run.mark_gpio),
	  .metavar = "CHIP:LINE", .help = "GPIO line driven high during each active phase",
	  .group = G_RUN },
	{ .name = "mark-input", .type = OPT_ENUM, .off = ROFF(run.mark_input), .def = "auto",
	  .choices = mark_input_choices, .metavar = "auto|D0..D7",
	  .help = "the meter's digital input the --mark-gpio line is wired to (PPK2 D0-D7, "
		  "common ground): its edges place the completions on the meter's clock for "
		  "event-locked averaging (docs/energy.md)",
	  .group = G_RUN },
	{ .name = "kmsg", .type = OPT_STRP, .off = ROFF(run.kmsg_path), .def = "/dev/kmsg",
	  .metavar = "PATH|none", .help = "kernel log to watch for undervoltage and USB resets",
	  .group = G_RUN, .complete = "file" },
	{ .name = "sysfs-root", .type = OPT_STRP, .off = ROFF(run.sysfs_root), .def = "",
	  .metavar = "DIR", .help = "read sysfs under DIR instead of /sys (tests)",
	  .group = G_RUN, .complete = "dir" },
	{ .name = "kill-after", .type = OPT_DURATION, .off = ROFF(run.kill_after_ns), .def = "5s",
	  .max = 3.6e12, .metavar = "TIME",
	  .help = "after Ctrl-C or SIGTERM (passed on to the command's process group), "
		  "SIGKILL the group if it still runs this long after (0: at once)",
	  .group = G_RUN },
	{ .name = "kill-descendants", .type = OPT_FLAG, .off = ROFF(run.kill_descendants),
	  .help = "when the command returns, end what it left running in its process group "
		  "(SIGTERM, SIGKILL after --kill-after); default: leave them, said in the "
		  "result and the summary",
	  .group = G_RUN },
	{ .name = "output", .type = OPT_STRP, .off = ROFF(run.output_dir), .shortopt = 'o',
	  .def = "results", .metavar = "DIR", .help = "directory for result files",
	  .group = G_OUT, .complete = "dir" },
	{ .name = "json-out", .type = OPT_STRP, .off = ROFF(run.json_out), .metavar = "FILE",
	  .help = "write the JSON result exactly here", .group = G_OUT, .complete = "file" },
	{ .name = "samples", .type = OPT_ENUM, .off = ROFF(run.samples_mode), .def = "auto",
	  .choices = samples_choices, .metavar = "MODE",
	  .help = "the samples file: auto bins fast meters (>= 10 samples per --samples-bin) "
		  "into min/mean/max rows", .group = G_OUT },
	{ .name = "samples-bin", .type = OPT_DURATION, .off = ROFF(run.samples_bin_ns),
	  .def = "1ms", .min = 1e4, .max = 6e10, .metavar = "TIME",
	  .help = "bin width of --samples auto (energy always integrates every sample)",
	  .group = G_OUT },
	{ .name = "progress", .type = OPT_FLAG, .off = ROFF(run.progress), .def = "auto",
	  .help = "show progress on stderr (auto: when stderr is a terminal)",
	  .group = G_OUT },
	{ .name = "no-progress", .type = OPT_NOFLAG, .off = ROFF(run.progress),
	  .help = "never show progress", .group = G_OUT },
	SI_UNITS_OPTION(G_OUT),
	{ .name = "quiet", .type = OPT_COUNT, .off = ROFF(quiet), .shortopt = 'q',
	  .help = "only warnings and errors (twice: errors only)", .group = G_OUT },
	{ .name = "verbose", .type = OPT_COUNT, .off = ROFF(verbose), .shortopt = 'v',
	  .help = "debug messages", .group = G_OUT },
	OPT_HELP_ROW(G_OUT),
};

const size_t run_options_count = ARRAY_SIZE(run_options);
